/// The JSON bodies of the daemon's API (see docs/api.md). The daemon encodes them, the client decodes
/// them, and `glimpse query` prints them: one shape from the catalog to the wire.

/// A JSON value of any shape, for entity properties.
public enum JSONValue: Codable, Sendable, Equatable {
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])
    /// `null`.
    case null

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    /// A string value written as a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number written as an integer literal.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number written as a floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A boolean written as a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// How an entity is shown to people: its title, an optional subtitle and picture.
public struct DisplayRepresentationJSON: Codable, Sendable, Equatable {
    /// The title, such as `Eiffel Tower`.
    public var title: String
    /// A second line, such as `landmark · France`.
    public var subtitle: String?
    /// The URL path at which the daemon serves the entity's picture
    /// (`/v1/entities/{type}/{id}/image`), when it has one. Never a path on the daemon's host.
    public var image: String?

    /// Creates a display representation.
    public init(title: String, subtitle: String? = nil, image: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }
}

/// One catalog entity (a place or a collection) as JSON.
public struct EntityJSON: Codable, Sendable, Equatable {
    /// `place` or `collection`.
    public var type: String
    /// The entity's id, unique within its type.
    public var id: String
    /// How the entity is shown.
    public var displayRepresentation: DisplayRepresentationJSON
    /// The entity's properties by name.
    public var properties: [String: JSONValue]
    /// How well the entity matched a text search, higher is better (results of a text search only).
    public var score: Double?

    /// Creates an entity record.
    public init(
        type: String, id: String, displayRepresentation: DisplayRepresentationJSON, properties: [String: JSONValue],
        score: Double? = nil
    ) {
        self.type = type
        self.id = id
        self.displayRepresentation = displayRepresentation
        self.properties = properties
        self.score = score
    }
}

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

    /// Creates evidence.
    public init(
        matchedPlace: String?, matchScore: Double?, inliers: Int?, votingLabels: [String], labelFit: Double,
        region: RegionJSON? = nil, accepted: Bool? = nil, printSimilarity: Double? = nil, printMargin: Double? = nil
    ) {
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

/// The answer to `GET /v1/entities?q=` and `POST /v1/entities/{type}/query`.
public struct EntityListJSON: Codable, Sendable, Equatable {
    /// The matching entities.
    public var entities: [EntityJSON]

    /// Creates a list.
    public init(entities: [EntityJSON]) {
        self.entities = entities
    }
}

/// One property comparison in `POST /v1/entities/{type}/query`.
public struct ComparatorJSON: Codable, Sendable, Equatable {
    /// The property name, such as `kind` or `continent`.
    public var property: String
    /// The comparison, such as `equalTo`, `notEqualTo`, `contains`, `hasPrefix`, `isBetween`, `isNil`.
    public var comparator: String
    /// The value compared against (the lower bound for `isBetween`; absent for `isNil`): a string, or a
    /// number or boolean for properties of those types.
    public var value: JSONValue?
    /// The upper bound of `isBetween`.
    public var upperValue: JSONValue?

    /// Creates a comparison.
    public init(property: String, comparator: String, value: JSONValue? = nil, upperValue: JSONValue? = nil) {
        self.property = property
        self.comparator = comparator
        self.value = value
        self.upperValue = upperValue
    }
}

/// One sort key in `POST /v1/entities/{type}/query`.
public struct SortJSON: Codable, Sendable, Equatable {
    /// The property to sort by.
    public var property: String
    /// `ascending` (default) or `descending`.
    public var order: String?

    /// Creates a sort key.
    public init(property: String, order: String? = nil) {
        self.property = property
        self.order = order
    }
}

/// The body of `POST /v1/entities/{type}/query`.
public struct PropertyQueryJSON: Codable, Sendable, Equatable {
    /// The comparisons; an empty list matches everything.
    public var comparators: [ComparatorJSON]
    /// `all` (every comparison must hold, the default) or `any`.
    public var mode: String?
    /// Sort keys, applied in order.
    public var sort: [SortJSON]?
    /// The most entities to return.
    public var limit: Int?

    /// Creates a property query.
    public init(comparators: [ComparatorJSON], mode: String? = nil, sort: [SortJSON]? = nil, limit: Int? = nil) {
        self.comparators = comparators
        self.mode = mode
        self.sort = sort
        self.limit = limit
    }
}

/// The answer to `GET /healthz`.
public struct HealthJSON: Codable, Sendable, Equatable {
    /// `ok`; `degraded` while the catalog store cannot be reached (queries are still answered).
    public var status: String
    /// Places in the loaded catalog.
    public var places: Int
    /// Collections in the loaded catalog.
    public var collections: Int
    /// Image queries running or waiting.
    public var queriesInFlight: Int
    /// Whether catalog edits can be stored now; absent when the daemon serves a folder (no store).
    public var catalogWritable: Bool?
    /// Why edits cannot be stored, while they cannot.
    public var catalogProblem: String?

    /// Creates a health answer.
    public init(
        status: String, places: Int, collections: Int, queriesInFlight: Int, catalogWritable: Bool? = nil,
        catalogProblem: String? = nil
    ) {
        self.status = status
        self.places = places
        self.collections = collections
        self.queriesInFlight = queriesInFlight
        self.catalogWritable = catalogWritable
        self.catalogProblem = catalogProblem
    }
}
