// The body of `POST /v1/entities/{type}/query`: an `EntityPropertyQuery` as JSON (docs/api.md).

/// One property comparison in `POST /v1/entities/{type}/query`.
public struct ComparatorJSON: Codable, Sendable, Equatable {
    /// The property name, such as `kind` or `continent`.
    public var property: String
    /// The comparison, such as `equalTo`, `notEqualTo`, `contains`, `hasPrefix`, `isBetween`, `isNil`.
    public var comparator: String
    /// The value compared against (the lower bound for `isBetween`; absent for `isNil`): a string, or a
    /// number or boolean for properties of those types.
    public var value: JSONValue?
    /// The upper bound of `isBetween`.
    public var upperValue: JSONValue?

    /// Creates a comparison.
    public init(property: String, comparator: String, value: JSONValue? = nil, upperValue: JSONValue? = nil) {
        self.property = property
        self.comparator = comparator
        self.value = value
        self.upperValue = upperValue
    }
}

/// One sort key in `POST /v1/entities/{type}/query`.
public struct SortJSON: Codable, Sendable, Equatable {
    /// The property to sort by.
    public var property: String
    /// `ascending` (default) or `descending`.
    public var order: String?

    /// Creates a sort key.
    public init(property: String, order: String? = nil) {
        self.property = property
        self.order = order
    }
}

/// The body of `POST /v1/entities/{type}/query`.
public struct PropertyQueryJSON: Codable, Sendable, Equatable {
    /// The comparisons; an empty list matches everything.
    public var comparators: [ComparatorJSON]
    /// `all` (every comparison must hold, the default) or `any`.
    public var mode: String?
    /// Sort keys, applied in order.
    public var sort: [SortJSON]?
    /// The most entities to return.
    public var limit: Int?

    /// Creates a property query.
    public init(comparators: [ComparatorJSON], mode: String? = nil, sort: [SortJSON]? = nil, limit: Int? = nil) {
        self.comparators = comparators
        self.mode = mode
        self.sort = sort
        self.limit = limit
    }
}
