// The JSON of a visual search answer (`POST /v1/query`, `GET /v1/query/next`; docs/api.md): the
// daemon encodes it, the client decodes it, and `glimpse query` prints it: one shape from the catalog
// to the wire.

/// One visual-search result: the union value (a place or a collection) with its score and reason.
public struct SearchResultJSON: Codable, Sendable, Equatable {
    /// `place` or `collection`: which member of the union this is.
    public var type: String
    /// The entity.
    public var entity: EntityJSON
    /// How well the picture matches, higher is better.
    public var score: Double
    /// Why the entity was returned, for people.
    public var reason: String
    /// The evidence behind ``reason``.
    public var evidence: EvidenceJSON

    /// Creates a result.
    public init(type: String, entity: EntityJSON, score: Double, reason: String, evidence: EvidenceJSON) {
        self.type = type
        self.entity = entity
        self.score = score
        self.reason = reason
        self.evidence = evidence
    }
}

/// Why a result was returned, as data.
public struct EvidenceJSON: Codable, Sendable, Equatable {
    /// The place whose reference photo matched the picture (the result itself, or a member of a
    /// collection), if any.
    public var matchedPlace: String?
    /// That match's score, 0…1.
    public var matchScore: Double?
    /// That match's geometric evidence (inlier keypoints), when reported.
    public var inliers: Int?
    /// The query labels that voted for the result.
    public var votingLabels: [String]
    /// The weighted share of the query labels the result carries, 0…1.
    public var labelFit: Double
    /// Where the matched place lies in the query picture, when the matcher located it (absent otherwise).
    public var region: RegionJSON?
    /// Whether the result is over the accept line (absent from older daemons: then it is).
    public var accepted: Bool?
    /// The feature-print similarity of the picture to ``matchedPlace``, when prints were compared.
    public var printSimilarity: Double?
    /// That similarity's margin over the next most similar place, when prints were compared.
    public var printMargin: Double?
    /// The look-alike place that kept the matched place from being accepted on its print (its photo
    /// reaches the matched place as closely as the picture does), when one did.
    public var lookAlike: String?

    /// Creates evidence.
    public init(
        matchedPlace: String?, matchScore: Double?, inliers: Int?, votingLabels: [String], labelFit: Double,
        region: RegionJSON? = nil, accepted: Bool? = nil, printSimilarity: Double? = nil, printMargin: Double? = nil,
        lookAlike: String? = nil
    ) {
        self.lookAlike = lookAlike
        self.accepted = accepted
        self.printSimilarity = printSimilarity
        self.printMargin = printMargin
        self.matchedPlace = matchedPlace
        self.matchScore = matchScore
        self.inliers = inliers
        self.votingLabels = votingLabels
        self.labelFit = labelFit
        self.region = region
    }
}

/// A box in the query picture, normalised: `x` and `width` are fractions of the picture's width, `y`
/// and `height` of its height (0…1, the top-left corner being 0, 0), the same form `box=` takes.
public struct RegionJSON: Codable, Sendable, Equatable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a box.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A scene label derived from the picture, with its score.
public struct LabelScoreJSON: Codable, Sendable, Equatable {
    /// The label, from the catalog's vocabulary.
    public var label: String
    /// The label's score, higher is more certain.
    public var score: Double

    /// Creates a label score.
    public init(label: String, score: Double) {
        self.label = label
        self.score = score
    }
}

/// Where the time of one query went, in milliseconds.
public struct TimingsJSON: Codable, Sendable, Equatable {
    /// Reading the request body (zero for a next page).
    public var bodyMs: Double
    /// Decoding the image (zero for a next page).
    public var decodeMs: Double
    /// Labelling and matching.
    public var queryMs: Double
    /// From the request head to the response being ready.
    public var totalMs: Double

    /// Creates timings.
    public init(bodyMs: Double, decodeMs: Double, queryMs: Double, totalMs: Double) {
        self.bodyMs = bodyMs
        self.decodeMs = decodeMs
        self.queryMs = queryMs
        self.totalMs = totalMs
    }
}

/// The size and format of the decoded query picture.
public struct ImageInfoJSON: Codable, Sendable, Equatable {
    /// `jpeg` or `png`.
    public var format: String
    /// Width in pixels, after EXIF orientation.
    public var width: Int
    /// Height in pixels, after EXIF orientation.
    public var height: Int

    /// Creates image information.
    public init(format: String, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// The answer to `POST /v1/query` and `GET /v1/query/next`.
public struct QueryResponseJSON: Codable, Sendable, Equatable {
    /// This page of results, best first.
    public var results: [SearchResultJSON]
    /// The labels the search used, with their weights, best first.
    public var labels: [LabelScoreJSON]
    /// Where the labels came from: `none`, `given`, `derived` or `matched-place`.
    public var labelSource: String
    /// Given labels outside the catalog's vocabulary, which were ignored.
    public var ignoredLabels: [String]
    /// The cursor for the next page, when there are more results.
    public var next: String?
    /// The catalog snapshot the results come from.
    public var snapshot: String
    /// The rank of this page's first result among all results (0 on the first page).
    public var offset: Int
    /// The number of results over all pages.
    public var total: Int
    /// The decoded picture (absent for a next page).
    public var image: ImageInfoJSON?
    /// Where the time went.
    public var timings: TimingsJSON
    /// The matcher's own stage timings in milliseconds (`features`, `shortlist`, `verification`;
    /// first page only).
    public var matcherTimingsMs: [String: Double]

    /// Creates a query response.
    public init(
        results: [SearchResultJSON], labels: [LabelScoreJSON], labelSource: String, ignoredLabels: [String],
        next: String?, snapshot: String, offset: Int, total: Int, image: ImageInfoJSON? = nil,
        timings: TimingsJSON = TimingsJSON(bodyMs: 0, decodeMs: 0, queryMs: 0, totalMs: 0),
        matcherTimingsMs: [String: Double] = [:]
    ) {
        self.results = results
        self.labels = labels
        self.labelSource = labelSource
        self.ignoredLabels = ignoredLabels
        self.next = next
        self.snapshot = snapshot
        self.offset = offset
        self.total = total
        self.image = image
        self.timings = timings
        self.matcherTimingsMs = matcherTimingsMs
    }
}
