/// Why an entity query was rejected before it ran.
public enum EntityQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The query names a property the entity type does not declare.
    case unknownProperty(name: String, known: [String])
    /// The property does not support this comparator.
    case unsupportedComparator(property: String, comparator: PropertyComparator.Kind,
                               supported: [PropertyComparator.Kind])
    /// An operand's type does not match the property's type.
    case wrongValueType(property: String, expected: EntityPropertyValueType, actual: String)
    /// `isBetween` was given a lower bound above its upper bound.
    case emptyRange(property: String, lower: EntityPropertyValue, upper: EntityPropertyValue)
    /// The sort names a property that cannot be sorted on.
    case unsortableProperty(name: String, sortable: [String])
    /// The limit is negative.
    case invalidLimit(Int)
    /// A comparison written as text could not be read.
    case unparsableComparison(text: String, reason: String)
    /// A comparator name that is not one of ``PropertyComparator/Kind``.
    case unknownComparator(name: String)
    /// A comparator was given the wrong number of operands (``PropertyComparator/isNil`` takes none,
    /// ``PropertyComparator/isBetween(_:_:)`` two, the others one).
    case wrongOperandCount(property: String, comparator: PropertyComparator.Kind, expected: Int, actual: Int)
    /// A comparator mode name other than `all` (`and`) or `any` (`or`).
    case unknownMode(name: String)
    /// A sort order name other than `ascending` or `descending`.
    case unknownSortOrder(name: String)

    /// A sentence that says what was wrong and what to pass instead.
    public var description: String {
        switch self {
        case let .unknownProperty(name, known):
            "unknown property '\(name)'; the queryable properties are \(known.joined(separator: ", "))"
        case let .unsupportedComparator(property, comparator, supported):
            "property '\(property)' does not support '\(comparator.symbol)'; it supports "
                + supported.map(\.symbol).joined(separator: ", ")
        case let .wrongValueType(property, expected, actual):
            "property '\(property)' holds \(expected) values but the comparison gives \(actual); "
                + "pass a \(expected) value"
        case let .emptyRange(property, lower, upper):
            "'\(property) between \(lower) and \(upper)' can match nothing: the lower bound is above the upper; "
                + "swap the bounds"
        case let .unsortableProperty(name, sortable):
            "cannot sort by '\(name)'; sortable properties are \(sortable.joined(separator: ", "))"
        case let .invalidLimit(limit):
            "limit \(limit) is negative; pass 0 or more, or no limit"
        case let .unparsableComparison(text, reason):
            "cannot read comparison '\(text)': \(reason)"
        case let .unknownComparator(name):
            "unknown comparator \(name); use one of "
                + PropertyComparator.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        case let .wrongOperandCount(property, comparator, expected, actual):
            "'\(comparator.rawValue)' on '\(property)' takes \(expected) value\(expected == 1 ? "" : "s"), not \(actual)"
        case let .unknownMode(name):
            "mode is \(name); use all or any"
        case let .unknownSortOrder(name):
            "sort order is \(name); use ascending or descending"
        }
    }
}
