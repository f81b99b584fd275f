import Foundation
import GlimpseCatalog
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseIntents
import GlimpseLabels
import GlimpseVision

/// The daemon's ``SearchService``: Glimpse's ``VisualSearchQuery`` and entity queries over one catalog,
/// with its visual matcher and label model loaded once at start.
public final class CatalogSearchService: SearchService {
    /// The catalog served.
    public let catalog: Catalog
    /// The visual search, built once.
    public let query: VisualSearchQuery
    /// How query pictures are decoded (as `glimpse query` and `glimpse match` do).
    public let decodingOptions: DecodingOptions

    /// The decoding options of query pictures: no larger than the visual matcher looks at
    /// (``VisionConfiguration/queryDecoding``), orientation applied.
    public static let queryDecodingOptions = VisionConfiguration.default.queryDecoding

    /// The number of places.
    public var placeCount: Int { catalog.places.count }
    /// The number of collections.
    public var collectionCount: Int { catalog.collections.count }

    /// Wraps an already built query.
    public init(query: VisualSearchQuery, decodingOptions: DecodingOptions = CatalogSearchService.queryDecodingOptions) {
        self.catalog = query.snapshot.catalog
        self.query = query
        self.decodingOptions = decodingOptions
    }

    /// Loads the catalog in `catalogDirectory`, builds its visual matcher from the place photos, and
    /// loads the label model.
    ///
    /// - Parameter modelPath: the label model; `nil` means `$GLIMPSE_LABEL_MODEL`, else
    ///   `Models/labels.glimpsemodel` next to the catalog folder's parent (the repository layout),
    ///   else in the current directory.
    /// - Throws: ``GlimpseServerError`` with code `catalogUnavailable` (missing files) or
    ///   `catalogInvalid` (files that do not validate), naming the path.
    ///
    /// - Parameter featurePrintModel: the feature-print model; `nil` means the default rule of
    ///   ``FeaturePrinterPool/load(explicit:catalogDirectory:environment:)``. With `featurePrint` false
    ///   matching runs on keypoints alone.
    public static func load(
        catalogDirectory: String, modelPath: String? = nil, featureCache: String? = nil,
        featurePrintModel: String? = nil, featurePrint: Bool = true
    ) async throws(GlimpseServerError)
        -> CatalogSearchService
    {
        let printer: FeaturePrinterPool?
        do {
            printer = featurePrint
                ? try FeaturePrinterPool.load(explicit: featurePrintModel, catalogDirectory: catalogDirectory) : nil
        } catch {
            throw GlimpseServerError(code: .catalogInvalid, message: "cannot load the feature-print model: \(error)")
        }
        let catalog: Catalog
        do throws(CatalogError) {
            catalog = try Catalog.load(directory: catalogDirectory)
        } catch {
            throw GlimpseServerError(code: Self.code(for: error), message: "cannot load the catalog: \(error)")
        }
        let model: LabelModel
        let path = resolvedModelPath(modelPath, catalogDirectory: catalogDirectory)
        guard FileManager.default.fileExists(atPath: path) else {
            throw GlimpseServerError(
                code: .catalogUnavailable,
                message: "the label model \(path) does not exist; build it with `glimpse models build` or pass --model"
            )
        }
        do {
            model = try LabelModel.load(from: path, featurePrinter: printer)
        } catch {
            throw GlimpseServerError(code: .catalogInvalid, message: "cannot load the label model \(path): \(error)")
        }
        let matcher: VisualMatcher
        do throws(CatalogError) {
            matcher = try await catalog.makeVisualMatcher(featureCache: featureCache, printer: printer)
        } catch {
            throw GlimpseServerError(code: Self.code(for: error), message: "cannot index the catalog photos: \(error)")
        }
        let store = SnapshotStore()
        let snapshot = store.publish(catalog)
        let query = VisualSearchQuery(
            snapshot: snapshot, store: store, matcher: matcher, labeler: LabelPredictor(model: model)
        )
        return CatalogSearchService(query: query)
    }

    // MARK: - SearchService

    /// Runs ``VisualSearchQuery/search(_:limit:)`` on the picture.
    public func search(image: PixelBuffer, labels: [String], limit: Int, cancellation: QueryCancellation)
        async throws -> SearchPage
    {
        let page: VisualSearchPage
        do {
            page = try await query.search(SemanticContentDescriptor(labels: labels, pixelBuffer: image), limit: limit)
        } catch let error as VisualSearchError {
            throw Self.apiError(error)
        }
        try cancellation.check()
        return Self.searchPage(page)
    }

    /// Runs ``VisualSearchQuery/page(after:limit:)``.
    public func nextPage(cursor: String, limit: Int?, cancellation: QueryCancellation) async throws -> SearchPage {
        do {
            return Self.searchPage(try query.page(after: cursor, limit: limit))
        } catch {
            throw Self.apiError(error)
        }
    }

    /// The place or collection with `id`.
    public func entity(type: String, id: String) async throws -> EntityJSON? {
        switch try EntityKind(type) {
        case .place: catalog.place(id: id).map(Self.json)
        case .collection: catalog.collection(id: id).map(Self.json)
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
        let places = PlaceQuery.search(text, in: catalog).map { (score: $0.score, entity: Self.json($0.element)) }
        let collections = CollectionQuery.search(text, in: catalog).map {
            (score: $0.score, entity: Self.json($0.element))
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
                    .map(Self.json)
            case .collection:
                let comparisons = try Self.comparisons(request.comparators, in: CollectionQuery.properties)
                return try await CollectionQuery(catalog: catalog)
                    .entities(matching: comparisons, mode: mode, sortedBy: sort, limit: request.limit)
                    .map(Self.json)
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

    /// The JSON form of a visual search page, built from ``VisualSearchResponse`` so the daemon and
    /// `glimpse query` describe a page with the same values.
    static func searchPage(_ page: VisualSearchPage) -> SearchPage {
        let response = VisualSearchResponse(page)
        let entities: [EntityJSON] = page.items.map { item in
            switch item.result {
            case .place(let place): json(place)
            case .collection(let collection): json(collection)
            }
        }
        return SearchPage(
            results: zip(response.results, entities).map { result, entity in
                SearchResultJSON(
                    type: result.type, entity: entity, score: result.score, reason: result.reason,
                    evidence: EvidenceJSON(
                        matchedPlace: result.matchedPlace, matchScore: result.matchScore, inliers: result.inliers,
                        votingLabels: result.votingLabels, labelFit: result.labelFit
                    )
                )
            },
            labels: response.labels.map { LabelScoreJSON(label: $0.label, score: $0.score) },
            labelSource: response.labelSource,
            ignoredLabels: response.ignoredLabels,
            next: response.nextCursor,
            snapshot: response.snapshot,
            offset: response.offset,
            total: response.total,
            matcherTimingsMs: response.timingsMs
        )
    }

    /// The JSON form of a place.
    static func json(_ place: PlaceEntity) -> EntityJSON {
        let display = place.displayRepresentation
        var properties: [String: JSONValue] = [
            "name": .string(place.name), "kind": .string(place.kind),
            "labels": .array(place.labels.map(JSONValue.string)),
            "collections": .array(place.collections.map(JSONValue.string)),
        ]
        properties["region"] = place.region.map(JSONValue.string) ?? .null
        properties["continent"] = place.continent.map(JSONValue.string) ?? .null
        return EntityJSON(
            type: "place", id: place.id,
            displayRepresentation: DisplayRepresentationJSON(
                title: display.title, subtitle: display.subtitle, image: imageURLPath(display, type: "place", id: place.id)
            ),
            properties: properties
        )
    }

    /// The JSON form of a collection.
    static func json(_ collection: CollectionEntity) -> EntityJSON {
        let display = collection.displayRepresentation
        return EntityJSON(
            type: "collection", id: collection.id,
            displayRepresentation: DisplayRepresentationJSON(
                title: display.title, subtitle: display.subtitle,
                image: imageURLPath(display, type: "collection", id: collection.id)
            ),
            properties: [
                "name": .string(collection.name), "summary": .string(collection.summary),
                "places": .array(collection.places.map(JSONValue.string)),
            ]
        )
    }

    /// The daemon's URL path of the entity's picture (never a path on the daemon's host), when it has one.
    private static func imageURLPath(_ display: DisplayRepresentation, type: String, id: String) -> String? {
        switch display.image?.source {
        case .file?, .data?: break
        case .named?, nil: return nil
        }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        let escaped = id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
        return "/v1/entities/\(type)/\(escaped)/image"
    }

    private static func apiError(_ error: VisualSearchError) -> APIError {
        switch error {
        case .invalidLimit: .badRequest("bad_limit", error.description)
        case .invalidCursor, .expiredCursor: .badRequest("bad_cursor", error.description)
        }
    }

    private static func code(for error: CatalogError) -> GlimpseServerError.Code {
        if case .unreadable = error { return .catalogUnavailable }
        return .catalogInvalid
    }

    private static func resolvedModelPath(_ explicit: String?, catalogDirectory: String) -> String {
        explicit ?? LabelModel.defaultPath(catalogDirectory: catalogDirectory)
    }
}
