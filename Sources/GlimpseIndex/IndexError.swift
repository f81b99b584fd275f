/// Why an index refused a vector, a query or a parameter.
public enum IndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The requested dimension is zero, negative or larger than ``IndexLimits/maximumDimension``.
    case invalidDimension(Int)
    /// A vector or query has `actual` components but the index holds vectors of `expected`.
    case dimensionMismatch(expected: Int, actual: Int)
    /// A vector or query has a NaN or infinite component at `component`.
    case nonFiniteComponent(component: Int)
    /// `k` is negative.
    case invalidK(Int)
    /// An id was given twice to the same index.
    case duplicateID(Int)
    /// An id was asked for that the index does not hold.
    case unknownID(Int)
    /// A construction parameter is out of range; `reason` says which values are accepted.
    case invalidParameter(name: String, value: Int, reason: String)
    /// The index would hold more than ``IndexLimits/maximumCount`` vectors.
    case tooManyVectors(Int)

    /// A sentence that says what was wrong and what to pass instead.
    public var description: String {
        switch self {
        case let .invalidDimension(dimension):
            "dimension \(dimension) is not usable; pass a dimension from 1 to \(IndexLimits.maximumDimension)"
        case let .dimensionMismatch(expected, actual):
            "vector has \(actual) components but the index holds \(expected)-dimensional vectors; "
                + "pass vectors made by the same feature extractor as the index"
        case let .nonFiniteComponent(component):
            "component \(component) is NaN or infinite; only finite values can be indexed or queried"
        case let .invalidK(k):
            "k = \(k) is negative; ask for 0 or more neighbours"
        case let .duplicateID(id):
            "id \(id) is already in the index; give every vector its own id"
        case let .unknownID(id):
            "id \(id) is not in the index"
        case let .invalidParameter(name, value, reason):
            "\(name) = \(value) is out of range: \(reason)"
        case let .tooManyVectors(count):
            "\(count) vectors exceed the index limit of \(IndexLimits.maximumCount); split the set"
        }
    }
}

/// Hard limits every index enforces, so that sizes computed from them never overflow.
public enum IndexLimits {
    /// The largest vector dimension an index accepts.
    public static let maximumDimension = 65_536
    /// The largest number of vectors one index holds (graph links are stored as 32-bit positions).
    public static let maximumCount = Int(UInt32.max - 1)
}
