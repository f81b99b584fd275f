public import GlimpseBasics

/// What ``IndexBenchmark/run(_:progress:)`` measures: the data set, the queries and the HNSW settings.
public struct IndexBenchmarkConfiguration: Sendable, Hashable, Codable {
    /// The number of indexed vectors.
    public var count: Int
    /// Their dimension.
    public var dimension: Int
    /// The number of queries (drawn from the same distribution, not from the indexed set).
    public var queries: Int
    /// Neighbours per query.
    public var k: Int
    /// Cluster centres of the synthetic data.
    public var clusters: Int
    /// Gaussian spread of points around their centre.
    public var spread: Float
    /// Seed of the synthetic data.
    public var seed: UInt64
    /// The HNSW parameters; `efSearch` is ignored in favour of ``efSearchValues``.
    public var hnswMaxLinks: Int
    /// The HNSW insertion candidate-list size.
    public var hnswEfConstruction: Int
    /// Threads for the HNSW build (searches always run on one thread).
    public var buildThreads: Int
    /// The search candidate-list sizes to measure, each giving one latency and recall row.
    public var efSearchValues: [Int]
    /// Whether to build and measure HNSW at all.
    public var measureHNSW: Bool
    /// A directory where index files are saved and loaded back to time them; `nil` skips that.
    public var fileDirectory: String?

    /// Creates a configuration; defaults are the bar: clustered 256-d data, k = 10.
    public init(
        count: Int = 100_000, dimension: Int = 256, queries: Int = 1000, k: Int = 10, clusters: Int = 1000,
        spread: Float = 0.3, seed: UInt64 = 42, hnswMaxLinks: Int = 16, hnswEfConstruction: Int = 200,
        buildThreads: Int = 1, efSearchValues: [Int] = [32, 64, 128, 256], measureHNSW: Bool = true,
        fileDirectory: String? = nil
    ) {
        self.count = count
        self.dimension = dimension
        self.queries = queries
        self.k = k
        self.clusters = clusters
        self.spread = spread
        self.seed = seed
        self.hnswMaxLinks = hnswMaxLinks
        self.hnswEfConstruction = hnswEfConstruction
        self.buildThreads = buildThreads
        self.efSearchValues = efSearchValues
        self.measureHNSW = measureHNSW
        self.fileDirectory = fileDirectory
    }
}

/// The results of one benchmark run.
public struct IndexBenchmarkReport: Sendable, Codable {
    /// One timed search method: its latency and its recall against the exact scan.
    public struct SearchRow: Sendable, Codable {
        /// The method, such as `hnsw` or `int8-flat`.
        public var method: String
        /// The HNSW candidate-list size, or `nil` for scans.
        public var efSearch: Int?
        /// Per-query wall-clock latency on one thread.
        @MillisecondKeys public var latency: LatencySummary
        /// Per-query CPU time of the searching thread: the latency without time spent descheduled.
        @MillisecondKeys public var cpu: LatencySummary
        /// Mean recall@k against the exact float scan.
        public var recall: Double
    }

    /// Save and load of one index file.
    public struct FileRow: Sendable, Codable {
        /// The index kind saved.
        public var kind: String
        /// The file size in bytes.
        public var bytes: Int
        /// Seconds to encode and save it (temporary file, fsync, rename, directory fsync).
        public var saveSeconds: Double
        /// Seconds to read it back, validate the checksum and decode it.
        public var loadSeconds: Double
    }

    /// What was measured.
    public var configuration: IndexBenchmarkConfiguration
    /// Seconds to generate the synthetic data.
    public var generateSeconds: Double
    /// Bytes scanned by one exact query: `count × dimension × 4`.
    public var scanBytes: Int
    /// Per-query wall-clock latency of the exact float scan on one thread.
    @MillisecondKeys public var exactScan: LatencySummary
    /// Per-query CPU time of the exact scan's thread.
    @MillisecondKeys public var exactScanCPU: LatencySummary
    /// The memory-read bandwidth of a plain read loop over the same vectors, in the same run.
    public var measuredBandwidth: MemoryBandwidth.Measurement
    /// The reference bandwidth the bar is stated against, GB/s.
    public var referenceBandwidthGBps: Double
    /// Mean exact-scan wall time ÷ the time to read `scanBytes` at the reference bandwidth (the bar: ≤ 1.3).
    public var exactScanVersusReferenceFloor: Double
    /// Mean exact-scan wall time ÷ the time to read `scanBytes` at the measured wall-clock bandwidth.
    public var exactScanVersusMeasuredFloor: Double
    /// Mean exact-scan CPU time ÷ the time to read `scanBytes` at the reference bandwidth.
    public var exactScanCPUVersusReferenceFloor: Double
    /// Mean exact-scan CPU time ÷ the time to read `scanBytes` at the measured CPU-time bandwidth.
    public var exactScanCPUVersusMeasuredFloor: Double
    /// Bytes held by the int8 index's codes.
    public var int8MemoryBytes: Int
    /// Seconds to build the HNSW graph, or `nil` when not measured.
    public var hnswBuildSeconds: Double?
    /// CPU seconds of all build threads together, or `nil` when not measured.
    public var hnswBuildCPUSeconds: Double?
    /// Bytes held by the HNSW graph and its vectors.
    public var hnswMemoryBytes: Int?
    /// The number of HNSW levels.
    public var hnswLevels: Int?
    /// The int8 scan and one HNSW row per `efSearch` value.
    public var searches: [SearchRow]
    /// Index file save and load, when a directory was given.
    public var files: [FileRow]
}

/// Spells a ``LatencySummary`` in `glimpse-index-bench`'s JSON with the keys that report has always
/// used: `meanMilliseconds`, `p50Milliseconds`, `p99Milliseconds` and `maxMilliseconds`.
@propertyWrapper
public struct MillisecondKeys: Sendable, Codable {
    /// The summary.
    public var wrappedValue: LatencySummary

    /// Wraps `wrappedValue`.
    public init(wrappedValue: LatencySummary) {
        self.wrappedValue = wrappedValue
    }

    private enum CodingKeys: String, CodingKey {
        case mean = "meanMilliseconds", p50 = "p50Milliseconds", p99 = "p99Milliseconds", max = "maxMilliseconds"
    }

    /// Decodes the four keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        wrappedValue = LatencySummary(
            p50: try container.decode(Double.self, forKey: .p50), p99: try container.decode(Double.self, forKey: .p99),
            mean: try container.decode(Double.self, forKey: .mean), max: try container.decode(Double.self, forKey: .max))
    }

    /// Encodes the four keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(wrappedValue.mean, forKey: .mean)
        try container.encode(wrappedValue.p50, forKey: .p50)
        try container.encode(wrappedValue.p99, forKey: .p99)
        try container.encode(wrappedValue.max, forKey: .max)
    }
}
