public import AppIntentsCore
public import GlimpseIntents

// The EntityPropertyQuery declarations of the catalog's queries, written as an iOS app writes them.
// Each comparator maps the caller's value to the named comparison (`EntityQueryComparison`) that
// `queryableProperties` checks and runs, so a query built here and one read from the daemon's JSON or
// `glimpse entities --where` execute the same way.

extension PlaceQuery {
    /// Comparators map to the engine's named comparisons.
    public typealias ComparatorMappingType = EntityQueryComparison

    /// The queryable properties of ``PlaceEntity``, by key path.
    public static let properties = QueryProperties {
        Property(\PlaceEntity.$name) {
            EqualToComparator { EntityQueryComparison("name", .equalTo(.string($0))) }
            NotEqualToComparator { EntityQueryComparison("name", .notEqualTo(.string($0))) }
            ContainsComparator { EntityQueryComparison("name", .contains(.string($0))) }
            HasPrefixComparator { EntityQueryComparison("name", .hasPrefix(.string($0))) }
            HasSuffixComparator { EntityQueryComparison("name", .hasSuffix(.string($0))) }
            LessThanComparator { EntityQueryComparison("name", .lessThan(.string($0))) }
            GreaterThanComparator { EntityQueryComparison("name", .greaterThan(.string($0))) }
            IsBetweenComparator { EntityQueryComparison("name", .isBetween(.string($0), .string($1))) }
        }
        Property(\PlaceEntity.$kind) {
            EqualToComparator { EntityQueryComparison("kind", .equalTo(.string($0))) }
            NotEqualToComparator { EntityQueryComparison("kind", .notEqualTo(.string($0))) }
            HasPrefixComparator { EntityQueryComparison("kind", .hasPrefix(.string($0))) }
        }
        Property(\PlaceEntity.$region) {
            EqualToComparator { EntityQueryComparison("region", .equalTo(Self.text($0))) }
            NotEqualToComparator { EntityQueryComparison("region", .notEqualTo(Self.text($0))) }
            HasPrefixComparator { EntityQueryComparison("region", .hasPrefix(Self.text($0))) }
        }
        Property(\PlaceEntity.$continent) {
            EqualToComparator { EntityQueryComparison("continent", .equalTo(Self.text($0))) }
            NotEqualToComparator { EntityQueryComparison("continent", .notEqualTo(Self.text($0))) }
        }
        Property(\PlaceEntity.$labels) {
            ContainsComparator { EntityQueryComparison("labels", .contains(.string($0))) }
        }
        Property(\PlaceEntity.$collections) {
            ContainsComparator { EntityQueryComparison("collections", .contains(.string($0))) }
        }
    }

    /// Places sort by name, kind, region or continent.
    public static let sortingOptions = SortingOptions {
        SortableBy(\PlaceEntity.$name)
        SortableBy(\PlaceEntity.$kind)
        SortableBy(\PlaceEntity.$region)
        SortableBy(\PlaceEntity.$continent)
    }

    /// The places that satisfy the comparisons, sorted and limited as ``queryableProperties`` does it.
    ///
    /// - Throws: `EntityQueryError` when a comparison or sort does not fit the properties, or the
    ///   limit is negative.
    public func entities(
        matching comparators: [EntityQueryComparison], mode: ComparatorMode, sortedBy: [Sort], limit: Int?
    ) async throws -> [PlaceEntity] {
        let sorts = try sortedBy.map { sort throws(EntityQueryError) in
            try PropertySort(sort, names: [\PlaceEntity.$name: "name", \PlaceEntity.$kind: "kind",
                                           \PlaceEntity.$region: "region", \PlaceEntity.$continent: "continent"])
        }
        return try Self.queryableProperties.apply(
            to: catalog.places, matching: comparators, mode: mode, sortedBy: sorts, limit: limit)
    }

    /// An optional text operand: the text, or no value.
    static func text(_ value: String?) -> EntityPropertyValue { value.map(EntityPropertyValue.string) ?? .null }
}

extension CollectionQuery {
    /// Comparators map to the engine's named comparisons.
    public typealias ComparatorMappingType = EntityQueryComparison

    /// The queryable properties of ``CollectionEntity``, by key path.
    public static let properties = QueryProperties {
        Property(\CollectionEntity.$name) {
            EqualToComparator { EntityQueryComparison("name", .equalTo(.string($0))) }
            NotEqualToComparator { EntityQueryComparison("name", .notEqualTo(.string($0))) }
            ContainsComparator { EntityQueryComparison("name", .contains(.string($0))) }
            HasPrefixComparator { EntityQueryComparison("name", .hasPrefix(.string($0))) }
            HasSuffixComparator { EntityQueryComparison("name", .hasSuffix(.string($0))) }
        }
        Property(\CollectionEntity.$summary) {
            ContainsComparator { EntityQueryComparison("summary", .contains(.string($0))) }
        }
        Property(\CollectionEntity.$places) {
            ContainsComparator { EntityQueryComparison("places", .contains(.string($0))) }
        }
    }

    /// Collections sort by name.
    public static let sortingOptions = SortingOptions {
        SortableBy(\CollectionEntity.$name)
    }

    /// The collections that satisfy the comparisons, sorted and limited as ``queryableProperties`` does it.
    ///
    /// - Throws: `EntityQueryError` when a comparison or sort does not fit the properties, or the
    ///   limit is negative.
    public func entities(
        matching comparators: [EntityQueryComparison], mode: ComparatorMode, sortedBy: [Sort], limit: Int?
    ) async throws -> [CollectionEntity] {
        let sorts = try sortedBy.map { sort throws(EntityQueryError) in
            try PropertySort(sort, names: [\CollectionEntity.$name: "name"])
        }
        return try Self.queryableProperties.apply(
            to: catalog.collections, matching: comparators, mode: mode, sortedBy: sorts, limit: limit)
    }
}
