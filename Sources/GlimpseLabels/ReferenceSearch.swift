import Foundation
public import GlimpseIndex

/// How a ``LabelModel`` finds the reference rows nearest to a picture's.
public enum ReferenceSearch: Sendable, Hashable {
    /// Every reference row is compared (``FlatIndex``): exact, and fast enough up to about
    /// ``approximateFromRows`` rows (2.3 ms a query row at 50,000 rows of 259 values on one core).
    case exact
    /// An HNSW graph over the reference rows (``HNSWIndex``), built when the model is assembled:
    /// approximate and sub-linear, for large reference sets.
    case approximate(HNSWParameters)
    /// ``exact`` below ``approximateFromRows`` reference rows, ``approximate(_:)`` with default
    /// parameters (built on every core) from there.
    case automatic

    /// The number of reference rows from which ``automatic`` uses the approximate index.
    public static let approximateFromRows = 100_000

    /// ``exact`` or ``approximate(_:)``: what this choice means for `rows` reference rows.
    public func resolved(rows: Int) -> ReferenceSearch {
        guard case .automatic = self else { return self }
        return rows < Self.approximateFromRows
            ? .exact
            : .approximate(HNSWParameters(buildThreads: max(1, ProcessInfo.processInfo.activeProcessorCount)))
    }

    /// Builds the index over `vectors` (rows of `dimension` values) that this choice asks for.
    func makeIndex(dimension: Int, vectors: [Float]) throws(IndexError) -> any NearestNeighborIndex {
        let flat = try FlatIndex(dimension: dimension, metric: .squaredEuclidean, rowMajor: vectors)
        switch resolved(rows: flat.count) {
        case .approximate(let parameters):
            return try HNSWIndex(building: flat, parameters: parameters)
        case .exact, .automatic:
            return flat
        }
    }
}
