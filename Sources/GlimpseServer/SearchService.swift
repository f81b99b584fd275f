import GlimpseImage

/// One page of visual-search results, before the daemon's own timings are added.
public struct SearchPage: Sendable, Equatable {
    /// The results, best first.
    public var results: [SearchResultJSON]
    /// The labels the search used, best first.
    public var labels: [LabelScoreJSON]
    /// Where the labels came from: `none`, `given`, `derived` or `matched-place`.
    public var labelSource: String
    /// Given labels outside the vocabulary.
    public var ignoredLabels: [String]
    /// The cursor for the next page, when there are more results.
    public var next: String?
    /// The catalog snapshot the results come from.
    public var snapshot: String
    /// The rank of the first result of this page.
    public var offset: Int
    /// The number of results over all pages.
    public var total: Int
    /// The matcher's stage timings in milliseconds.
    public var matcherTimingsMs: [String: Double]

    /// Creates a page.
    public init(
        results: [SearchResultJSON], labels: [LabelScoreJSON], labelSource: String, ignoredLabels: [String],
        next: String?, snapshot: String, offset: Int, total: Int, matcherTimingsMs: [String: Double]
    ) {
        self.results = results
        self.labels = labels
        self.labelSource = labelSource
        self.ignoredLabels = ignoredLabels
        self.next = next
        self.snapshot = snapshot
        self.offset = offset
        self.total = total
        self.matcherTimingsMs = matcherTimingsMs
    }
}

/// What the daemon serves: visual search and entity lookups over one loaded catalog.
///
/// The daemon decodes pictures itself and hands the pixels here; every method runs on the query
/// threads (never on an event loop) and may do CPU-bound work. Errors meant for the client are thrown as
/// ``APIError``; anything else becomes a `500`.
public protocol SearchService: Sendable {
    /// The number of places in the loaded catalog.
    var placeCount: Int { get }
    /// The number of collections in the loaded catalog.
    var collectionCount: Int { get }
    /// How query pictures are decoded (the same options the in-process query uses). The daemon
    /// lowers the pixel and byte limits to its own.
    var decodingOptions: DecodingOptions { get }

    /// Finds the entities a picture shows.
    /// - Parameters:
    ///   - labels: scene labels the caller already knows, added to the derived ones.
    ///   - limit: the most results on the first page.
    ///   - cancellation: polled between stages; throw when it is set.
    func search(image: PixelBuffer, labels: [String], limit: Int, cancellation: QueryCancellation) async throws -> SearchPage

    /// The page after the one that returned `cursor`, of `limit` results (`nil`: the default).
    func nextPage(cursor: String, limit: Int?, cancellation: QueryCancellation) async throws -> SearchPage

    /// The entity of `type` (`place` or `collection`) with `id`, or `nil`.
    func entity(type: String, id: String) async throws -> EntityJSON?

    /// Entities whose names or descriptions match `text`.
    func entities(matching text: String, limit: Int) async throws -> [EntityJSON]

    /// Entities of `type` matching a property query.
    func entities(type: String, query: PropertyQueryJSON) async throws -> [EntityJSON]
}
