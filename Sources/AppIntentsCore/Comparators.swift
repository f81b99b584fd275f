// The comparators of Apple's list. Each is declared with a closure that maps the value a caller
// compares against into the query's ComparatorMappingType: `EqualToComparator { NSPredicate(…) }`.

/// Matches when the property equals the value: `EqualToComparator { value in … }`.
public struct EqualToComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .equalTo, mappingTransform)
    }
}

/// Matches when the property differs from the value: `NotEqualToComparator { value in … }`.
public struct NotEqualToComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .notEqualTo, mappingTransform)
    }
}

/// Matches when the property contains the value (a substring, or an element of a list): `ContainsComparator { value in … }`.
public struct ContainsComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .contains, mappingTransform)
    }
}

/// Matches when the property starts with the value: `HasPrefixComparator { value in … }`.
public struct HasPrefixComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .hasPrefix, mappingTransform)
    }
}

/// Matches when the property ends with the value: `HasSuffixComparator { value in … }`.
public struct HasSuffixComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .hasSuffix, mappingTransform)
    }
}

/// Matches when the property is less than the value: `LessThanComparator { value in … }`.
public struct LessThanComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .lessThan, mappingTransform)
    }
}

/// Matches when the property is at most the value: `LessThanOrEqualToComparator { value in … }`.
public struct LessThanOrEqualToComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .lessThanOrEqualTo, mappingTransform)
    }
}

/// Matches when the property is greater than the value: `GreaterThanComparator { value in … }`.
public struct GreaterThanComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .greaterThan, mappingTransform)
    }
}

/// Matches when the property is at least the value: `GreaterThanOrEqualToComparator { value in … }`.
public struct GreaterThanOrEqualToComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the value compared against.
    public init(mappingTransform: @escaping (Value) -> Output) {
        erased = EntityQueryComparator(kind: .greaterThanOrEqualTo, mappingTransform)
    }
}

/// Matches when the property lies between two values, both included: `IsBetweenComparator { lower, upper in … }`.
public struct IsBetweenComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the lower and upper bound.
    public init(mappingTransform: @escaping (Value, Value) -> Output) {
        erased = EntityQueryComparator(kind: .isBetween, pair: mappingTransform)
    }
}

/// Matches when the property equals one of the values: `ContainedInCollectionComparator { values in … }`.
public struct ContainedInCollectionComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the list of values.
    public init(mappingTransform: @escaping ([Value]) -> Output) {
        erased = EntityQueryComparator(kind: .containedInCollection, list: mappingTransform)
    }
}

/// Matches when the property equals none of the values: `NotContainedInCollectionComparator { values in … }`.
public struct NotContainedInCollectionComparator<Value, Output>: EntityQueryComparatorConvertible, @unchecked Sendable {
    /// The declaration, type-erased.
    public let erased: EntityQueryComparator<Output>

    /// A comparator whose closure maps the list of values.
    public init(mappingTransform: @escaping ([Value]) -> Output) {
        erased = EntityQueryComparator(kind: .notContainedInCollection, list: mappingTransform)
    }
}
