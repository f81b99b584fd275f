#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Creates a configuration; defaults are the bar: clustered 256-d data, k = 10.
    public init(
        count: Int = 100_000, dimension: Int = 256, queries: Int = 1000, k: Int = 10, clusters: Int = 1000,
        spread: Float = 0.3, seed: UInt64 = 42, hnswMaxLinks: Int = 16, hnswEfConstruction: Int = 200,
        buildThreads: Int = 1, efSearchValues: [Int] = [32, 64, 128, 256], measureHNSW: Bool = true
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
    }
}

/// Latency percentiles of a set of timed operations, in milliseconds.
public struct LatencySummary: Sendable, Hashable, Codable {
    /// The mean.
    public var meanMilliseconds: Double
    /// The median.
    public var p50Milliseconds: Double
    /// The 99th percentile (nearest rank).
    public var p99Milliseconds: Double
    /// The slowest.
    public var maxMilliseconds: Double

    /// Summarises `samples` (seconds each); all zero when empty.
    public init(seconds samples: [Double]) {
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))
            return sorted[index] * 1000
        }
        meanMilliseconds = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count) * 1000
        p50Milliseconds = rank(0.5)
        p99Milliseconds = rank(0.99)
        maxMilliseconds = (sorted.last ?? 0) * 1000
    }
}

/// The results of one benchmark run.
public struct IndexBenchmarkReport: Sendable, Codable {
    /// One HNSW search setting: its latency and its recall against the exact scan.
    public struct HNSWSearchRow: Sendable, Codable {
        /// The candidate-list size.
        public var efSearch: Int
        /// Per-query wall-clock latency on one thread.
        public var latency: LatencySummary
        /// Per-query CPU time of the searching thread: the latency without time spent descheduled.
        public var cpu: LatencySummary
        /// Mean recall@k against the exact scan.
        public var recall: Double
    }

    /// What was measured.
    public var configuration: IndexBenchmarkConfiguration
    /// Seconds to generate the synthetic data.
    public var generateSeconds: Double
    /// Bytes scanned by one exact query: `count × dimension × 4`.
    public var scanBytes: Int
    /// Per-query wall-clock latency of the exact scan on one thread.
    public var exactScan: LatencySummary
    /// Per-query CPU time of the exact scan's thread.
    public var exactScanCPU: LatencySummary
    /// The memory-read bandwidth measured in the same run over the same vectors, GB/s (10⁹ bytes).
    public var measuredBandwidthGBps: Double
    /// The reference bandwidth the bar is stated against, GB/s.
    public var referenceBandwidthGBps: Double
    /// Mean exact-scan time ÷ `scanBytes` at the reference bandwidth (the bar: ≤ 1.3).
    public var exactScanVersusReferenceFloor: Double
    /// Mean exact-scan time ÷ `scanBytes` at the measured bandwidth.
    public var exactScanVersusMeasuredFloor: Double
    /// Seconds to build the HNSW graph, or `nil` when not measured.
    public var hnswBuildSeconds: Double?
    /// Bytes held by the HNSW graph and its vectors.
    public var hnswMemoryBytes: Int?
    /// The number of HNSW levels.
    public var hnswLevels: Int?
    /// One row per `efSearch` value.
    public var hnswSearches: [HNSWSearchRow]
}

/// The index benchmark: synthetic clustered data, exact-scan time against the memory-bandwidth floor,
/// HNSW build time, memory, latency and recall. Shared by `glimpse-index-bench` and the CLI.
public enum IndexBenchmark {
    /// The bandwidth the exact-scan bar is stated against, GB/s.
    public static let referenceBandwidthGBps = 14.0

    /// Runs the benchmark on the calling thread (the HNSW build may use more, see the configuration).
    ///
    /// - Parameter progress: called with a line of text as each stage finishes.
    /// - Throws: ``IndexError`` when the configuration is unusable.
    public static func run(
        _ configuration: IndexBenchmarkConfiguration, progress: (String) -> Void = { _ in }
    ) throws(IndexError) -> IndexBenchmarkReport {
        let clock = ContinuousClock()
        let c = configuration
        guard c.count >= 1 else {
            throw .invalidParameter(name: "count", value: c.count, reason: "index at least 1 vector")
        }
        guard c.queries >= 1 else {
            throw .invalidParameter(name: "queries", value: c.queries, reason: "run at least 1 query")
        }
        var start = clock.now
        let data = try SyntheticVectors(
            dimension: c.dimension, distribution: .clustered(clusters: c.clusters, spread: c.spread), seed: c.seed)
        let flat = try FlatIndex(dimension: c.dimension, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: c.count))
        let queries = data.rowMajor(count: c.queries, stream: 1)
        let generateSeconds = seconds(clock.now - start)
        progress("generated \(c.count)×\(c.dimension) vectors and \(c.queries) queries in \(format(generateSeconds)) s")

        let bandwidth = MemoryBandwidth.measureReadGBps(flat.vectors, repetitions: 5)
        progress("memory-read bandwidth over the vectors: \(format(bandwidth)) GB/s")

        var truth: [[Neighbor]] = []
        var exactTimes: [Double] = []
        var exactCPU: [Double] = []
        try queries.withUnsafeBufferPointer { (all) throws(IndexError) in
            for q in 0..<c.queries {
                let query = UnsafeBufferPointer(rebasing: all[(q * c.dimension)..<((q + 1) * c.dimension)])
                let cpuStart = threadCPUSeconds()
                start = clock.now
                let found = try flat.search(query, k: c.k)
                exactTimes.append(seconds(clock.now - start))
                exactCPU.append(threadCPUSeconds() - cpuStart)
                truth.append(found)
            }
        }
        let exact = LatencySummary(seconds: exactTimes)
        let scanBytes = c.count * c.dimension * 4
        let referenceFloor = Double(scanBytes) / (referenceBandwidthGBps * 1e9) * 1000
        let measuredFloor = Double(scanBytes) / (bandwidth * 1e9) * 1000
        progress(
            "exact scan: mean \(format(exact.meanMilliseconds)) ms, p50 \(format(exact.p50Milliseconds)) ms, "
                + "thread CPU mean \(format(LatencySummary(seconds: exactCPU).meanMilliseconds)) ms; "
                + "floor \(format(referenceFloor)) ms at \(referenceBandwidthGBps) GB/s, "
                + "\(format(measuredFloor)) ms at measured")
        var report = IndexBenchmarkReport(
            configuration: c, generateSeconds: generateSeconds, scanBytes: scanBytes, exactScan: exact,
            exactScanCPU: LatencySummary(seconds: exactCPU),
            measuredBandwidthGBps: bandwidth, referenceBandwidthGBps: referenceBandwidthGBps,
            exactScanVersusReferenceFloor: exact.meanMilliseconds / referenceFloor,
            exactScanVersusMeasuredFloor: exact.meanMilliseconds / measuredFloor,
            hnswBuildSeconds: nil, hnswMemoryBytes: nil, hnswLevels: nil, hnswSearches: [])
        guard c.measureHNSW else { return report }

        let parameters = HNSWParameters(
            maxLinks: c.hnswMaxLinks, efConstruction: c.hnswEfConstruction, efSearch: c.efSearchValues.first ?? 64,
            seed: c.seed, buildThreads: c.buildThreads)
        start = clock.now
        let hnsw = try HNSWIndex(building: flat, parameters: parameters)
        let buildSeconds = seconds(clock.now - start)
        report.hnswBuildSeconds = buildSeconds
        report.hnswMemoryBytes = hnsw.memoryBytes
        report.hnswLevels = hnsw.levelCount
        progress(
            "HNSW build (M \(c.hnswMaxLinks), efConstruction \(c.hnswEfConstruction), \(c.buildThreads) threads): "
                + "\(format(buildSeconds)) s, \(hnsw.memoryBytes / 1_048_576) MiB, \(hnsw.levelCount) levels")
        for ef in c.efSearchValues {
            var times: [Double] = []
            var cpuTimes: [Double] = []
            var hits = 0
            var total = 0
            try queries.withUnsafeBufferPointer { (all) throws(IndexError) in
                for q in 0..<c.queries {
                    let query = UnsafeBufferPointer(rebasing: all[(q * c.dimension)..<((q + 1) * c.dimension)])
                    let cpuStart = threadCPUSeconds()
                    start = clock.now
                    let found = try hnsw.search(query, k: c.k, efSearch: ef)
                    times.append(seconds(clock.now - start))
                    cpuTimes.append(threadCPUSeconds() - cpuStart)
                    let expected = Set(truth[q].map(\.id))
                    hits += found.filter { expected.contains($0.id) }.count
                    total += expected.count
                }
            }
            let row = IndexBenchmarkReport.HNSWSearchRow(
                efSearch: ef, latency: LatencySummary(seconds: times), cpu: LatencySummary(seconds: cpuTimes),
                recall: Double(hits) / Double(max(1, total)))
            report.hnswSearches.append(row)
            progress(
                "HNSW efSearch \(ef): p50 \(format(row.latency.p50Milliseconds)) ms, "
                    + "p99 \(format(row.latency.p99Milliseconds)) ms (thread CPU p50 \(format(row.cpu.p50Milliseconds)), "
                    + "p99 \(format(row.cpu.p99Milliseconds))), recall@\(c.k) \(format(row.recall))")
        }
        return report
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// CPU seconds used by the calling thread so far.
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec) == 0 else { return 0 }
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    private static func format(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return "\(scaled)"
    }
}

/// A plain memory-read loop: the bandwidth a single thread gets streaming through an array.
public enum MemoryBandwidth {
    /// Reads every float of `values` `repetitions` times and returns the best rate in GB/s (10⁹ bytes).
    ///
    /// The loop only adds the values up (16 lanes, 4 accumulators), so it is bound by memory, not compute.
    public static func measureReadGBps(_ values: [Float], repetitions: Int) -> Double {
        let clock = ContinuousClock()
        var best = Double.infinity
        var sink: Float = 0
        for _ in 0..<max(1, repetitions) {
            let start = clock.now
            sink += values.withUnsafeBufferPointer { sumAll($0) }
            let elapsed = clock.now - start
            let parts = elapsed.components
            best = min(best, Double(parts.seconds) + Double(parts.attoseconds) * 1e-18)
        }
        // Keeps the sum alive so the loop is not optimised away.
        if sink == .infinity { best += 1e-12 }
        return Double(values.count * 4) / max(best, 1e-12) / 1e9
    }

    private static func sumAll(_ buffer: UnsafeBufferPointer<Float>) -> Float {
        guard let base = buffer.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var a0 = SIMD16<Float>(), a1 = SIMD16<Float>(), a2 = SIMD16<Float>(), a3 = SIMD16<Float>()
        var i = 0
        let n = buffer.count
        // safe because i + 64 <= n: all four loads stay inside the buffer.
        while i + 64 <= n {
            a0 += raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD16<Float>.self)
            a1 += raw.loadUnaligned(fromByteOffset: (i &+ 16) &* 4, as: SIMD16<Float>.self)
            a2 += raw.loadUnaligned(fromByteOffset: (i &+ 32) &* 4, as: SIMD16<Float>.self)
            a3 += raw.loadUnaligned(fromByteOffset: (i &+ 48) &* 4, as: SIMD16<Float>.self)
            i &+= 64
        }
        var sum = (a0 + a1 + a2 + a3).sum()
        while i < n {
            sum += buffer[i]
            i &+= 1
        }
        return sum
    }
}
