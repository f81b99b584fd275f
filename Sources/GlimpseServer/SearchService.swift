import GlimpseImage

/// One page of visual-search results, before timings are added.
public struct SearchPage: Sendable, Equatable {
    /// The results, best first.
    public var results: [SearchResultJSON]
    /// Scene labels derived from the picture, best first.
    public var labels: [LabelScoreJSON]
    /// The cursor for the next page, when there are more results.
    public var next: String?

    /// Creates a page.
    public init(results: [SearchResultJSON], labels: [LabelScoreJSON], next: String?) {
        self.results = results
        self.labels = labels
        self.next = next
    }
}

/// What the daemon serves: visual search and entity lookups over one loaded catalog.
///
/// The daemon decodes pictures itself and hands the pixels here; every method is called on the
/// query threads (never on an event loop) and may block. Errors meant for the client are thrown as
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
    func search(image: PixelBuffer, labels: [String], limit: Int, cancellation: QueryCancellation) throws -> SearchPage

    /// The page after the one that returned `cursor`.
    func nextPage(cursor: String, cancellation: QueryCancellation) throws -> SearchPage

    /// The entity of `type` (`place` or `collection`) with `id`, or `nil`.
    func entity(type: String, id: String) throws -> EntityJSON?

    /// Entities whose names or descriptions match `text`.
    func entities(matching text: String, limit: Int) throws -> [EntityJSON]

    /// Entities of `type` matching a property query.
    func entities(type: String, query: PropertyQueryJSON) throws -> [EntityJSON]
}
