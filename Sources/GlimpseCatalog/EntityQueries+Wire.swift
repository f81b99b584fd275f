public import GlimpseIntents
public import GlimpseWire

/// The two entity types of a catalog, as the API names them (`place`, `collection`, or their plurals).
public enum CatalogEntityType: String, Sendable, Hashable, CaseIterable {
    /// ``PlaceEntity``.
    case place
    /// ``CollectionEntity``.
    case collection

    /// The type named `name` (`place`, `places`, `collection` or `collections`).
    ///
    /// - Throws: ``UnknownEntityTypeError`` for any other name.
    public init(named name: String) throws(UnknownEntityTypeError) {
        switch name {
        case "place", "places": self = .place
        case "collection", "collections": self = .collection
        default: throw UnknownEntityTypeError(name: name)
        }
    }
}

/// A request named an entity type the catalog does not have.
public struct UnknownEntityTypeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name given.
    public var name: String

    /// A sentence saying what to pass instead.
    public var description: String { "there is no entity type \(name); use place or collection" }
}

extension Catalog {
    /// The entity of `type` with `id` in wire form, or `nil`.
    public func entityJSON(type: CatalogEntityType, id: String) -> EntityJSON? {
        switch type {
        case .place: place(id: id).map(EntityJSON.init)
        case .collection: collection(id: id).map(EntityJSON.init)
        }
    }

    /// Places and collections of `types` whose names or descriptions match `text`, best first (places
    /// before collections on a tie), each with its search score rounded to 4 decimals: the
    /// `EntityStringQuery` of the daemon's entity text search and of `glimpse entities --search`.
    public func searchEntities(
        _ text: String, types: Set<CatalogEntityType> = Set(CatalogEntityType.allCases)
    ) -> [EntityJSON] {
        var found: [(score: Double, entity: EntityJSON)] = []
        if types.contains(.place) {
            found += PlaceQuery.search(text, in: self).map { ($0.score, EntityJSON($0.element)) }
        }
        if types.contains(.collection) {
            found += CollectionQuery.search(text, in: self).map { ($0.score, EntityJSON($0.element)) }
        }
        return found.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map { item in
            var entity = item.element.entity
            entity.score = VisualSearchRanking.round(item.element.score)
            return entity
        }
    }

    /// Runs an `EntityPropertyQuery` given in wire form: each comparison goes straight from its JSON
    /// parts to a comparator value (no text syntax in between, so a value may hold any characters).
    ///
    /// - Throws: `EntityQueryError` for an unknown comparator, mode or sort order, and for comparisons,
    ///   sorts or limits that do not fit the type's properties.
    public func entities(of type: CatalogEntityType, matching request: PropertyQueryJSON)
        throws(EntityQueryError) -> [EntityJSON]
    {
        let mode: EntityQueryComparatorMode
        switch request.mode?.lowercased() ?? "all" {
        case "all", "and": mode = .and
        case "any", "or": mode = .or
        default: throw .unknownMode(name: request.mode ?? "")
        }
        var sorts: [PropertySort] = []
        for key in request.sort ?? [] {
            switch key.order?.lowercased() ?? "ascending" {
            case "ascending": sorts.append(PropertySort(by: key.property, order: .ascending))
            case "descending": sorts.append(PropertySort(by: key.property, order: .descending))
            default: throw .unknownSortOrder(name: key.order ?? "")
            }
        }
        switch type {
        case .place:
            let properties = PlaceQuery.queryableProperties
            return try properties.apply(
                to: places, matching: try Self.comparisons(request.comparators, in: properties), mode: mode,
                sortedBy: sorts, limit: request.limit
            ).map(EntityJSON.init)
        case .collection:
            let properties = CollectionQuery.queryableProperties
            return try properties.apply(
                to: collections, matching: try Self.comparisons(request.comparators, in: properties), mode: mode,
                sortedBy: sorts, limit: request.limit
            ).map(EntityJSON.init)
        }
    }

    private static func comparisons<Entity>(
        _ items: [ComparatorJSON], in properties: QueryableProperties<Entity>
    ) throws(EntityQueryError) -> [EntityQueryComparison] {
        var comparisons: [EntityQueryComparison] = []
        for item in items {
            guard let kind = PropertyComparator.Kind(rawValue: item.comparator) else {
                throw .unknownComparator(name: item.comparator)
            }
            var operands: [String] = []
            for value in [item.value, item.upperValue].compactMap({ $0 }) {
                operands.append(try operand(value, property: item.property))
            }
            comparisons.append(try properties.comparison(property: item.property, kind: kind, operands: operands))
        }
        return comparisons
    }

    /// A JSON operand as the text the property's type is read from: a string as is, a number in its
    /// shortest form, a boolean as `true`/`false`.
    private static func operand(_ value: JSONValue, property: String) throws(EntityQueryError) -> String {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 9.0e15 { return String(Int64(number)) }
            return String(number)
        case .null, .array, .object:
            throw .wrongValueType(property: property, expected: .string, actual: "a JSON \(value.kindName)")
        }
    }
}

extension JSONValue {
    fileprivate var kindName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .array: "array"
        case .object: "object"
        case .null: "null"
        }
    }
}
