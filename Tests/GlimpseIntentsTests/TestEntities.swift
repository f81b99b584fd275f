import GlimpseIntents

/// A small entity with one property of every type, for exercising the query vocabulary.
struct Trail: AppEntity, Hashable {
    static let defaultQuery = TrailQuery()
    static let typeDisplayRepresentation = TypeDisplayRepresentation(name: "Trail", numericFormat: "%d trails")

    let id: String
    let name: String
    let region: String?
    let length: Int?
    let rating: Double?
    let open: Bool?
    let tags: [String]?

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: region.map { "\($0)" })
    }

    static let all: [Trail] = [
        Trail(id: "a", name: "Sunrise Ridge", region: "Alps", length: 12, rating: 4.5, open: true,
              tags: ["ridge", "snow"]),
        Trail(id: "b", name: "Lac d'Émosson", region: "Valais", length: 7, rating: 4.5, open: false, tags: ["lake"]),
        Trail(id: "c", name: "sunset loop", region: nil, length: nil, rating: 3.0, open: nil, tags: []),
        Trail(id: "d", name: "Forest Walk", region: "", length: 3, rating: nil, open: true, tags: nil),
        Trail(id: "e", name: "Émile's Path", region: "Alps", length: 12, rating: 2, open: false,
              tags: ["forest", "Lake"]),
    ]
}

/// An in-memory query over ``Trail/all``, with named properties the engine checks and runs.
struct TrailQuery: EnumerableEntityQuery, EntityStringQuery {
    static let properties = QueryableProperties<Trail>([
        .string("name", title: "Name", \.name),
        .optionalString("region", title: "Region", \.region),
        .int("length", title: "Length (km)", comparators: [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo,
                                                         .greaterThan, .greaterThanOrEqualTo, .isBetween, .isNil],
             \.length),
        .double("rating", title: "Rating", comparators: [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo,
                                                         .greaterThan, .greaterThanOrEqualTo, .isBetween, .isNil],
                \.rating),
        .bool("open", title: "Open", comparators: [.equalTo, .notEqualTo, .isNil], \.open),
        .strings("tags", title: "Tags", comparators: [.contains, .isNil], \.tags),
    ])

    func allEntities() async throws -> [Trail] { Trail.all }

    func entities(for identifiers: [String]) async throws -> [Trail] {
        identifiers.compactMap { id in Trail.all.first { $0.id == id } }
    }

    func entities(matching string: String) async throws -> [Trail] {
        TextSearch(string).rank(Trail.all) { [TextSearchField($0.name, weight: 1)] }.map(\.element)
    }

    func entities(
        matching comparisons: [EntityQueryComparison], mode: EntityQueryComparatorMode, sortedBy: [PropertySort],
        limit: Int?
    ) async throws -> [Trail] {
        try Self.properties.apply(to: Trail.all, matching: comparisons, mode: mode, sortedBy: sortedBy, limit: limit)
    }
}

/// Ids of the trails `query` selects, in order.
func ids(
    _ comparisons: [EntityQueryComparison], mode: EntityQueryComparatorMode = .and,
    sortedBy: [PropertySort] = [], limit: Int? = nil
) async throws -> [String] {
    try await TrailQuery().entities(matching: comparisons, mode: mode, sortedBy: sortedBy, limit: limit).map(\.id)
}
