import Foundation
public import GlimpseCatalog
public import GlimpseEngine
import GlimpseFiles
public import GlimpseImage
import GlimpseIntents
public import GlimpseWire

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
    /// The number of reference photos.
    public var photoCount: Int { catalog.places.reduce(0) { $0 + $1.photos.count } }
    /// The served snapshot's id.
    public var snapshotID: String { engine.current.snapshot.id }
    /// The engine's keypoint slot damage, while there is any (``Engine/keypointSlotHealth``).
    public var matcherProblem: String? { engine.keypointSlotHealth.problem }
    /// The keypoint slots the engine found damaged.
    public var keypointSlotDamage: Int { engine.keypointSlotHealth.damagedSlots }
    /// The served matcher's print line (``Engine/printLine``).
    public var printLine: PrintLineJSON? { engine.printLine }

    /// Serves `engine`.
    public init(engine: Engine) {
        self.engine = engine
    }

    // MARK: - SearchService

    /// Runs the engine's visual search on the picture.
    public func search(image: PixelBuffer, labels: [String], limit: Int) async throws -> QueryResponseJSON {
        QueryResponseJSON(
            page: try await engine.search(SemanticContentDescriptor(labels: labels, pixelBuffer: image), limit: limit))
    }

    /// Runs the engine's visual search on `region` of the picture.
    public func search(image: PixelBuffer, labels: [String], limit: Int, region: ImageRegion?) async throws -> QueryResponseJSON {
        QueryResponseJSON(
            page: try await engine.search(
                SemanticContentDescriptor(labels: labels, pixelBuffer: image), limit: limit, region: region))
    }

    /// Runs the engine's visual search on `region` of the picture, listing results down to `minimumScore`.
    public func search(
        image: PixelBuffer, labels: [String], limit: Int, region: ImageRegion?, minimumScore: Double?
    ) async throws -> QueryResponseJSON {
        QueryResponseJSON(
            page: try await engine.search(
                SemanticContentDescriptor(labels: labels, pixelBuffer: image), limit: limit, region: region,
                minimumScore: minimumScore))
    }

    /// The engine's explain picture, as PNG.
    public func explain(image: PixelBuffer, region: ImageRegion?) async throws -> [UInt8] {
        do {
            return try engine.explain(image, region: region).pngData()
        } catch let error as ExplainError {
            throw APIError.notFound("no_explanation", error.description)
        }
    }

    /// The page after the one that returned `cursor`.
    public func nextPage(cursor: String, limit: Int?) async throws -> QueryResponseJSON {
        QueryResponseJSON(page: try engine.page(after: cursor, limit: limit))
    }

    /// The place or collection with `id`.
    public func entity(type: String, id: String) async throws -> EntityJSON? {
        catalog.entityJSON(type: try CatalogEntityType(named: type), id: id)
    }

    /// The picture of a place or collection, read from the catalog's folder. Pictures larger than
    /// 64 MiB are not served.
    public func entityImage(type: String, id: String) async throws -> EntityImage? {
        switch try Self.pictureSource(in: catalog, type: type, id: id) {
        case .data(let bytes)?: return EntityImage(bytes: bytes)
        case .file(let path)?: return Self.readPicture(path)
        case .named?, nil: return nil
        }
    }

    /// The file the picture of the place or collection `id` of `type` is read from, or `nil` when it has
    /// none or its picture is not a file.
    ///
    /// - Throws: ``UnknownEntityTypeError`` for a type that is neither.
    static func picturePath(in catalog: Catalog, type: String, id: String) throws -> String? {
        guard case .file(let path)? = try pictureSource(in: catalog, type: type, id: id) else { return nil }
        return path
    }

    /// Where the picture of the place or collection `id` of `type` comes from in `catalog`, or `nil`.
    ///
    /// - Throws: ``UnknownEntityTypeError`` for a type that is neither.
    static func pictureSource(in catalog: Catalog, type: String, id: String) throws -> DisplayRepresentation.Image.Source? {
        let display: DisplayRepresentation?
        switch try CatalogEntityType(named: type) {
        case .place: display = catalog.place(id: id)?.displayRepresentation
        case .collection: display = catalog.collection(id: id)?.displayRepresentation
        }
        return display?.image?.source
    }

    /// The picture file at `path`, read by the package's one whole-file rule (a regular file only: a
    /// FIFO put in a catalog folder would otherwise hold a query thread forever), or `nil`.
    private static func readPicture(_ path: String) -> EntityImage? {
        guard let bytes = try? AtomicFile.readAll(path, maxBytes: 64 << 20) else { return nil }
        return EntityImage(bytes: bytes)
    }

    /// Places and collections whose text matches, best first (places before collections on a tie).
    public func entities(matching text: String, limit: Int) async throws -> [EntityJSON] {
        Array(catalog.searchEntities(text).prefix(limit))
    }

    /// An `EntityPropertyQuery` on places or collections.
    public func entities(type: String, query request: PropertyQueryJSON) async throws -> [EntityJSON] {
        try catalog.entities(of: try CatalogEntityType(named: type), matching: request)
    }
}
