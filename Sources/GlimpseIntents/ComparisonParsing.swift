import Foundation

extension QueryableProperties {
    /// Reads a comparison written as text and checks it against the declared properties.
    ///
    /// The syntax is `PROPERTY OPERATOR [VALUE]`, separated by spaces:
    /// - operators `==` (or `=`), `!=`, `contains`, `hasPrefix`, `hasSuffix`, `<`, `<=`, `>`, `>=`;
    /// - `PROPERTY between LOW and HIGH` (inclusive);
    /// - `PROPERTY isNil` (no value).
    ///
    /// The value is the rest of the text; surrounding single or double quotes are removed, so
    /// `name == 'Lake Bled'` and `name == Lake Bled` are the same. It is read as the property's type
    /// (`42`, `0.5`, `true`); for a string-list property it is one element.
    ///
    /// - Throws: ``EntityQueryError`` when the text cannot be read or does not fit the properties.
    public func comparison(parsing text: String) throws(EntityQueryError) -> EntityQueryComparison {
        let trimmed = Self.trim(text[...])
        let parts = trimmed.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2 else {
            throw .unparsableComparison(text: text, reason: "expected PROPERTY OPERATOR VALUE, such as 'kind == lake'")
        }
        let name = String(parts[0])
        guard let property = self[name] else {
            throw .unknownProperty(name: name, known: properties.map(\.name))
        }
        let symbol = parts[1] == "=" ? "==" : String(parts[1])
        guard let kind = PropertyComparator.Kind.allCases.first(where: { $0.symbol == symbol }) else {
            let known = PropertyComparator.Kind.allCases.map(\.symbol).joined(separator: " ")
            throw .unparsableComparison(text: text, reason: "unknown operator '\(parts[1])'; operators are \(known)")
        }
        let rest = parts.count > 2 ? Self.trim(parts[2]) : ""[...]
        let operands: [String]
        switch kind {
        case .isNil:
            guard rest.isEmpty else {
                throw .unparsableComparison(text: text, reason: "isNil takes no value")
            }
            operands = []
        case .isBetween:
            let (lowText, highText) = try Self.splitRange(rest, text: text)
            operands = [Self.unquote(lowText), Self.unquote(highText)]
        default:
            guard !rest.isEmpty || property.valueType == .string || property.valueType == .strings else {
                throw .unparsableComparison(text: text, reason: "'\(symbol)' needs a value")
            }
            operands = [Self.unquote(rest)]
        }
        return try comparison(property: name, kind: kind, operands: operands)
    }

    /// Builds a comparison from its parts, checked against the declared properties: no text syntax is
    /// involved, so an operand may hold any characters (quotes, ` and `, leading spaces).
    ///
    /// Each operand is read as the property's type (`"42"` for an int, `"0.5"` for a double, `"true"` /
    /// `"false"` for a bool; for a string-list property it is one element).
    ///
    /// - Parameters:
    ///   - name: the property's name.
    ///   - kind: the comparator.
    ///   - operands: none for ``PropertyComparator/Kind/isNil``, two (low, high) for
    ///     ``PropertyComparator/Kind/isBetween``, one for the others.
    /// - Throws: ``EntityQueryError`` when the parts do not fit the properties.
    public func comparison(
        property name: String, kind: PropertyComparator.Kind, operands: [String]
    ) throws(EntityQueryError) -> EntityQueryComparison {
        guard let property = self[name] else {
            throw .unknownProperty(name: name, known: properties.map(\.name))
        }
        let expected = kind == .isNil ? 0 : kind == .isBetween ? 2 : 1
        guard operands.count == expected else {
            throw .wrongOperandCount(property: name, comparator: kind, expected: expected, actual: operands.count)
        }
        var values: [EntityPropertyValue] = []
        for operand in operands { values.append(try Self.value(operand, for: property)) }
        let comparator: PropertyComparator = switch kind {
        case .isNil: .isNil
        case .isBetween: .isBetween(values[0], values[1])
        case .equalTo: .equalTo(values[0])
        case .notEqualTo: .notEqualTo(values[0])
        case .contains: .contains(values[0])
        case .hasPrefix: .hasPrefix(values[0])
        case .hasSuffix: .hasSuffix(values[0])
        case .lessThan: .lessThan(values[0])
        case .lessThanOrEqualTo: .lessThanOrEqualTo(values[0])
        case .greaterThan: .greaterThan(values[0])
        case .greaterThanOrEqualTo: .greaterThanOrEqualTo(values[0])
        }
        let comparison = EntityQueryComparison(name, comparator)
        try validate(comparison)
        return comparison
    }

    private static func trim(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }

    private static func unquote(_ text: Substring) -> String {
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        return String(text)
    }

    /// Splits `LOW and HIGH`, honouring quotes around LOW.
    private static func splitRange(_ rest: Substring, text: String) throws(EntityQueryError) -> (Substring, Substring) {
        var searchStart = rest.startIndex
        if let first = rest.first, first == "'" || first == "\"",
           let close = rest.dropFirst().firstIndex(of: first) {
            searchStart = close
        }
        guard let separator = rest[searchStart...].range(of: " and ") else {
            throw .unparsableComparison(text: text, reason: "expected 'between LOW and HIGH'")
        }
        return (trim(rest[..<separator.lowerBound]), trim(rest[separator.upperBound...]))
    }

    private static func value(
        _ literal: String, for property: QueryableProperty<Entity>
    ) throws(EntityQueryError) -> EntityPropertyValue {
        switch property.valueType {
        case .string, .strings:
            return .string(literal)
        case .int:
            guard let value = Int(literal) else {
                throw .wrongValueType(property: property.name, expected: .int, actual: "'\(literal)'")
            }
            return .int(value)
        case .double:
            guard let value = Double(literal), value.isFinite else {
                throw .wrongValueType(property: property.name, expected: .double, actual: "'\(literal)'")
            }
            return .double(value)
        case .bool:
            switch literal.lowercased() {
            case "true", "yes": return .bool(true)
            case "false", "no": return .bool(false)
            default: throw .wrongValueType(property: property.name, expected: .bool, actual: "'\(literal)'")
            }
        }
    }
}

extension PropertySort {
    /// Reads a sort key written as `name` (ascending), `+name` (ascending) or `-name` (descending).
    public init(parsing text: String) {
        if text.hasPrefix("-") {
            self.init(by: String(text.dropFirst()), order: .descending)
        } else if text.hasPrefix("+") {
            self.init(by: String(text.dropFirst()), order: .ascending)
        } else {
            self.init(by: text, order: .ascending)
        }
    }
}
