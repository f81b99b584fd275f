public import GlimpseFeaturePrint
/// One catalog reference considered for a query, with the evidence for it.
public struct MatchCandidate: Sendable, Hashable {
    /// The identifier the reference was registered with.
    public let referenceID: String
    /// Shortlist votes: query descriptors whose nearest reference descriptor belongs to this reference.
    public let votes: Int
    /// Whether geometric verification ran for this candidate (false when it was skipped because an
    /// earlier candidate was already decisive).
    public let verified: Bool
    /// Descriptor matches (after the ratio test) consistent with the verified similarity transform.
    public let inliers: Int
    /// The match score: the number of distinct reference keypoints among the inliers, i.e. how many
    /// separate points of the reference photo the query reproduces in one consistent geometry.
    /// Photos of other scenes reach at most a handful; the decision threshold is
    /// ``VisionConfiguration/acceptScore``. 0 when not verified.
    public let score: Double
    /// Whether the evidence came from the mirror image of the query.
    public let mirrored: Bool
    /// The cosine similarity of the query's feature print to the reference's, when prints were compared.
    public let similarity: Double?
    /// The print similarity's margin over the most similar other reference (negative when another is
    /// closer), when prints were compared.
    public let margin: Double?
    /// How sure the matcher is that the query shows this reference, 0…1, from ``score``,
    /// ``similarity`` and ``margin`` (see ``MatchDecision``); a verified candidate at or above
    /// ``MatchDecision/acceptLine`` is accepted, and so is any candidate whose print alone reaches it on
    /// the calibrated line. 0 until the matcher ranks the candidate.
    public let confidence: Double
    /// The look-alike place that kept this candidate from being accepted on its print: set when its print
    /// evidence passes the catalog's line but not the line that place raised for it
    /// (``PrintCalibration/lookAlikes``), and it was not accepted otherwise.
    public let heldBackBy: String?

    /// Creates a candidate.
    public init(
        referenceID: String, votes: Int, verified: Bool, inliers: Int, score: Double, mirrored: Bool,
        similarity: Double? = nil, margin: Double? = nil, confidence: Double = 0, heldBackBy: String? = nil
    ) {
        self.heldBackBy = heldBackBy
        self.margin = margin
        self.referenceID = referenceID
        self.votes = votes
        self.verified = verified
        self.inliers = inliers
        self.score = score
        self.mirrored = mirrored
        self.similarity = similarity
        self.confidence = confidence
    }

    /// The same candidate with its print similarity, margin, confidence and look-alike set.
    public func with(
        similarity: Double?, margin: Double? = nil, confidence: Double, heldBackBy: String? = nil
    ) -> MatchCandidate {
        MatchCandidate(referenceID: referenceID, votes: votes, verified: verified, inliers: inliers, score: score,
                       mirrored: mirrored, similarity: similarity, margin: margin, confidence: confidence,
                       heldBackBy: heldBackBy)
    }
}

/// The time spent in each stage of one query, on the wall clock and on the thread's CPU clock.
public struct StageTimings: Sendable, Hashable {
    /// Resampling and feature extraction of the picture as given.
    public var features: Duration
    /// The mirror image's features, derived from the picture's (zero when the mirror image was not
    /// looked at): work a matcher that ignores mirrored pictures does not do, so kept apart from ``features``.
    public var mirrorFeatures: Duration = .zero
    /// Thread CPU time of the mirror image's features.
    public var mirrorFeaturesCPU: Duration = .zero
    /// Shortlist voting through the LSH index.
    public var shortlist: Duration
    /// Descriptor matching and RANSAC on the shortlisted candidates.
    public var verification: Duration
    /// The query's feature print and its comparison with every reference's (zero when it did not run).
    public var featurePrint: Duration
    /// Thread CPU time of the feature-print stage.
    public var featurePrintCPU: Duration
    /// Thread CPU time of the features stage.
    public var featuresCPU: Duration
    /// Thread CPU time of the shortlist stage.
    public var shortlistCPU: Duration
    /// Thread CPU time of the verification stage.
    public var verificationCPU: Duration
    /// Locating the places found: the accepted match's geometry and the search for further places on
    /// the keypoints it leaves over (zero when nothing was accepted).
    public var locating: Duration = .zero
    /// Thread CPU time of the locating stage.
    public var locatingCPU: Duration = .zero

    /// Creates timings.
    public init(
        features: Duration = .zero, shortlist: Duration = .zero, verification: Duration = .zero,
        featuresCPU: Duration = .zero, shortlistCPU: Duration = .zero, verificationCPU: Duration = .zero,
        featurePrint: Duration = .zero, featurePrintCPU: Duration = .zero
    ) {
        self.featurePrint = featurePrint
        self.featurePrintCPU = featurePrintCPU
        self.features = features
        self.shortlist = shortlist
        self.verification = verification
        self.featuresCPU = featuresCPU
        self.shortlistCPU = shortlistCPU
        self.verificationCPU = verificationCPU
    }

    /// The wall-clock sum of the stages.
    public var total: Duration { features + mirrorFeatures + shortlist + verification + featurePrint + locating }
    /// The CPU-time sum of the stages.
    public var totalCPU: Duration {
        featuresCPU + mirrorFeaturesCPU + shortlistCPU + verificationCPU + featurePrintCPU + locatingCPU
    }

    /// Adds the time from `start` to now to the locating stage.
    mutating func addLocating(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        locating += e.wall
        locatingCPU += e.cpu
    }

    /// Adds the time from `start` to now to the feature-print stage.
    mutating func addFeaturePrint(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        featurePrint += e.wall
        featurePrintCPU += e.cpu
    }

    /// Adds the time from `start` to now to the features stage.
    mutating func addFeatures(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        features += e.wall
        featuresCPU += e.cpu
    }

    /// Adds the time from `start` to now to the mirror image's features.
    mutating func addMirrorFeatures(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        mirrorFeatures += e.wall
        mirrorFeaturesCPU += e.cpu
    }

    /// Adds the time from `start` to now to the shortlist stage.
    mutating func addShortlist(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        shortlist += e.wall
        shortlistCPU += e.cpu
    }

    /// Adds the time from `start` to now to the verification stage.
    mutating func addVerification(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        verification += e.wall
        verificationCPU += e.cpu
    }
}

/// The answer to one visual query.
public struct MatchReport: Sendable {
    /// Candidates, best first: verified ones by score, then the rest by votes.
    public let candidates: [MatchCandidate]
    /// The candidate accepted as the place shown, or nil when the query matches no reference.
    public let accepted: MatchCandidate?
    /// Time per stage.
    public let timings: StageTimings
    /// Keypoints found in the query (in the original orientation).
    public let queryKeypoints: Int
    /// Whether the mirrored query was matched too.
    public let usedMirror: Bool
    /// The query's feature print, when the matcher computed it (labels can reuse it).
    public let featurePrint: FeaturePrint?
    /// The places found in the picture with where each lies: ``accepted`` first, then any others the
    /// rest of the picture shows (empty when nothing was accepted).
    public let places: [LocatedPlace]

    /// Creates a report.
    public init(
        candidates: [MatchCandidate], accepted: MatchCandidate?, timings: StageTimings, queryKeypoints: Int,
        usedMirror: Bool, featurePrint: FeaturePrint? = nil, places: [LocatedPlace] = []
    ) {
        self.places = places
        self.candidates = candidates
        self.accepted = accepted
        self.timings = timings
        self.queryKeypoints = queryKeypoints
        self.usedMirror = usedMirror
        self.featurePrint = featurePrint
    }
}
