/// The value of one queryable entity property, or an operand of a comparator.
public enum EntityPropertyValue: Sendable, Hashable, CustomStringConvertible {
    /// Text.
    case string(String)
    /// A whole number.
    case int(Int)
    /// A real number.
    case double(Double)
    /// True or false.
    case bool(Bool)
    /// A list of strings, such as labels.
    case strings([String])
    /// No value.
    case null

    /// The type of this value, or `nil` for ``null``.
    public var valueType: EntityPropertyValueType? {
        switch self {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .strings: .strings
        case .null: nil
        }
    }

    /// The value as it is written in query text and command output.
    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case .strings(let values): "[" + values.joined(separator: ", ") + "]"
        case .null: "nil"
        }
    }
}

/// The declared type of a queryable property.
public enum EntityPropertyValueType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ``EntityPropertyValue/string(_:)``.
    case string
    /// ``EntityPropertyValue/int(_:)``.
    case int
    /// ``EntityPropertyValue/double(_:)``.
    case double
    /// ``EntityPropertyValue/bool(_:)``.
    case bool
    /// ``EntityPropertyValue/strings(_:)``.
    case strings

    /// The type's name: `string`, `int`, `double`, `bool` or `strings`.
    public var description: String { rawValue }

    /// The comparators a property of this type supports unless it declares its own.
    public var defaultComparators: [PropertyComparator.Kind] {
        switch self {
        case .string:
            [.equalTo, .notEqualTo, .contains, .hasPrefix, .hasSuffix,
             .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .isBetween]
        case .int, .double:
            [.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .isBetween]
        case .bool:
            [.equalTo, .notEqualTo]
        case .strings:
            [.contains]
        }
    }

    /// Whether values of this type have an order, and so can be sorted on.
    public var isOrdered: Bool { self != .strings }
}
