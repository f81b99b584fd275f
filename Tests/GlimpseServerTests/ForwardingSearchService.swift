import GlimpseImage
import GlimpseServer
import GlimpseWire

/// A test service that wraps the real catalog service and changes only how picture searches run; the
/// catalog figures, paging and entity queries are forwarded to ``real``.
protocol ForwardingSearchService: SearchService {
    /// The service everything but picture searches is forwarded to.
    var real: CatalogSearchService { get }
}

extension ForwardingSearchService {
    var placeCount: Int { real.placeCount }
    var collectionCount: Int { real.collectionCount }
    var decodingOptions: DecodingOptions { real.decodingOptions }

    func nextPage(cursor: String, limit: Int?) async throws -> QueryResponseJSON {
        try await real.nextPage(cursor: cursor, limit: limit)
    }

    func entity(type: String, id: String) async throws -> EntityJSON? { try await real.entity(type: type, id: id) }

    func entities(matching text: String, limit: Int) async throws -> [EntityJSON] {
        try await real.entities(matching: text, limit: limit)
    }

    func entities(type: String, query: PropertyQueryJSON) async throws -> [EntityJSON] {
        try await real.entities(type: type, query: query)
    }
}
