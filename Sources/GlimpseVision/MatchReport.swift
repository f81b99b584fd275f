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
    /// How sure the matcher is that the query shows this reference, 0…1, from ``score`` and
    /// ``similarity`` (see ``MatchDecision``); a verified candidate at or above
    /// ``MatchDecision/acceptLine`` is accepted. 0 until the matcher ranks the candidate.
    public let confidence: Double

    /// Creates a candidate.
    public init(
        referenceID: String, votes: Int, verified: Bool, inliers: Int, score: Double, mirrored: Bool,
        similarity: Double? = nil, confidence: Double = 0
    ) {
        self.referenceID = referenceID
        self.votes = votes
        self.verified = verified
        self.inliers = inliers
        self.score = score
        self.mirrored = mirrored
        self.similarity = similarity
        self.confidence = confidence
    }

    /// The same candidate with its print similarity and confidence set.
    public func with(similarity: Double?, confidence: Double) -> MatchCandidate {
        MatchCandidate(referenceID: referenceID, votes: votes, verified: verified, inliers: inliers, score: score,
                       mirrored: mirrored, similarity: similarity, confidence: confidence)
    }
}

/// Milliseconds spent in each stage of one query, on the wall clock and on the thread's CPU clock.
public struct StageTimings: Sendable, Hashable {
    /// Resampling and feature extraction (both orientations when the mirror cascade ran).
    public var featuresMs: Double
    /// Shortlist voting through the LSH index.
    public var shortlistMs: Double
    /// Descriptor matching and RANSAC on the shortlisted candidates.
    public var verificationMs: Double
    /// The query's feature print and its comparison with every reference's (0 when it did not run).
    public var featurePrintMs: Double
    /// Thread CPU time of the feature-print stage.
    public var featurePrintCPUMs: Double
    /// Thread CPU time of the features stage.
    public var featuresCPUMs: Double
    /// Thread CPU time of the shortlist stage.
    public var shortlistCPUMs: Double
    /// Thread CPU time of the verification stage.
    public var verificationCPUMs: Double
    /// Locating the places found: the accepted match's geometry and the search for further places on
    /// the keypoints it leaves over (0 when nothing was accepted).
    public var locatingMs: Double = 0
    /// Thread CPU time of the locating stage.
    public var locatingCPUMs: Double = 0

    /// Creates timings.
    public init(
        featuresMs: Double = 0, shortlistMs: Double = 0, verificationMs: Double = 0,
        featuresCPUMs: Double = 0, shortlistCPUMs: Double = 0, verificationCPUMs: Double = 0,
        featurePrintMs: Double = 0, featurePrintCPUMs: Double = 0
    ) {
        self.featurePrintMs = featurePrintMs
        self.featurePrintCPUMs = featurePrintCPUMs
        self.featuresMs = featuresMs
        self.shortlistMs = shortlistMs
        self.verificationMs = verificationMs
        self.featuresCPUMs = featuresCPUMs
        self.shortlistCPUMs = shortlistCPUMs
        self.verificationCPUMs = verificationCPUMs
    }

    /// The wall-clock sum of the stages.
    public var totalMs: Double { featuresMs + shortlistMs + verificationMs + featurePrintMs + locatingMs }
    /// The CPU-time sum of the stages.
    public var totalCPUMs: Double {
        featuresCPUMs + shortlistCPUMs + verificationCPUMs + featurePrintCPUMs + locatingCPUMs
    }

    /// Adds the time from `start` to now to the locating stage.
    mutating func addLocating(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        locatingMs += e.wallMs
        locatingCPUMs += e.cpuMs
    }

    /// Adds the time from `start` to now to the feature-print stage.
    mutating func addFeaturePrint(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        featurePrintMs += e.wallMs
        featurePrintCPUMs += e.cpuMs
    }

    /// Adds the time from `start` to now to the features stage.
    mutating func addFeatures(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        featuresMs += e.wallMs
        featuresCPUMs += e.cpuMs
    }

    /// Adds the time from `start` to now to the shortlist stage.
    mutating func addShortlist(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        shortlistMs += e.wallMs
        shortlistCPUMs += e.cpuMs
    }

    /// Adds the time from `start` to now to the verification stage.
    mutating func addVerification(since start: StageInstant) {
        let e = start.elapsed(to: .now())
        verificationMs += e.wallMs
        verificationCPUMs += e.cpuMs
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
