/// One comparison against a property's value: the counterpart of App Intents' comparator classes
/// (`EqualToComparator`, `HasPrefixComparator`, `IsBetweenComparator`, …) as one enum.
///
/// Semantics, for a property value `v` and operand `x`:
/// - Strings compare after case and diacritic folding (`"Évora" == "evora"`), by `Unicode` scalar
///   order of the folded text.
/// - Numbers compare numerically; an `int` operand is accepted for a `double` property.
/// - ``contains(_:)`` on a string is substring search; on a string list it means "has an element
///   equal to `x`". An empty operand is contained in, prefixes and suffixes every string.
/// - ``isBetween(_:_:)`` includes both bounds.
/// - A `nil` property value satisfies only ``isNil`` and ``notEqualTo(_:)``.
public enum PropertyComparator: Sendable, Hashable {
    /// `v == x`.
    case equalTo(EntityPropertyValue)
    /// `v != x`; true when `v` is nil.
    case notEqualTo(EntityPropertyValue)
    /// `v` contains `x` (substring, or list element).
    case contains(EntityPropertyValue)
    /// `v` starts with `x`.
    case hasPrefix(EntityPropertyValue)
    /// `v` ends with `x`.
    case hasSuffix(EntityPropertyValue)
    /// `v < x`.
    case lessThan(EntityPropertyValue)
    /// `v <= x`.
    case lessThanOrEqualTo(EntityPropertyValue)
    /// `v > x`.
    case greaterThan(EntityPropertyValue)
    /// `v >= x`.
    case greaterThanOrEqualTo(EntityPropertyValue)
    /// `lower <= v <= upper`.
    case isBetween(EntityPropertyValue, EntityPropertyValue)
    /// `v` is nil.
    case isNil

    /// A comparator without its operands, used to declare what a property supports.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``PropertyComparator/equalTo(_:)``, written `==`.
        case equalTo
        /// ``PropertyComparator/notEqualTo(_:)``, written `!=`.
        case notEqualTo
        /// ``PropertyComparator/contains(_:)``, written `contains`.
        case contains
        /// ``PropertyComparator/hasPrefix(_:)``, written `hasPrefix`.
        case hasPrefix
        /// ``PropertyComparator/hasSuffix(_:)``, written `hasSuffix`.
        case hasSuffix
        /// ``PropertyComparator/lessThan(_:)``, written `<`.
        case lessThan
        /// ``PropertyComparator/lessThanOrEqualTo(_:)``, written `<=`.
        case lessThanOrEqualTo
        /// ``PropertyComparator/greaterThan(_:)``, written `>`.
        case greaterThan
        /// ``PropertyComparator/greaterThanOrEqualTo(_:)``, written `>=`.
        case greaterThanOrEqualTo
        /// ``PropertyComparator/isBetween(_:_:)``, written `between A and B`.
        case isBetween
        /// ``PropertyComparator/isNil``, written `isNil`.
        case isNil

        /// The operator as written in query text, such as `==` or `hasPrefix`.
        public var symbol: String {
            switch self {
            case .equalTo: "=="
            case .notEqualTo: "!="
            case .contains: "contains"
            case .hasPrefix: "hasPrefix"
            case .hasSuffix: "hasSuffix"
            case .lessThan: "<"
            case .lessThanOrEqualTo: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqualTo: ">="
            case .isBetween: "between"
            case .isNil: "isNil"
            }
        }

        /// The Swift name of the comparator, such as `hasPrefix`.
        public var description: String { rawValue }
    }

    /// This comparator without its operands.
    public var kind: Kind {
        switch self {
        case .equalTo: .equalTo
        case .notEqualTo: .notEqualTo
        case .contains: .contains
        case .hasPrefix: .hasPrefix
        case .hasSuffix: .hasSuffix
        case .lessThan: .lessThan
        case .lessThanOrEqualTo: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqualTo: .greaterThanOrEqualTo
        case .isBetween: .isBetween
        case .isNil: .isNil
        }
    }

    /// The operands, in order (none for ``isNil``, two for ``isBetween(_:_:)``).
    public var operands: [EntityPropertyValue] {
        switch self {
        case .equalTo(let x), .notEqualTo(let x), .contains(let x), .hasPrefix(let x), .hasSuffix(let x),
             .lessThan(let x), .lessThanOrEqualTo(let x), .greaterThan(let x), .greaterThanOrEqualTo(let x):
            [x]
        case let .isBetween(lower, upper):
            [lower, upper]
        case .isNil:
            []
        }
    }

    /// Whether `value` satisfies this comparator. Operands are assumed checked against the property type
    /// (``QueryableProperties/validate(_:)`` does that); a mismatched operand never matches.
    public func evaluate(_ value: EntityPropertyValue) -> Bool {
        switch self {
        case .isNil:
            return value == .null
        case .notEqualTo(let x):
            return !PropertyOrdering.equal(value, x)
        case _ where value == .null:
            return false
        case .equalTo(let x):
            return PropertyOrdering.equal(value, x)
        case .contains(let x):
            switch (value, x) {
            case let (.string(v), .string(x)): return x.isEmpty || TextFolding.fold(v).contains(TextFolding.fold(x))
            case let (.strings(list), .string(x)):
                let needle = TextFolding.fold(x)
                return list.contains { TextFolding.fold($0) == needle }
            default: return false
            }
        case .hasPrefix(let x):
            guard case let (.string(v), .string(x)) = (value, x) else { return false }
            return TextFolding.fold(v).hasPrefix(TextFolding.fold(x))
        case .hasSuffix(let x):
            guard case let (.string(v), .string(x)) = (value, x) else { return false }
            return TextFolding.fold(v).hasSuffix(TextFolding.fold(x))
        case .lessThan(let x):
            return PropertyOrdering.compare(value, x) == .less
        case .lessThanOrEqualTo(let x):
            return [.less, .equal].contains(PropertyOrdering.compare(value, x))
        case .greaterThan(let x):
            return PropertyOrdering.compare(value, x) == .greater
        case .greaterThanOrEqualTo(let x):
            return [.greater, .equal].contains(PropertyOrdering.compare(value, x))
        case let .isBetween(lower, upper):
            return [.greater, .equal].contains(PropertyOrdering.compare(value, lower))
                && [.less, .equal].contains(PropertyOrdering.compare(value, upper))
        }
    }
}

/// How comparators and sorts order property values.
enum PropertyOrdering {
    /// The outcome of comparing two values; `nil` means the two cannot be compared.
    enum Outcome { case less, equal, greater }

    static func equal(_ a: EntityPropertyValue, _ b: EntityPropertyValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.strings(x), .strings(y)):
            return x.count == y.count && zip(x, y).allSatisfy { TextFolding.fold($0) == TextFolding.fold($1) }
        default: return compare(a, b) == .equal
        }
    }

    /// Compares two non-nil scalar values of compatible types; `nil` otherwise.
    static func compare(_ a: EntityPropertyValue, _ b: EntityPropertyValue) -> Outcome? {
        switch (a, b) {
        case let (.string(x), .string(y)):
            return outcome(TextFolding.fold(x), TextFolding.fold(y))
        case let (.int(x), .int(y)):
            return outcome(x, y)
        case let (.double(x), .double(y)):
            return outcome(x, y)
        case let (.double(x), .int(y)):
            return outcome(x, Double(y))
        case let (.int(x), .double(y)):
            return outcome(Double(x), y)
        case let (.bool(x), .bool(y)):
            return x == y ? .equal : (!x ? .less : .greater)
        default:
            return nil
        }
    }

    private static func outcome<T: Comparable>(_ x: T, _ y: T) -> Outcome? {
        if x < y { return .less }
        if x > y { return .greater }
        if x == y { return .equal }
        return nil  // NaN
    }
}
