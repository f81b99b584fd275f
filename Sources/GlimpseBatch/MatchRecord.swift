/// One catalog entity (a place or a collection) returned for a picture, with its score and reason.
public struct RankedEntity: Sendable, Hashable, Codable {
    /// `place` or `collection`.
    public var type: String
    /// The entity's identifier in the catalog, such as `wooden-jetty-calm-lake`.
    public var id: String
    /// The entity's display title.
    public var title: String
    /// The result's score, 0 to 1 (higher is better).
    public var score: Double
    /// Why it was returned, such as `matched wooden-jetty-calm-lake (0.91, 57 inliers)`.
    public var reason: String

    /// Creates a result.
    public init(type: String = "place", id: String, title: String, score: Double, reason: String = "") {
        self.type = type
        self.id = id
        self.title = title
        self.score = score
        self.reason = reason
    }
}

/// A scene label given to a picture, with its confidence.
public struct MatchLabel: Sendable, Hashable, Codable {
    /// The label, such as `lake`.
    public var name: String
    /// How sure the labeller is, from 0 to 1.
    public var confidence: Double

    /// Creates a label.
    public init(name: String, confidence: Double) {
        self.name = name
        self.confidence = confidence
    }
}

/// What a matcher found for one picture: the ranked results, the place accepted as a match (if
/// any), and the picture's labels.
public struct MatchOutcome: Sendable, Hashable {
    /// Ranked results, best first, at most the requested limit.
    public var results: [RankedEntity]
    /// The place that passed the matcher's acceptance test, or `nil` for no match.
    public var best: RankedEntity?
    /// Scene labels, most confident first.
    public var labels: [MatchLabel]

    /// Creates an outcome.
    public init(results: [RankedEntity], best: RankedEntity?, labels: [MatchLabel]) {
        self.results = results
        self.best = best
        self.labels = labels
    }
}

/// The result of one picture in a batch: one line of JSON Lines or CSV output.
public struct MatchRecord: Sendable, Hashable, Codable {
    /// How the picture fared.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// A catalog entity was accepted as what the picture shows.
        case matched
        /// The picture was read but nothing in the catalog matched well enough.
        case noMatch = "no_match"
        /// The picture could not be read or matched; see ``MatchRecord/error``.
        case failed
    }

    /// The picture's path, as walked.
    public var path: String
    /// Matched, no match or failed.
    public var status: Status
    /// The accepted entity, when ``status`` is ``Status/matched``.
    public var best: RankedEntity?
    /// The accepted place's score, else the top result's; `nil` when there is no result.
    public var score: Double?
    /// The top results, best first.
    public var results: [RankedEntity]
    /// Scene labels.
    public var labels: [MatchLabel]
    /// Why the picture failed, when ``status`` is ``Status/failed``.
    public var error: String?
    /// A short code for the failure (``BatchError/kind``), when ``status`` is ``Status/failed``.
    public var errorKind: String?

    /// Creates a record.
    public init(
        path: String, status: Status, best: RankedEntity? = nil, score: Double? = nil,
        results: [RankedEntity] = [], labels: [MatchLabel] = [], error: String? = nil, errorKind: String? = nil
    ) {
        self.path = path
        self.status = status
        self.best = best
        self.score = score
        self.results = results
        self.labels = labels
        self.error = error
        self.errorKind = errorKind
    }

    /// The record of a picture the matcher handled.
    public init(path: String, outcome: MatchOutcome) {
        self.init(
            path: path,
            status: outcome.best != nil ? .matched : .noMatch,
            best: outcome.best,
            score: (outcome.best ?? outcome.results.first)?.score,
            results: outcome.results,
            labels: outcome.labels
        )
    }

    /// The record of a picture that failed.
    public init(path: String, failure: BatchError) {
        self.init(path: path, status: .failed, error: failure.description, errorKind: failure.kind)
    }

    enum CodingKeys: String, CodingKey {
        case path, status, best, score, results, labels, error
        case errorKind = "error_kind"
    }
}

/// Matches one picture against a catalog: the seam between the batch engine and the matcher.
public protocol ImageMatching: Sendable {
    /// Matches the encoded picture `bytes` (JPEG or PNG) read from `path`, returning at most `limit` results.
    ///
    /// - Throws: ``BatchError/notAnImage(path:reason:)`` when the bytes do not decode, or
    ///   ``BatchError/matchFailed(path:reason:)``.
    func match(bytes: [UInt8], path: String, limit: Int) async throws(BatchError) -> MatchOutcome
}
