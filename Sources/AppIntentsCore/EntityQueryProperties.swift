/// The queryable properties of an ``EntityPropertyQuery``: `QueryProperties { Property(\.$name) { … } }`.
///
/// App Intents' `EntityQueryProperties`. Each property lists the comparators it supports; each
/// comparator turns the value a caller compares against into the query's `ComparatorMappingType`.
public struct EntityQueryProperties<Entity, ComparatorMappingType>: @unchecked Sendable {
    /// The properties, in declaration order.
    public let properties: [EntityQueryProperty<Entity, ComparatorMappingType>]

    /// Declares the properties.
    public init(@Builder properties: () -> [EntityQueryProperty<Entity, ComparatorMappingType>]) {
        self.properties = properties()
    }

    /// The property at `keyPath` (`\.$name`), or `nil` when it is not queryable.
    public subscript(keyPath: PartialKeyPath<Entity>) -> EntityQueryProperty<Entity, ComparatorMappingType>? {
        properties.first { $0.keyPath == keyPath }
    }

    /// Collects `Property` lines.
    @resultBuilder
    public enum Builder {
        /// One line.
        public static func buildExpression(
            _ property: EntityQueryProperty<Entity, ComparatorMappingType>
        ) -> [EntityQueryProperty<Entity, ComparatorMappingType>] { [property] }
        /// The lines in order.
        public static func buildBlock(
            _ parts: [EntityQueryProperty<Entity, ComparatorMappingType>]...
        ) -> [EntityQueryProperty<Entity, ComparatorMappingType>] { parts.flatMap { $0 } }
        /// An `if` without `else`.
        public static func buildOptional(
            _ part: [EntityQueryProperty<Entity, ComparatorMappingType>]?
        ) -> [EntityQueryProperty<Entity, ComparatorMappingType>] { part ?? [] }
        /// The first branch of an `if … else`.
        public static func buildEither(
            first part: [EntityQueryProperty<Entity, ComparatorMappingType>]
        ) -> [EntityQueryProperty<Entity, ComparatorMappingType>] { part }
        /// The second branch of an `if … else`.
        public static func buildEither(
            second part: [EntityQueryProperty<Entity, ComparatorMappingType>]
        ) -> [EntityQueryProperty<Entity, ComparatorMappingType>] { part }
    }
}

/// One queryable property and its comparators: `Property(\.$name) { EqualToComparator { … } }`.
public struct EntityQueryProperty<Entity, ComparatorMappingType>: @unchecked Sendable {
    /// The property, by key path to its `@Property` (`\.$name`).
    public let keyPath: PartialKeyPath<Entity>
    /// The property's title, from its `@Property(title:)`; `nil` when it has none.
    public let title: LocalizedStringResource?
    /// The comparators the property supports, in declaration order.
    public let comparators: [EntityQueryComparator<ComparatorMappingType>]

    /// The property at `keyPath` with the comparators the builder lists.
    public init<Value>(
        _ keyPath: KeyPath<Entity, EntityProperty<Value>>, title: LocalizedStringResource? = nil,
        @EntityQueryComparatorBuilder<Value, ComparatorMappingType> comparators: () -> [EntityQueryComparator<ComparatorMappingType>]
    ) {
        self.keyPath = keyPath
        self.title = title
        self.comparators = comparators()
    }

    /// The comparator of `kind`, or `nil` when the property does not support it.
    public func comparator(_ kind: EntityQueryComparatorKind) -> EntityQueryComparator<ComparatorMappingType>? {
        comparators.first { $0.kind == kind }
    }
}

/// Collects the comparator lines of one `Property`; `Value` is the property's type.
@resultBuilder
public enum EntityQueryComparatorBuilder<Value, Output> {
    /// A comparator on the property's value.
    public static func buildExpression<Comparator: EntityQueryComparatorConvertible>(
        _ comparator: Comparator
    ) -> [EntityQueryComparator<Output>] where Comparator.Value == Value, Comparator.Output == Output {
        [comparator.erased]
    }
    /// `ContainsComparator` on a list property compares against one element.
    public static func buildExpression<Element>(
        _ comparator: ContainsComparator<Element, Output>
    ) -> [EntityQueryComparator<Output>] where Value: EntityQueryCollection, Value.Element == Element {
        [comparator.erased]
    }
    /// The lines in order.
    public static func buildBlock(_ parts: [EntityQueryComparator<Output>]...) -> [EntityQueryComparator<Output>] {
        parts.flatMap { $0 }
    }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [EntityQueryComparator<Output>]?) -> [EntityQueryComparator<Output>] {
        part ?? []
    }
    /// The first branch of an `if … else`.
    public static func buildEither(first part: [EntityQueryComparator<Output>]) -> [EntityQueryComparator<Output>] { part }
    /// The second branch of an `if … else`.
    public static func buildEither(second part: [EntityQueryComparator<Output>]) -> [EntityQueryComparator<Output>] { part }
}

/// A list type whose `ContainsComparator` compares against one element (arrays and sets).
public protocol EntityQueryCollection: Sequence {}
extension Array: EntityQueryCollection {}
extension Set: EntityQueryCollection {}

/// Which comparison a comparator makes: Apple's list of property comparators.
public enum EntityQueryComparatorKind: String, Sendable, Hashable, CaseIterable {
    /// `EqualToComparator`.
    case equalTo
    /// `NotEqualToComparator`.
    case notEqualTo
    /// `ContainsComparator`.
    case contains
    /// `HasPrefixComparator`.
    case hasPrefix
    /// `HasSuffixComparator`.
    case hasSuffix
    /// `LessThanComparator`.
    case lessThan
    /// `LessThanOrEqualToComparator`.
    case lessThanOrEqualTo
    /// `GreaterThanComparator`.
    case greaterThan
    /// `GreaterThanOrEqualToComparator`.
    case greaterThanOrEqualTo
    /// `IsBetweenComparator`: two values, both bounds included.
    case isBetween
    /// `ContainedInCollectionComparator`: a list of values.
    case containedInCollection
    /// `NotContainedInCollectionComparator`: a list of values.
    case notContainedInCollection
}

/// A comparator of one property with its mapping closure, whatever the property's type: what
/// `EntityQueryProperty.comparators` holds and what a runtime calls with the caller's values.
public struct EntityQueryComparator<Output>: @unchecked Sendable {
    /// The comparison made.
    public let kind: EntityQueryComparatorKind
    /// The type of the value the closure takes (the element type for a list's `contains`).
    public let valueType: Any.Type
    private let transform: (Any) -> Output?

    init<Value>(kind: EntityQueryComparatorKind, _ transform: @escaping (Value) -> Output) {
        self.kind = kind
        valueType = Value.self
        self.transform = { ($0 as? Value).map(transform) }
    }

    init<Value>(kind: EntityQueryComparatorKind, pair transform: @escaping (Value, Value) -> Output) {
        self.kind = kind
        valueType = Value.self
        self.transform = { operands in
            guard let (lower, upper) = operands as? (Value, Value) else { return nil }
            return transform(lower, upper)
        }
    }

    init<Value>(kind: EntityQueryComparatorKind, list transform: @escaping ([Value]) -> Output) {
        self.kind = kind
        valueType = Value.self
        self.transform = { ($0 as? [Value]).map(transform) }
    }

    /// The mapping of `value`; `nil` when the comparator takes another type or two values or a list.
    public func callAsFunction<Value>(_ value: Value) -> Output? { transform(value) }
    /// The mapping of a range, for ``EntityQueryComparatorKind/isBetween``; `nil` for other comparators.
    public func callAsFunction<Value>(_ lower: Value, _ upper: Value) -> Output? { transform((lower, upper)) }
}

/// A comparator declaration: one of `EqualToComparator`, `ContainsComparator`, … with its closure.
public protocol EntityQueryComparatorConvertible {
    /// The type of the value compared against.
    associatedtype Value
    /// What the closure produces.
    associatedtype Output
    /// The declaration with its closure, type-erased.
    var erased: EntityQueryComparator<Output> { get }
}
