public import GlimpseIntents

/// Finds places in a catalog by id, by text and by property: the place entity's queries.
///
/// Queryable properties (``queryableProperties``, by name, as the daemon and `glimpse entities` take
/// them): `id`, `name`, `kind`, `region` (may be nil), `continent` (may be nil), `labels` and
/// `collections` (string lists: `contains`), `labelCount` (int). The `EntityPropertyQuery` declaration
/// (``properties``, by key path) maps each comparator to the same named comparison. Text search weighs
/// the name most, then region, kind, continent and labels.
///
/// `PlaceQuery()` (the entity's `defaultQuery`) searches the ``Catalog`` registered with
/// `AppDependencyManager.shared.add(dependency:)`; `PlaceQuery(catalog:)` searches the one given.
public struct PlaceQuery: EnumerableEntityQuery, EntityStringQuery, EntityPropertyQuery {
    @Dependency private var registeredCatalog: Catalog
    private let givenCatalog: Catalog?

    /// The catalog searched.
    public var catalog: Catalog { givenCatalog ?? registeredCatalog }

    /// A query over the catalog registered with `AppDependencyManager`.
    public init() { givenCatalog = nil }

    /// Creates a query over `catalog`.
    public init(catalog: Catalog) { givenCatalog = catalog }

    /// The queryable properties of ``PlaceEntity`` by name: what the engine checks and runs.
    public static let queryableProperties = QueryableProperties<PlaceEntity>([
        .string("id", title: "ID", \.id),
        .string("name", title: "Name", \.name),
        .string("kind", title: "Kind", \.kind),
        .optionalString("region", title: "Region", \.region),
        .optionalString("continent", title: "Continent", \.continent),
        .strings("labels", title: "Labels", \.labels),
        .strings("collections", title: "Collections", \.collections),
        .int("labelCount", title: "Number of labels") { $0.labels.count },
    ])

    /// The places with these ids, in the order given; unknown ids are left out.
    public func entities(for identifiers: [String]) async throws -> [PlaceEntity] {
        identifiers.compactMap(catalog.place(id:))
    }

    /// The first place of each collection, in collection order, without repeats.
    public func suggestedEntities() async throws -> [PlaceEntity] {
        var seen = Set<String>()
        return catalog.collections.compactMap { $0.places.first }.filter { seen.insert($0).inserted }
            .compactMap(catalog.place(id:))
    }

    /// Every place, in catalog order.
    public func allEntities() async throws -> [PlaceEntity] { catalog.places }

    /// Places ranked by case- and diacritic-insensitive word-prefix search (see `TextSearch`).
    public func entities(matching string: String) async throws -> [PlaceEntity] {
        Self.search(string, in: catalog).map(\.element)
    }

    /// The ranked hits with their scores.
    public static func search(_ text: String, in catalog: Catalog) -> [(element: PlaceEntity, score: Double)] {
        TextSearch(text).rank(catalog.places) { place in
            [TextSearchField(place.name, weight: 1), TextSearchField(place.region ?? "", weight: 0.6),
             TextSearchField(place.kind, weight: 0.5), TextSearchField(place.continent ?? "", weight: 0.4),
             TextSearchField(place.labels.joined(separator: " "), weight: 0.3)]
        }
    }
}

/// Finds collections in a catalog by id, by text and by property: the collection entity's queries.
///
/// Queryable properties (``queryableProperties``): `id`, `name`, `summary`, `places` (string list:
/// `contains`) and `placeCount` (int); ``properties`` declares them by key path. Text search weighs the
/// name most, then the summary.
///
/// `CollectionQuery()` searches the ``Catalog`` registered with `AppDependencyManager`;
/// `CollectionQuery(catalog:)` the one given.
public struct CollectionQuery: EnumerableEntityQuery, EntityStringQuery, EntityPropertyQuery {
    @Dependency private var registeredCatalog: Catalog
    private let givenCatalog: Catalog?

    /// The catalog searched.
    public var catalog: Catalog { givenCatalog ?? registeredCatalog }

    /// A query over the catalog registered with `AppDependencyManager`.
    public init() { givenCatalog = nil }

    /// Creates a query over `catalog`.
    public init(catalog: Catalog) { givenCatalog = catalog }

    /// The queryable properties of ``CollectionEntity`` by name: what the engine checks and runs.
    public static let queryableProperties = QueryableProperties<CollectionEntity>([
        .string("id", title: "ID", \.id),
        .string("name", title: "Name", \.name),
        .string("summary", title: "Summary", \.summary),
        .strings("places", title: "Places", \.places),
        .int("placeCount", title: "Number of places") { $0.places.count },
    ])

    /// The collections with these ids, in the order given; unknown ids are left out.
    public func entities(for identifiers: [String]) async throws -> [CollectionEntity] {
        identifiers.compactMap(catalog.collection(id:))
    }

    /// Every collection, in catalog order.
    public func suggestedEntities() async throws -> [CollectionEntity] { catalog.collections }

    /// Every collection, in catalog order.
    public func allEntities() async throws -> [CollectionEntity] { catalog.collections }

    /// Collections ranked by case- and diacritic-insensitive word-prefix search (see `TextSearch`).
    public func entities(matching string: String) async throws -> [CollectionEntity] {
        Self.search(string, in: catalog).map(\.element)
    }

    /// The ranked hits with their scores.
    public static func search(_ text: String, in catalog: Catalog) -> [(element: CollectionEntity, score: Double)] {
        TextSearch(text).rank(catalog.collections) { collection in
            [TextSearchField(collection.name, weight: 1), TextSearchField(collection.summary, weight: 0.4)]
        }
    }
}
