/// An index of fixed-dimension vectors that answers k-nearest-neighbour queries.
///
/// Every index returns results nearest first, with equal distances ordered by ascending id, so an
/// approximate index can be compared entry by entry with the exact ``FlatIndex``.
public protocol NearestNeighborIndex: Sendable {
    /// The number of components of every stored vector and every query.
    var dimension: Int { get }
    /// The number of vectors a search can return.
    var count: Int { get }
    /// How distances are measured.
    var metric: DistanceMetric { get }

    /// The `k` stored vectors nearest to `query`, nearest first, ties by ascending id.
    ///
    /// Returns fewer than `k` results when the index holds fewer vectors; `k = 0` returns none.
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component, or `k < 0`.
    func search(_ query: UnsafeBufferPointer<Float>, k: Int) throws(IndexError) -> [Neighbor]
}

extension NearestNeighborIndex {
    /// The `k` stored vectors nearest to `query`, nearest first, ties by ascending id.
    ///
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component, or `k < 0`.
    public func search(_ query: [Float], k: Int) throws(IndexError) -> [Neighbor] {
        try query.withUnsafeBufferPointer { (buffer) throws(IndexError) -> [Neighbor] in
            try search(buffer, k: k)
        }
    }
}
