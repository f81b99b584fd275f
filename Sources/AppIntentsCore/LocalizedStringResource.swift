extension String {
    /// A string with the interpolations that localisation keeps apart: the counterpart of Foundation's
    /// `String.LocalizationValue` on Apple platforms.
    ///
    /// It records both the key a strings table would be searched with (interpolations as format
    /// specifiers: `"Ordered %lld %@"`) and the text with the values put in (`"Ordered 2 Tomato"`).
    /// This library does not translate, so the text is what a resource resolves to.
    public struct LocalizationValue: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
        /// The lookup key: the literal text with each interpolation written as a format specifier.
        public let key: String
        /// The text with every interpolated value in place.
        public let resolved: String

        /// The text `value`, used as key and text alike.
        public init(_ value: String) {
            key = value
            resolved = value
        }

        /// A literal without interpolations.
        public init(stringLiteral value: String) { self.init(value) }

        /// A literal with interpolations.
        public init(stringInterpolation: StringInterpolation) {
            key = stringInterpolation.key
            resolved = stringInterpolation.resolved
        }

        /// The resolved text.
        public var description: String { resolved }

        /// The kind of value a placeholder stands for, written `\(placeholder: .int)`.
        public enum Placeholder: Sendable, Hashable {
            /// A whole number (`%lld`).
            case int
            /// An unsigned whole number (`%llu`).
            case uint
            /// A single-precision number (`%f`).
            case float
            /// A double-precision number (`%lf`).
            case double
            /// Any object or text (`%@`).
            case object

            /// The format specifier written into the key.
            public var formatSpecifier: String {
                switch self {
                case .int: "%lld"
                case .uint: "%llu"
                case .float: "%f"
                case .double: "%lf"
                case .object: "%@"
                }
            }
        }

        /// Collects the parts of an interpolated literal.
        public struct StringInterpolation: StringInterpolationProtocol, Sendable {
            var key = ""
            var resolved = ""

            /// Reserves room for the literal.
            public init(literalCapacity: Int, interpolationCount: Int) {
                key.reserveCapacity(literalCapacity + 4 * interpolationCount)
                resolved.reserveCapacity(literalCapacity + 8 * interpolationCount)
            }

            /// Literal text, kept as is (a `%` is doubled in the key, as a format string needs).
            public mutating func appendLiteral(_ literal: String) {
                key += literal.replacingOccurrences(of: "%", with: "%%")
                resolved += literal
            }

            /// A placeholder left for a count or value filled in later, such as `\(placeholder: .int)`;
            /// the text keeps the format specifier.
            public mutating func appendInterpolation(placeholder: Placeholder) {
                key += placeholder.formatSpecifier
                resolved += placeholder.formatSpecifier
            }

            /// A whole number.
            public mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) {
                key += Number.isSigned ? "%lld" : "%llu"
                resolved += String(value)
            }

            /// A real number.
            public mutating func appendInterpolation(_ value: Double) {
                key += "%lf"
                resolved += String(value)
            }

            /// A real number.
            public mutating func appendInterpolation(_ value: Float) {
                key += "%f"
                resolved += String(value)
            }

            /// Text.
            public mutating func appendInterpolation(_ value: String) {
                key += "%@"
                resolved += value
            }

            /// Text with its own localisation.
            public mutating func appendInterpolation(_ value: LocalizedStringResource) {
                key += "%@"
                resolved += value.defaultValue
            }

            /// Any other value, written as `String(describing:)` writes it.
            public mutating func appendInterpolation<Value>(_ value: Value) {
                key += "%@"
                resolved += String(describing: value)
            }
        }
    }

    /// The text of `resource` (this library does not translate: the resource's default value).
    public init(localized resource: LocalizedStringResource) {
        self = resource.defaultValue
    }

    /// The text of `value` with its interpolations in place.
    public init(localized value: LocalizationValue, table: String? = nil, comment: StaticString? = nil) {
        self = value.resolved
    }
}

/// A reference to a localisable string: App Intents' titles, dialogs and display representations.
///
/// The counterpart of Foundation's `LocalizedStringResource` on Apple platforms: created from a literal
/// (with interpolations), optionally naming a strings table and a translator's comment. Glimpse runs
/// without translations, so ``defaultValue`` (and `String(localized:)`) give the text as written.
public struct LocalizedStringResource: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The lookup key, with interpolations as format specifiers.
    public var key: String
    /// The text as written, with interpolated values in place.
    public var defaultValue: String
    /// The strings table a translation would come from; `nil` for the default table.
    public var table: String?
    /// The note for translators.
    public var comment: String?

    /// A resource for `keyAndValue`, looked up in `table`, with a note for translators.
    public init(_ keyAndValue: String.LocalizationValue, table: String? = nil, comment: StaticString? = nil) {
        key = keyAndValue.key
        defaultValue = keyAndValue.resolved
        self.table = table
        self.comment = comment.map { $0.description }
    }

    /// A resource whose key differs from its text.
    public init(_ key: StaticString, defaultValue: String.LocalizationValue, table: String? = nil,
                comment: StaticString? = nil) {
        self.key = key.description
        self.defaultValue = defaultValue.resolved
        self.table = table
        self.comment = comment.map { $0.description }
    }

    /// A literal without interpolations.
    public init(stringLiteral value: String) { self.init(String.LocalizationValue(value)) }

    /// A literal with interpolations.
    public init(stringInterpolation: String.LocalizationValue.StringInterpolation) {
        self.init(String.LocalizationValue(stringInterpolation: stringInterpolation))
    }

    /// The text as written.
    public var description: String { defaultValue }
}
