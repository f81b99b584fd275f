/// Finds entities by comparing their properties: App Intents' `EntityPropertyQuery`.
///
/// The query declares its queryable `properties` with `QueryProperties { Property(\.$name) { … } }`:
/// for each property, the comparators it supports, each with a closure that turns the value a caller
/// compares against into a ``ComparatorMappingType`` of the query's choosing (a predicate, a URL query
/// item, Glimpse's `EntityQueryComparison`). ``entities(matching:mode:sortedBy:limit:)`` receives those
/// mapped values and runs them.
///
/// `static var properties` and `static var sortingOptions` are declared by each query but are not
/// requirements here: `ComparatorMappingType` is inferred from ``entities(matching:mode:sortedBy:limit:)``
/// alone, so that `static let properties = QueryProperties { … }` (whose type depends on it) resolves
/// without a cycle wherever it is written.
public protocol EntityPropertyQuery: EntityQuery {
    /// What the comparator closures produce and ``entities(matching:mode:sortedBy:limit:)`` receives.
    associatedtype ComparatorMappingType

    /// The entities that satisfy all (`.and`) or any (`.or`) of `comparators`, sorted by the keys in
    /// order, at most `limit` of them (`nil` means no limit).
    func entities(
        matching comparators: [ComparatorMappingType], mode: ComparatorMode,
        sortedBy: [EntityQuerySort<Entity>], limit: Int?
    ) async throws -> [Entity]
}

extension EntityPropertyQuery {
    /// The declaration of the queryable properties: `QueryProperties { Property(\.$name) { … } }`.
    public typealias QueryProperties = EntityQueryProperties<Entity, ComparatorMappingType>
    /// One queryable property: `Property(\.$name) { EqualToComparator { … } }`.
    public typealias Property = EntityQueryProperty<Entity, ComparatorMappingType>
    /// The sortable properties: `SortingOptions { SortableBy(\.$name) }`.
    public typealias SortingOptions = EntityQuerySortingOptions<Entity>
    /// One sortable property.
    public typealias SortableBy = EntityQuerySortableByProperty<Entity>
    /// One sort key of a query.
    public typealias Sort = EntityQuerySort<Entity>
    /// How comparators combine.
    public typealias ComparatorMode = EntityQueryComparatorMode

}

/// How to combine several comparators: all must hold (`and`) or at least one (`or`).
public enum EntityQueryComparatorMode: String, Sendable, Hashable, CaseIterable {
    /// Every comparison must hold ("all").
    case and
    /// At least one comparison must hold ("any").
    case or
}

/// One sort key of a property query: the property, by key path, and the direction.
public struct EntityQuerySort<Entity>: @unchecked Sendable {
    /// Which way to sort.
    public enum Ordering: String, Sendable, Hashable {
        /// Smallest first.
        case ascending
        /// Largest first.
        case descending
    }

    /// The property to sort by (`\.$name`).
    public var by: PartialKeyPath<Entity>
    /// The direction.
    public var order: Ordering

    /// A sort key.
    public init(by: PartialKeyPath<Entity>, order: Ordering = .ascending) {
        self.by = by
        self.order = order
    }
}

/// The properties a query's results can be sorted by: `SortingOptions { SortableBy(\.$name) }`.
public struct EntityQuerySortingOptions<Entity>: @unchecked Sendable {
    /// The sortable properties, in declaration order.
    public let sortableProperties: [EntityQuerySortableByProperty<Entity>]

    /// Declares the sortable properties.
    public init(@Builder _ properties: () -> [EntityQuerySortableByProperty<Entity>]) {
        sortableProperties = properties()
    }

    /// Whether results can be sorted by the property at `keyPath`.
    public func contains(_ keyPath: PartialKeyPath<Entity>) -> Bool {
        sortableProperties.contains { $0.keyPath == keyPath }
    }

    /// Collects `SortableBy` lines.
    @resultBuilder
    public enum Builder {
        /// One line.
        public static func buildExpression(_ property: EntityQuerySortableByProperty<Entity>) -> [EntityQuerySortableByProperty<Entity>] {
            [property]
        }
        /// The lines in order.
        public static func buildBlock(_ parts: [EntityQuerySortableByProperty<Entity>]...) -> [EntityQuerySortableByProperty<Entity>] {
            parts.flatMap { $0 }
        }
        /// An `if` without `else`.
        public static func buildOptional(_ part: [EntityQuerySortableByProperty<Entity>]?) -> [EntityQuerySortableByProperty<Entity>] {
            part ?? []
        }
        /// The first branch of an `if … else`.
        public static func buildEither(first part: [EntityQuerySortableByProperty<Entity>]) -> [EntityQuerySortableByProperty<Entity>] { part }
        /// The second branch of an `if … else`.
        public static func buildEither(second part: [EntityQuerySortableByProperty<Entity>]) -> [EntityQuerySortableByProperty<Entity>] { part }
    }
}

/// One property results can be sorted by: `SortableBy(\.$name)`.
public struct EntityQuerySortableByProperty<Entity>: @unchecked Sendable {
    /// The property, by key path to its `@Property` (`\.$name`).
    public let keyPath: PartialKeyPath<Entity>

    /// The property at `keyPath`.
    public init<Value>(_ keyPath: KeyPath<Entity, EntityProperty<Value>>) {
        self.keyPath = keyPath
    }
}
