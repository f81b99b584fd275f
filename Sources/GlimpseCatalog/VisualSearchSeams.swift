public import GlimpseFeaturePrint
public import GlimpseImage
public import GlimpseLabels

/// One catalog place that a picture may show, as a matcher ranks it.
public struct PlaceMatchCandidate: Sendable, Hashable {
    /// The id of the matched place.
    public var placeID: String
    /// How sure the matcher is, from 0 (no evidence) to 1 (certain).
    public var score: Double
    /// Whether the matcher accepts this candidate as a match (its own threshold).
    public var accepted: Bool
    /// Geometric evidence behind the score (such as verified keypoint inliers), when the matcher has it.
    public var inliers: Int?
    /// Where the place lies in the picture matched, for an accepted candidate whose matcher locates it.
    public var region: ImageRegion?
    /// The feature-print similarity of the picture to the place, when prints were compared.
    public var similarity: Double?
    /// That similarity's margin over the next most similar place, when prints were compared.
    public var margin: Double?
    /// The look-alike place that kept this one from being accepted on its print, when one did.
    public var heldBackBy: String?

    /// Creates a candidate; `score` is clamped to 0…1.
    public init(
        placeID: String, score: Double, accepted: Bool, inliers: Int? = nil, region: ImageRegion? = nil,
        similarity: Double? = nil, margin: Double? = nil, heldBackBy: String? = nil
    ) {
        self.heldBackBy = heldBackBy
        self.placeID = placeID
        self.score = score.isFinite ? min(max(score, 0), 1) : 0
        self.accepted = accepted
        self.inliers = inliers
        self.region = region
        self.similarity = similarity.flatMap { $0.isFinite ? $0 : nil }
        self.margin = margin.flatMap { $0.isFinite ? $0 : nil }
    }
}

/// What a matcher found in one picture. Several candidates are accepted when the picture shows
/// several places.
public struct PlaceMatchReport: Sendable {
    /// The candidates, best first.
    public var candidates: [PlaceMatchCandidate]
    /// Time spent per stage, by stage name (such as `features`, `shortlist`, `verify`).
    public var timings: [String: Duration]
    /// The picture's feature print, when the matcher computed one (labels reuse it instead of running
    /// the network again).
    public var featurePrint: FeaturePrint?

    /// Creates a report.
    public init(candidates: [PlaceMatchCandidate], timings: [String: Duration] = [:], featurePrint: FeaturePrint? = nil) {
        self.candidates = candidates
        self.timings = timings
        self.featurePrint = featurePrint
    }
}

/// Recognises which catalog places a picture shows: the seam between visual search and the matcher.
public protocol PlaceMatching: Sendable {
    /// The ranked candidates for `image`, at most `limit` of them.
    func matchPlaces(in image: PixelBuffer, limit: Int) async throws -> PlaceMatchReport
}

/// Derives scene labels from a picture: the seam between visual search and the label model.
public protocol LabelDeriving: Sendable {
    /// Labels for `image` with confidences in 0…1, most confident first.
    func labels(for image: PixelBuffer) async throws -> [ScoredLabel]
    /// Labels for `image` whose feature print is already known (`nil` when it is not).
    func labels(for image: PixelBuffer, featurePrint: FeaturePrint?) async throws -> [ScoredLabel]
}

extension LabelDeriving {
    /// Ignores the print and labels the pixels.
    public func labels(for image: PixelBuffer, featurePrint: FeaturePrint?) async throws -> [ScoredLabel] {
        try await labels(for: image)
    }
}
