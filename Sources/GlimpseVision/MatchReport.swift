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

    /// Creates a candidate.
    public init(referenceID: String, votes: Int, verified: Bool, inliers: Int, score: Double, mirrored: Bool) {
        self.referenceID = referenceID
        self.votes = votes
        self.verified = verified
        self.inliers = inliers
        self.score = score
        self.mirrored = mirrored
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
    /// Thread CPU time of the features stage.
    public var featuresCPUMs: Double
    /// Thread CPU time of the shortlist stage.
    public var shortlistCPUMs: Double
    /// Thread CPU time of the verification stage.
    public var verificationCPUMs: Double

    /// Creates timings.
    public init(
        featuresMs: Double = 0, shortlistMs: Double = 0, verificationMs: Double = 0,
        featuresCPUMs: Double = 0, shortlistCPUMs: Double = 0, verificationCPUMs: Double = 0
    ) {
        self.featuresMs = featuresMs
        self.shortlistMs = shortlistMs
        self.verificationMs = verificationMs
        self.featuresCPUMs = featuresCPUMs
        self.shortlistCPUMs = shortlistCPUMs
        self.verificationCPUMs = verificationCPUMs
    }

    /// The wall-clock sum of the stages.
    public var totalMs: Double { featuresMs + shortlistMs + verificationMs }
    /// The CPU-time sum of the stages.
    public var totalCPUMs: Double { featuresCPUMs + shortlistCPUMs + verificationCPUMs }

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

    /// Creates a report.
    public init(
        candidates: [MatchCandidate], accepted: MatchCandidate?, timings: StageTimings, queryKeypoints: Int,
        usedMirror: Bool
    ) {
        self.candidates = candidates
        self.accepted = accepted
        self.timings = timings
        self.queryKeypoints = queryKeypoints
        self.usedMirror = usedMirror
    }
}
