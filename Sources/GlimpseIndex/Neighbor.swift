/// One search result: a stored vector's identifier and its distance to the query.
///
/// Results are ordered nearest first; equal distances are ordered by ascending ``id``.
public struct Neighbor: Sendable, Hashable, CustomStringConvertible {
    /// The identifier of the stored vector: its insertion position, or the id the caller gave when adding it.
    public let id: Int
    /// The distance to the query under the index's ``DistanceMetric`` (smaller is nearer).
    public let distance: Float

    /// Creates a result for the stored vector `id` at `distance` from the query.
    public init(id: Int, distance: Float) {
        self.id = id
        self.distance = distance
    }

    /// `id@distance`, for logs and test failures.
    public var description: String { "\(id)@\(distance)" }

    /// Whether `self` ranks before `other`: smaller distance first, then smaller id.
    @inlinable
    public func ranks(before other: Neighbor) -> Bool {
        distance < other.distance || (distance == other.distance && id < other.id)
    }
}

/// How an index measures the distance between two vectors; smaller is always nearer.
public enum DistanceMetric: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The squared Euclidean distance `Σ (aᵢ − bᵢ)²`.
    case squaredEuclidean = 0
    /// The cosine distance `1 − cos(a, b)`, in `0...2`. Vectors are normalised to unit length when added
    /// and when queried; an all-zero vector stays zero and is at distance 1 from everything.
    case cosine = 1
    /// The negated inner product `−Σ aᵢ bᵢ`, so that the largest inner product is nearest.
    case innerProduct = 2

    /// The lowercase name used in command-line and JSON output, such as `cosine`.
    public var description: String {
        switch self {
        case .squaredEuclidean: "squared-euclidean"
        case .cosine: "cosine"
        case .innerProduct: "inner-product"
        }
    }
}
