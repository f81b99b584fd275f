/// A JSON list longer than its field allows, found while decoding: thrown before any of its entries is
/// decoded, so a body of millions of entries costs a scan, not millions of values.
public struct BoundedList: Error, Sendable, Equatable {
    /// The field's name.
    public var field: String
    /// How many entries the list has (as far as counted, when the decoder cannot tell in advance).
    public var count: Int
    /// The most it may have.
    public var limit: Int

    /// Creates the error.
    public init(field: String, count: Int, limit: Int) {
        self.field = field
        self.count = count
        self.limit = limit
    }

    /// A sentence saying which list is too long and what to do.
    public var sentence: String { "'\(field)' has \(count) entries; send at most \(limit)" }
}

extension KeyedDecodingContainer {
    /// The list at `key` when present and not `null`, refused with ``BoundedList`` when it holds more than
    /// `limit` entries: counted before any entry is decoded where the decoder knows the count (as
    /// `JSONDecoder` does), else as soon as entry `limit + 1` is reached.
    public func decodeList<Element: Decodable>(
        _ type: Element.Type, forKey key: Key, limit: Int
    ) throws -> [Element]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        var list = try nestedUnkeyedContainer(forKey: key)
        if let count = list.count, count > limit {
            throw BoundedList(field: key.stringValue, count: count, limit: limit)
        }
        var elements: [Element] = []
        elements.reserveCapacity(min(list.count ?? 0, limit))
        while !list.isAtEnd {
            guard elements.count < limit else {
                throw BoundedList(field: key.stringValue, count: elements.count + 1, limit: limit)
            }
            elements.append(try list.decode(Element.self))
        }
        return elements
    }
}
