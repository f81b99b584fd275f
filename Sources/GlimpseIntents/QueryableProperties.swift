/// One property the engine can filter and sort entities on, by name (the daemon's and
/// `glimpse entities --where`'s vocabulary): a name, a type, the comparators it supports and how to
/// read it from an entity. App Intents' `EntityQueryProperty` names a property by key path instead.
public struct QueryableProperty<Entity: AppEntity>: Sendable {
    /// The name used in queries, such as `kind`.
    public let name: String
    /// A human title, such as "Kind".
    public let title: String
    /// The type of the property's values.
    public let valueType: EntityPropertyValueType
    /// Whether the property can be nil.
    public let isOptional: Bool
    /// The comparators the property supports, in declaration order.
    public let comparators: [PropertyComparator.Kind]
    /// Whether the property can be sorted on.
    public let isSortable: Bool
    private let read: @Sendable (Entity) -> EntityPropertyValue

    /// The property's value for `entity`.
    public func value(of entity: Entity) -> EntityPropertyValue { read(entity) }

    private init(
        name: String, title: String, valueType: EntityPropertyValueType, isOptional: Bool,
        comparators: [PropertyComparator.Kind]?, sortable: Bool?,
        read: @escaping @Sendable (Entity) -> EntityPropertyValue
    ) {
        self.name = name
        self.title = title
        self.valueType = valueType
        self.isOptional = isOptional
        var kinds = comparators ?? valueType.defaultComparators
        if isOptional, comparators == nil { kinds.append(.isNil) }
        self.comparators = kinds
        self.isSortable = sortable ?? valueType.isOrdered
        self.read = read
    }

    /// A string property.
    ///
    /// - Parameters:
    ///   - name: the property's name in comparisons and sorts.
    ///   - title: its name for people.
    ///   - comparators: the supported comparators; `nil` means the type's defaults.
    ///   - read: reads the property's value from an entity.
    public static func string(
        _ name: String, title: String, comparators: [PropertyComparator.Kind]? = nil,
        _ read: @escaping @Sendable (Entity) -> String
    ) -> Self {
        Self(name: name, title: title, valueType: .string, isOptional: false, comparators: comparators,
             sortable: nil) { .string(read($0)) }
    }

    /// A string property that can be nil; it also supports `isNil` unless `comparators` says otherwise.
    public static func optionalString(
        _ name: String, title: String, comparators: [PropertyComparator.Kind]? = nil,
        _ read: @escaping @Sendable (Entity) -> String?
    ) -> Self {
        Self(name: name, title: title, valueType: .string, isOptional: true, comparators: comparators,
             sortable: nil) { read($0).map(EntityPropertyValue.string) ?? .null }
    }

    /// A whole-number property.
    public static func int(
        _ name: String, title: String, comparators: [PropertyComparator.Kind]? = nil,
        _ read: @escaping @Sendable (Entity) -> Int?
    ) -> Self {
        Self(name: name, title: title, valueType: .int, isOptional: false, comparators: comparators,
             sortable: nil) { read($0).map(EntityPropertyValue.int) ?? .null }
    }

    /// A real-number property.
    public static func double(
        _ name: String, title: String, comparators: [PropertyComparator.Kind]? = nil,
        _ read: @escaping @Sendable (Entity) -> Double?
    ) -> Self {
        Self(name: name, title: title, valueType: .double, isOptional: false, comparators: comparators,
             sortable: nil) { read($0).map(EntityPropertyValue.double) ?? .null }
    }

    /// A true/false property.
    public static func bool(
        _ name: String, title: String, comparators: [PropertyComparator.Kind]? = nil,
        _ read: @escaping @Sendable (Entity) -> Bool?
    ) -> Self {
        Self(name: name, title: title, valueType: .bool, isOptional: false, comparators: comparators,
             sortable: nil) { read($0).map(EntityPropertyValue.bool) ?? .null }
    }

    /// A string-list property, such as labels; `contains` tests membership.
    public static func strings(
        _ name: String, title: String, comparators: [PropertyComparator.Kind]? = nil,
        _ read: @escaping @Sendable (Entity) -> [String]?
    ) -> Self {
        Self(name: name, title: title, valueType: .strings, isOptional: false, comparators: comparators,
             sortable: false) { read($0).map(EntityPropertyValue.strings) ?? .null }
    }
}

/// The set of queryable properties of one entity type, by name: what the engine checks and runs (an
/// `EntityPropertyQuery`'s `QueryProperties` declaration maps its comparators to comparisons of these).
public struct QueryableProperties<Entity: AppEntity>: Sendable {
    /// The properties, in declaration order.
    public let properties: [QueryableProperty<Entity>]

    /// Declares the properties; names must be unique (a later duplicate is ignored).
    public init(_ properties: [QueryableProperty<Entity>]) {
        var seen = Set<String>()
        self.properties = properties.filter { seen.insert($0.name).inserted }
    }

    /// The property called `name`, or `nil`.
    public subscript(name: String) -> QueryableProperty<Entity>? {
        properties.first { $0.name == name }
    }

    /// The names of the properties that can be sorted on.
    public var sortingOptions: [String] { properties.filter(\.isSortable).map(\.name) }

    /// Checks a comparison against the declarations and returns its property.
    ///
    /// - Throws: ``EntityQueryError`` for an unknown property, an unsupported comparator, an operand
    ///   of the wrong type, or an empty `isBetween` range.
    @discardableResult
    public func validate(_ comparison: EntityQueryComparison) throws(EntityQueryError) -> QueryableProperty<Entity> {
        guard let property = self[comparison.property] else {
            throw .unknownProperty(name: comparison.property, known: properties.map(\.name))
        }
        let kind = comparison.comparator.kind
        guard property.comparators.contains(kind) else {
            throw .unsupportedComparator(property: property.name, comparator: kind, supported: property.comparators)
        }
        let expected: EntityPropertyValueType = property.valueType == .strings ? .string : property.valueType
        for operand in comparison.comparator.operands {
            let actual = operand.valueType
            let accepted = actual == expected || (expected == .double && actual == .int)
            guard accepted else {
                throw .wrongValueType(property: property.name, expected: expected,
                                      actual: actual.map { "a \($0) (\(operand))" } ?? "nil")
            }
        }
        if case let .isBetween(lower, upper) = comparison.comparator,
           PropertyOrdering.compare(lower, upper) == .greater {
            throw .emptyRange(property: property.name, lower: lower, upper: upper)
        }
        return property
    }
}

/// A comparator applied to a named property, such as `kind == lake`: the `ComparatorMappingType`
/// every Glimpse property query uses.
public struct EntityQueryComparison: Sendable, Hashable, CustomStringConvertible {
    /// The property's name.
    public var property: String
    /// The comparison to make.
    public var comparator: PropertyComparator

    /// Creates a comparison.
    public init(_ property: String, _ comparator: PropertyComparator) {
        self.property = property
        self.comparator = comparator
    }

    /// The comparison in the text syntax that ``QueryableProperties/comparison(parsing:)`` reads, such as
    /// `name hasPrefix Sun`.
    public var description: String {
        switch comparator {
        case .isNil: "\(property) isNil"
        case let .isBetween(lower, upper): "\(property) between \(lower) and \(upper)"
        default: "\(property) \(comparator.kind.symbol) \(comparator.operands.map(\.description).joined())"
        }
    }
}

/// One sort key of a property query, naming the property by string (App Intents' `EntityQuerySort`
/// names it by key path; ``init(_:names:)`` converts).
public struct PropertySort: Sendable, Hashable {
    /// Which way to sort.
    public enum Ordering: String, Sendable, Hashable {
        /// Smallest first; nil values last.
        case ascending
        /// Largest first; nil values last.
        case descending
    }

    /// The property to sort by.
    public var by: String
    /// The direction.
    public var order: Ordering

    /// Creates a sort key.
    public init(by property: String, order: Ordering = .ascending) {
        self.by = property
        self.order = order
    }
}

extension PropertySort {
    /// The named sort key for an App Intents sort key, whose property is named in `names`.
    ///
    /// - Throws: ``EntityQueryError/unsortableProperty(name:sortable:)`` when `names` does not name it.
    public init<Entity>(_ sort: EntityQuerySort<Entity>, names: [PartialKeyPath<Entity>: String]) throws(EntityQueryError) {
        guard let name = names[sort.by] else {
            throw .unsortableProperty(name: "\(sort.by)", sortable: names.values.sorted())
        }
        self.init(by: name, order: sort.order == .ascending ? .ascending : .descending)
    }
}
