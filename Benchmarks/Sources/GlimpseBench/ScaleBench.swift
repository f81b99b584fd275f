import GlimpseBasics
public import GlimpseBatch
public import GlimpseIndex
import GlimpseIndexBenchmark

/// Measures how the cost of a catalog search grows with the number of references: the same queries
/// against synthetic catalogs of growing size, for each index type.
///
/// References and queries are clustered synthetic vectors (``SyntheticVectors``), which imitate image
/// features; queries come from an independent stream of the same distribution. The exact
/// ``FlatIndex`` gives the ground truth for the recall of the approximate ``HNSWIndex``.
public struct ScaleBench: Sendable {
    /// The index types measured.
    public enum IndexKind: String, Sendable, Hashable, CaseIterable {
        /// Exact linear scan.
        case flat
        /// Hierarchical navigable small-world graph.
        case hnsw
    }

    /// Catalog sizes, in references.
    public var sizes: [Int]
    /// Vector dimension.
    public var dimension: Int
    /// Distance metric.
    public var metric: DistanceMetric
    /// Queries per size and index.
    public var queries: Int
    /// Neighbours per query.
    public var k: Int
    /// Index types to measure.
    public var indexes: [IndexKind]
    /// Graph parameters for ``IndexKind/hnsw``.
    public var hnsw: HNSWParameters
    /// A graph build projected to take longer than this (from the rate of the previous size) is skipped.
    public var maxBuildSeconds: Double
    /// Fixes the synthetic data.
    public var seed: UInt64

    /// Creates a scale benchmark; the defaults run 10³ to 10⁶ references of 128 dimensions.
    public init(
        sizes: [Int] = [1_000, 10_000, 100_000, 1_000_000], dimension: Int = 128, metric: DistanceMetric = .cosine,
        queries: Int = 200, k: Int = 10, indexes: [IndexKind] = IndexKind.allCases,
        hnsw: HNSWParameters = HNSWParameters(buildThreads: MachineInfo.activeProcessorCount),
        maxBuildSeconds: Double = 300, seed: UInt64 = 2026
    ) {
        self.sizes = sizes
        self.dimension = dimension
        self.metric = metric
        self.queries = max(1, queries)
        self.k = max(1, k)
        self.indexes = indexes
        self.hnsw = hnsw
        self.maxBuildSeconds = maxBuildSeconds
        self.seed = seed
    }

    /// Runs every size and index type, smallest first, calling `progress` with a line before each step.
    ///
    /// - Throws: ``IndexError`` when the parameters are unusable.
    public func run(progress: (String) -> Void = { _ in }) throws(IndexError) -> [ScaleRow] {
        let clusters = max(16, dimension)
        let data = try SyntheticVectors(
            dimension: dimension, distribution: .clustered(clusters: clusters, spread: 0.35), seed: seed)
        let queryVectors = data.vectors(count: queries, stream: 99)
        var rows: [ScaleRow] = []
        var hnswSecondsPerReference: Double?
        let clock = ContinuousClock()
        for size in sizes.sorted() {
            progress("generating \(size) references of \(dimension) dimensions")
            var start = clock.now
            let flat = try FlatIndex(dimension: dimension, metric: metric, rowMajor: data.rowMajor(count: size, stream: 1))
            let flatBuild = (clock.now - start).seconds
            var truth: [[Neighbor]] = []
            if indexes.contains(.flat) || indexes.contains(.hnsw) {
                progress("flat index, \(size) references: \(queries) queries")
                let (latency, results) = try measure(flat, queryVectors)
                truth = results
                if indexes.contains(.flat) {
                    rows.append(ScaleRow(index: "flat", references: size, dimension: dimension, buildSeconds: flatBuild,
                                         recall: 1, latency: latency))
                }
            }
            guard indexes.contains(.hnsw) else { continue }
            let projected = hnswSecondsPerReference.map { $0 * Double(size) * logRatio(size) }
            if let projected, projected > maxBuildSeconds {
                rows.append(ScaleRow(
                    index: "hnsw", references: size, dimension: dimension,
                    skipped: "graph build projected at \(Int(projected)) s on \(hnsw.buildThreads) threads, "
                        + "over the \(Int(maxBuildSeconds)) s limit (raise --max-build-seconds to run it)"))
                continue
            }
            progress("hnsw index, \(size) references: building")
            start = clock.now
            let graph = try HNSWIndex(building: flat, parameters: hnsw)
            let build = (clock.now - start).seconds
            hnswSecondsPerReference = build / (Double(size) * logRatio(size))
            progress("hnsw index, \(size) references: \(queries) queries")
            let (latency, results) = try measure(graph, queryVectors)
            rows.append(ScaleRow(index: "hnsw", references: size, dimension: dimension, buildSeconds: build,
                                 recall: Neighbor.recall(of: results, against: truth), latency: latency))
        }
        return rows
    }

    /// A growth factor for build cost beyond linear: log₂ of the size, at least 1.
    private func logRatio(_ size: Int) -> Double {
        var bits = 0.0
        var n = max(2, size)
        while n > 1 {
            n >>= 1
            bits += 1
        }
        return bits
    }

    private func measure(_ index: some NearestNeighborIndex, _ queries: [[Float]]) throws(IndexError)
        -> (LatencyPercentiles, [[Neighbor]]) {
        var recorder = LatencyRecorder()
        var results: [[Neighbor]] = []
        results.reserveCapacity(queries.count)
        let clock = ContinuousClock()
        // One warm-up query so first-touch page faults are not measured.
        if let first = queries.first { _ = try index.search(first, k: k) }
        let start = clock.now
        for query in queries {
            let t0 = clock.now
            let found = try index.search(query, k: k)
            recorder.record(clock.now - t0)
            results.append(found)
        }
        return (recorder.summary(seconds: (clock.now - start).seconds), results)
    }
}
