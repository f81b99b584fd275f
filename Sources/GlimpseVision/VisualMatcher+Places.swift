public import GlimpseImage

/// One matched pair of points: where a reference keypoint lies in the query picture and in the
/// reference photo, each normalised to its own picture (see ``ImagePoint``).
public struct Correspondence: Sendable, Hashable {
    /// The point in the query picture.
    public let query: ImagePoint
    /// The point in the reference photo.
    public let reference: ImagePoint

    /// Creates a correspondence.
    public init(query: ImagePoint, reference: ImagePoint) {
        self.query = query
        self.reference = reference
    }
}

/// Where a verified reference photo lies in the query picture: the evidence behind a found place's
/// region and the explain picture. Every point is normalised (``ImagePoint``) to the picture matched,
/// in its original orientation (a match found on the mirror image is mapped back).
public struct MatchGeometry: Sendable, Hashable {
    /// The key of the reference photo (see ``MatcherReference``).
    public let referenceKey: String
    /// Whether the match was found on the mirror image of the query.
    public let mirrored: Bool
    /// The reference photo's four corners (top-left, top-right, bottom-right, bottom-left of the
    /// photo) mapped into the query picture by the verified similarity; they may lie outside 0…1
    /// when the picture shows only part of the photo.
    public let outline: [ImagePoint]
    /// The part of the query picture the place covers: the outline's bounding box clipped to the
    /// picture (the inliers' bounding box if the outline misses it).
    public let region: ImageRegion
    /// The inlier correspondences of the verification.
    public let correspondences: [Correspondence]

    /// Creates a geometry.
    public init(
        referenceKey: String, mirrored: Bool, outline: [ImagePoint], region: ImageRegion,
        correspondences: [Correspondence]
    ) {
        self.referenceKey = referenceKey
        self.mirrored = mirrored
        self.outline = outline
        self.region = region
        self.correspondences = correspondences
    }

    /// The same geometry for a query picture that was the region `crop` of a larger one: every
    /// query point mapped into the larger picture.
    public func inPicture(croppedTo crop: ImageRegion) -> MatchGeometry {
        MatchGeometry(
            referenceKey: referenceKey, mirrored: mirrored, outline: outline.map(crop.mapping),
            region: crop.mapping(region),
            correspondences: correspondences.map { Correspondence(query: crop.mapping($0.query), reference: $0.reference) })
    }
}

/// A place found in the query picture: its candidate and where it lies.
public struct LocatedPlace: Sendable, Hashable {
    /// The candidate, with its confidence (for a place after the first, its evidence on the keypoints
    /// the places found before it left over).
    public let candidate: MatchCandidate
    /// Where its reference photo lies in the query picture.
    public let geometry: MatchGeometry

    /// Creates a located place.
    public init(candidate: MatchCandidate, geometry: MatchGeometry) {
        self.candidate = candidate
        self.geometry = geometry
    }
}

/// The outcome of ``VisualMatcher/verification(_:reference:setAside:keepingPairs:)``.
struct Verification {
    /// Correspondences consistent with the transform.
    var inliers: Int
    /// Distinct reference keypoints among the inliers.
    var score: Int
    /// The fitted similarity, query extraction coordinates → reference extraction coordinates.
    var transform: SimilarityTransform?
    /// The inliers as (query keypoint, reference descriptor in its segment), when asked for.
    var pairs: [(query: Int32, reference: Int32)]

    static let none = Verification(inliers: 0, score: 0, transform: nil, pairs: [])
}

/// The query features of one orientation and the references verified for it: what the search for
/// further places goes over.
struct OrientationPass {
    let features: ImageFeatures
    let mirrored: Bool
    /// The keypoint shortlist, most votes first.
    let shortlisted: [(reference: Int, votes: Int)]
    /// References verified because of their feature print.
    let byPrint: [Int]
    /// The verification of every reference verified in this orientation, with its inlier pairs.
    let verified: [Int: Verification]
}

extension VisualMatcher {
    /// The most places one query reports.
    public static let maxPlaces = 4

    /// The least shortlist votes for which a reference that was not verified in the first pass (an
    /// earlier candidate was decisive) is verified in the search for further places.
    static let minimumVotesForFurtherPlace = 24

    /// `report` with the places the picture shows located: the accepted candidate's geometry, then,
    /// with the keypoints its inliers explain set aside, every further candidate of the same
    /// orientation that is accepted on what is left (the same confidence rule, and at least
    /// ``VisionConfiguration/acceptScore`` keypoints of its own), up to ``maxPlaces``.
    ///
    /// Cheap when the picture shows one place: the accepted photo's verification is the first pass's,
    /// and candidates that were verified and not accepted on all keypoints cannot be on fewer, so only
    /// shortlisted candidates the first pass skipped (after a decisive one) with at least
    /// ``minimumVotesForFurtherPlace`` votes are verified again.
    func locatePlaces(
        in report: MatchReport, found: [MatchCandidate], passes: [OrientationPass], similarity: PrintComparison?,
        limit: Int
    ) -> MatchReport {
        // A place accepted on its print alone, never verified, has no geometry to locate it by.
        guard let accepted = report.accepted, accepted.verified,
              let pass = passes.first(where: { $0.mirrored == accepted.mirrored }),
              let group = groupIndex[accepted.referenceID]
        else { return report }
        let start = StageInstant.now()
        // The accepted place's best photo: its verification from the first pass, in reference order.
        var best: (reference: Int, verification: Verification)?
        for (reference, v) in pass.verified.sorted(by: { $0.key < $1.key })
        where v.transform != nil && groupID(of: reference) == accepted.referenceID
            && v.score > (best?.verification.score ?? -1) {
            best = (reference, v)
        }
        if best == nil {
            // Not verified in this orientation's record (never expected): verify its photos again.
            for (s, segment) in segments.enumerated() {
                for (r, g) in segment.groups.enumerated() where Int(g) == group && live[segmentStarts[s] + r] {
                    let v = verification(pass.features, reference: segmentStarts[s] + r, keepingPairs: true)
                    if v.transform != nil, v.score > (best?.verification.score ?? -1) { best = (segmentStarts[s] + r, v) }
                }
            }
        }
        guard let best, let first = geometry(of: best.verification, reference: best.reference, pass: pass) else {
            return report
        }
        var located = [LocatedPlace(candidate: accepted, geometry: first)]
        var setAside = [Bool](repeating: false, count: pass.features.count)
        for pair in best.verification.pairs { setAside[Int(pair.query)] = true }
        var done: Set<String> = [accepted.referenceID]
        var firstPass: [String: MatchCandidate] = [:]
        for candidate in found where candidate.mirrored == pass.mirrored { firstPass[candidate.referenceID] = candidate }
        let order = pass.shortlisted + pass.byPrint.map { ($0, 0) }
        for (reference, votes) in order where located.count < Self.maxPlaces {
            let id = groupID(of: reference)
            guard !done.contains(id) else { continue }
            if let earlier = firstPass[id], earlier.verified {
                // Not accepted on every keypoint: not on fewer either.
                guard confidence(earlier, similarity: similarity) >= MatchDecision.acceptLine else { continue }
            } else if votes < Self.minimumVotesForFurtherPlace {
                continue
            }
            let v = verification(pass.features, reference: reference, setAside: setAside, keepingPairs: true)
            guard v.score >= configuration.acceptScore else { continue }
            let candidate = MatchCandidate(
                referenceID: id, votes: max(votes, firstPass[id]?.votes ?? 0), verified: true, inliers: v.inliers,
                score: Double(v.score), mirrored: pass.mirrored)
            let sure = confidence(candidate, similarity: similarity)
            guard sure >= MatchDecision.acceptLine,
                  let geometry = geometry(of: v, reference: reference, pass: pass) else { continue }
            located.append(LocatedPlace(
                candidate: candidate.with(similarity: self.similarity(of: id, in: similarity)?.similarity, confidence: sure),
                geometry: geometry))
            done.insert(id)
            for pair in v.pairs { setAside[Int(pair.query)] = true }
        }
        var timings = report.timings
        timings.addLocating(since: start)
        var candidates = report.candidates
        if located.count > 1 {
            // Further places carry their own evidence and rank by it, within the limit.
            let further = located.dropFirst().map(\.candidate)
            let furtherIDs = Set(further.map(\.referenceID))
            candidates.removeAll { furtherIDs.contains($0.referenceID) }
            candidates = Array((candidates + further).sorted { $0.confidence > $1.confidence }.prefix(max(limit, located.count)))
            // Every located place stays listed, even past the limit.
            let listed = Set(candidates.map(\.referenceID))
            candidates += further.filter { !listed.contains($0.referenceID) }
        }
        return MatchReport(
            candidates: candidates, accepted: accepted, timings: timings, queryKeypoints: report.queryKeypoints,
            usedMirror: report.usedMirror, featurePrint: report.featurePrint, places: located)
    }

    /// The geometry of verification `v` of `reference`, in normalised query coordinates.
    func geometry(of v: Verification, reference: Int, pass: OrientationPass) -> MatchGeometry? {
        guard let back = v.transform?.inverse, pass.features.width > 0, pass.features.height > 0 else { return nil }
        let (s, local) = locate(reference)
        let segment = segments[s]
        let rw = Double(max(1, segment.sizes[2 * local])), rh = Double(max(1, segment.sizes[2 * local + 1]))
        let pw = Double(pass.features.width), ph = Double(pass.features.height)
        let mirrored = pass.mirrored
        func queryPoint(_ x: Double, _ y: Double) -> ImagePoint {
            let nx = (x + 0.5) / pw
            return ImagePoint(x: mirrored ? 1 - nx : nx, y: (y + 0.5) / ph)
        }
        // Keypoint positions are pixel centres: a picture spans −0.5 … size − 0.5.
        let corners = [(-0.5, -0.5), (rw - 0.5, -0.5), (rw - 0.5, rh - 0.5), (-0.5, rh - 0.5)]
        let outline = corners.map { corner in
            let p = back.apply(corner.0, corner.1)
            return queryPoint(p.x, p.y)
        }
        // The pairs name descriptors the way verification read them: in the segment, or in the slot.
        let points = segment.verificationKeypoints(of: local)?.points ?? []
        let correspondences = v.pairs.compactMap { pair -> Correspondence? in
            let kp = pass.features.keypoints[Int(pair.query)]
            let j = Int(pair.reference)
            guard 2 * j + 1 < points.count else { return nil }
            return Correspondence(
                query: queryPoint(Double(kp.x), Double(kp.y)),
                reference: ImagePoint(x: (Double(points[2 * j]) + 0.5) / rw, y: (Double(points[2 * j + 1]) + 0.5) / rh))
        }
        let region = ImageRegion.bounding(outline) ?? ImageRegion.bounding(correspondences.map(\.query)) ?? .whole
        return MatchGeometry(
            referenceKey: segment.keys[local], mirrored: mirrored, outline: outline, region: region,
            correspondences: correspondences)
    }
}
