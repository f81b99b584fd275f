import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseIntents
import GlimpseWire

/// The daemon's ``SearchService``: the ``Engine``'s visual search and the catalog's entity queries.
public final class CatalogSearchService: SearchService {
    /// The pipeline served.
    public let engine: Engine

    /// The catalog of the engine's current generation.
    public var catalog: Catalog { engine.catalog }

    /// How query pictures are decoded: as `glimpse query` and `glimpse match` do.
    public var decodingOptions: DecodingOptions { engine.decodingOptions }

    /// The number of places.
    public var placeCount: Int { catalog.places.count }
    /// The number of collections.
    public var collectionCount: Int { catalog.collections.count }

    /// Serves `engine`.
    public init(engine: Engine) {
        self.engine = engine
    }

    // MARK: - SearchService

    /// Runs the engine's visual search on the picture.
    public func search(image: PixelBuffer, labels: [String], limit: Int, cancellation: QueryCancellation)
        async throws -> QueryResponseJSON
    {
        let page: VisualSearchPage
        do {
            page = try await engine.search(SemanticContentDescriptor(labels: labels, pixelBuffer: image), limit: limit)
        } catch let error as VisualSearchError {
            throw Self.apiError(error)
        }
        try cancellation.check()
        return QueryResponseJSON(page: page)
    }

    /// The page after the one that returned `cursor`.
    public func nextPage(cursor: String, limit: Int?, cancellation: QueryCancellation) async throws -> QueryResponseJSON {
        do {
            return QueryResponseJSON(page: try engine.page(after: cursor, limit: limit))
        } catch {
            throw Self.apiError(error)
        }
    }

    /// The place or collection with `id`.
    public func entity(type: String, id: String) async throws -> EntityJSON? {
        switch try EntityKind(type) {
        case .place: catalog.place(id: id).map(EntityJSON.init)
        case .collection: catalog.collection(id: id).map(EntityJSON.init)
        }
    }

    /// The picture of a place or collection, read from the catalog's folder. Pictures larger than
    /// 64 MiB are not served.
    public func entityImage(type: String, id: String) async throws -> EntityImage? {
        let display: DisplayRepresentation?
        switch try EntityKind(type) {
        case .place: display = catalog.place(id: id)?.displayRepresentation
        case .collection: display = catalog.collection(id: id)?.displayRepresentation
        }
        switch display?.image?.source {
        case .data(let bytes)?: return EntityImage(bytes: bytes)
        case .file(let path)?: return Self.readPicture(path)
        case .named?, nil: return nil
        }
    }

    private static func readPicture(_ path: String) -> EntityImage? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, size <= 64 << 20,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return EntityImage(bytes: Array(data))
    }

    /// Places and collections whose text matches, best first (places before collections on a tie).
    public func entities(matching text: String, limit: Int) async throws -> [EntityJSON] {
        let places = PlaceQuery.search(text, in: catalog).map { (score: $0.score, entity: EntityJSON($0.element)) }
        let collections = CollectionQuery.search(text, in: catalog).map {
            (score: $0.score, entity: EntityJSON($0.element))
        }
        let merged = (places + collections).enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }
        return merged.prefix(limit).map(\.element.entity)
    }

    /// An `EntityPropertyQuery` on places or collections.
    public func entities(type: String, query request: PropertyQueryJSON) async throws -> [EntityJSON] {
        let mode: EntityQueryComparatorMode
        switch request.mode?.lowercased() ?? "all" {
        case "all", "and": mode = .and
        case "any", "or": mode = .or
        default:
            throw APIError.badRequest("bad_query", "mode is \(request.mode ?? ""); use all or any")
        }
        let sort = try (request.sort ?? []).map { key -> EntityQuerySort in
            switch key.order?.lowercased() ?? "ascending" {
            case "ascending": return EntityQuerySort(by: key.property, order: .ascending)
            case "descending": return EntityQuerySort(by: key.property, order: .descending)
            default:
                throw APIError.badRequest("bad_query", "sort order is \(key.order ?? ""); use ascending or descending")
            }
        }
        do {
            switch try EntityKind(type) {
            case .place:
                let comparisons = try Self.comparisons(request.comparators, in: PlaceQuery.properties)
                return try await PlaceQuery(catalog: catalog)
                    .entities(matching: comparisons, mode: mode, sortedBy: sort, limit: request.limit)
                    .map(EntityJSON.init)
            case .collection:
                let comparisons = try Self.comparisons(request.comparators, in: CollectionQuery.properties)
                return try await CollectionQuery(catalog: catalog)
                    .entities(matching: comparisons, mode: mode, sortedBy: sort, limit: request.limit)
                    .map(EntityJSON.init)
            }
        } catch let error as EntityQueryError {
            throw APIError.badRequest("bad_query", error.description)
        }
    }

    // MARK: - Mapping

    private enum EntityKind {
        case place, collection

        init(_ type: String) throws {
            switch type {
            case "place", "places": self = .place
            case "collection", "collections": self = .collection
            default:
                throw APIError.badRequest("unknown_type", "there is no entity type \(type); use place or collection")
            }
        }
    }

    private static func comparisons<Entity>(
        _ items: [ComparatorJSON], in properties: EntityQueryProperties<Entity>
    ) throws -> [EntityQueryComparison] {
        try items.map { item in
            guard let kind = EntityQueryComparator.Kind(rawValue: item.comparator) else {
                let known = EntityQueryComparator.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.badRequest("bad_query", "unknown comparator \(item.comparator); use one of \(known)")
            }
            let text = kind == .isNil ? "\(item.property) isNil" : "\(item.property) \(kind.symbol) \(item.value)"
            return try properties.comparison(parsing: text)
        }
    }

    private static func apiError(_ error: VisualSearchError) -> APIError {
        switch error {
        case .invalidLimit: .badRequest("bad_limit", error.description)
        case .invalidCursor, .expiredCursor: .badRequest("bad_cursor", error.description)
        }
    }
}
