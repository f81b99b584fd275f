import GlimpseBasics
import GlimpseFiles
import GlimpseIndex

/// The index benchmark: synthetic clustered data, exact-scan time against the memory-bandwidth floor,
/// the int8 scan, HNSW build time, memory, latency and recall, and index file save and load.
/// Behind `glimpse-index-bench`.
public enum IndexBenchmark {
    /// The bandwidth the exact-scan bar is stated against, GB/s.
    public static let referenceBandwidthGBps = 14.0

    /// Runs the benchmark on the calling thread (the HNSW build may use more, see the configuration).
    ///
    /// - Parameter progress: called with a line of text as each stage finishes.
    /// - Throws: ``IndexError`` when the configuration is unusable, or ``IndexFileError`` when a file fails.
    public static func run(
        _ configuration: IndexBenchmarkConfiguration, progress: (String) -> Void = { _ in }
    ) throws -> IndexBenchmarkReport {
        let c = configuration
        guard c.count >= 1 else {
            throw IndexError.invalidParameter(name: "count", value: c.count, reason: "index at least 1 vector")
        }
        guard c.queries >= 1 else {
            throw IndexError.invalidParameter(name: "queries", value: c.queries, reason: "run at least 1 query")
        }
        let clock = ContinuousClock()
        var start = clock.now
        let data = try SyntheticVectors(
            dimension: c.dimension, distribution: .clustered(clusters: c.clusters, spread: c.spread), seed: c.seed)
        let flat = try FlatIndex(dimension: c.dimension, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: c.count))
        let queries = data.vectors(count: c.queries, stream: 1)
        let generateSeconds = (clock.now - start).seconds
        progress("generated \(c.count)×\(c.dimension) vectors and \(c.queries) queries in \(format(generateSeconds)) s")

        let bandwidth = MemoryBandwidth.measure(flat.vectors, repetitions: 5)
        progress(
            "memory-read loop over the vectors: \(format(bandwidth.wallGBps)) GB/s wall, "
                + "\(format(bandwidth.cpuGBps)) GB/s by thread CPU time")

        let exact = try timeSearches(queries) { (q) throws(IndexError) in try flat.search(q, k: c.k) }
        let truth = exact.results
        let scanBytes = c.count * c.dimension * 4
        func floor(_ gbps: Double) -> Double { Double(scanBytes) / (gbps * 1e9) * 1000 }
        let exactWall = LatencySummary(seconds: exact.wall)
        let exactCPU = LatencySummary(seconds: exact.cpu)
        progress(
            "exact scan: wall mean \(format(exactWall.mean)) ms, CPU mean \(format(exactCPU.mean)) ms; "
                + "floor \(format(floor(referenceBandwidthGBps))) ms at \(referenceBandwidthGBps) GB/s, "
                + "\(format(floor(bandwidth.wallGBps))) ms at measured wall, \(format(floor(bandwidth.cpuGBps))) ms at measured CPU")

        let int8 = Int8FlatIndex(quantizing: flat)
        let int8Timing = try timeSearches(queries) { (q) throws(IndexError) in try int8.search(q, k: c.k) }
        let int8Row = IndexBenchmarkReport.SearchRow(
            method: "int8-flat", efSearch: nil, latency: LatencySummary(seconds: int8Timing.wall),
            cpu: LatencySummary(seconds: int8Timing.cpu), recall: Neighbor.recall(of: int8Timing.results, against: truth))
        progress(
            "int8 scan: wall mean \(format(int8Row.latency.mean)) ms, CPU mean "
                + "\(format(int8Row.cpu.mean)) ms, recall@\(c.k) \(format(int8Row.recall))")

        var report = IndexBenchmarkReport(
            configuration: c, generateSeconds: generateSeconds, scanBytes: scanBytes, exactScan: exactWall,
            exactScanCPU: exactCPU, measuredBandwidth: bandwidth, referenceBandwidthGBps: referenceBandwidthGBps,
            exactScanVersusReferenceFloor: exactWall.mean / floor(referenceBandwidthGBps),
            exactScanVersusMeasuredFloor: exactWall.mean / floor(bandwidth.wallGBps),
            exactScanCPUVersusReferenceFloor: exactCPU.mean / floor(referenceBandwidthGBps),
            exactScanCPUVersusMeasuredFloor: exactCPU.mean / floor(bandwidth.cpuGBps),
            int8MemoryBytes: int8.memoryBytes, hnswBuildSeconds: nil, hnswBuildCPUSeconds: nil, hnswMemoryBytes: nil, hnswLevels: nil,
            searches: [int8Row], files: [])
        if let directory = c.fileDirectory {
            report.files.append(try timeFile(kind: "flat", directory: directory, progress: progress) { (path) throws(IndexFileError) in
                try IndexFile.save(flat, to: path)
            })
        }
        guard c.measureHNSW else { return report }

        let parameters = HNSWParameters(
            maxLinks: c.hnswMaxLinks, efConstruction: c.hnswEfConstruction, efSearch: c.efSearchValues.first ?? 64,
            seed: c.seed, buildThreads: c.buildThreads)
        let buildCPUStart = MemoryBandwidth.processCPUSeconds()
        start = clock.now
        let hnsw = try HNSWIndex(building: flat, parameters: parameters)
        let buildSeconds = (clock.now - start).seconds
        let buildCPUSeconds = MemoryBandwidth.processCPUSeconds() - buildCPUStart
        report.hnswBuildSeconds = buildSeconds
        report.hnswBuildCPUSeconds = buildCPUSeconds
        report.hnswMemoryBytes = hnsw.memoryBytes
        report.hnswLevels = hnsw.levelCount
        progress(
            "HNSW build (M \(c.hnswMaxLinks), efConstruction \(c.hnswEfConstruction), \(c.buildThreads) threads): "
                + "\(format(buildSeconds)) s wall, \(format(buildCPUSeconds)) s CPU, "
                + "\(hnsw.memoryBytes / 1_048_576) MiB, \(hnsw.levelCount) levels")
        for ef in c.efSearchValues {
            let timing = try timeSearches(queries) { (q) throws(IndexError) in try hnsw.search(q, k: c.k, efSearch: ef) }
            let row = IndexBenchmarkReport.SearchRow(
                method: "hnsw", efSearch: ef, latency: LatencySummary(seconds: timing.wall),
                cpu: LatencySummary(seconds: timing.cpu), recall: Neighbor.recall(of: timing.results, against: truth))
            report.searches.append(row)
            progress(
                "HNSW efSearch \(ef): wall p50 \(format(row.latency.p50)) ms, "
                    + "p99 \(format(row.latency.p99)) ms; CPU p50 \(format(row.cpu.p50)) ms, "
                    + "p99 \(format(row.cpu.p99)) ms; recall@\(c.k) \(format(row.recall))")
        }
        if let directory = c.fileDirectory {
            report.files.append(try timeFile(kind: "hnsw", directory: directory, progress: progress) { (path) throws(IndexFileError) in
                try IndexFile.save(hnsw, to: path)
            })
        }
        return report
    }

    /// Runs `search` once per query, timing each by wall clock and by thread CPU time.
    private static func timeSearches(
        _ queries: [[Float]], _ search: ([Float]) throws(IndexError) -> [Neighbor]
    ) throws(IndexError) -> (results: [[Neighbor]], wall: [Double], cpu: [Double]) {
        let clock = ContinuousClock()
        var results: [[Neighbor]] = []
        var wall: [Double] = []
        var cpu: [Double] = []
        results.reserveCapacity(queries.count)
        for query in queries {
            let cpuStart = MemoryBandwidth.threadCPUSeconds()
            let start = clock.now
            let found = try search(query)
            wall.append((clock.now - start).seconds)
            cpu.append(MemoryBandwidth.threadCPUSeconds() - cpuStart)
            results.append(found)
        }
        return (results, wall, cpu)
    }

    /// Saves an index with `save` to `bench-<kind>.idx` in `directory` and loads it back, timing both.
    private static func timeFile(
        kind: String, directory: String, progress: (String) -> Void, save: (String) throws(IndexFileError) -> Void
    ) throws(IndexFileError) -> IndexBenchmarkReport.FileRow {
        let path = directory + "/bench-\(kind).idx"
        let clock = ContinuousClock()
        var start = clock.now
        try save(path)
        let saveSeconds = (clock.now - start).seconds
        start = clock.now
        _ = try IndexFile.load(from: path)
        let loadSeconds = (clock.now - start).seconds
        let bytes = AtomicFile.size(of: path) ?? 0
        progress("\(kind) file: \(bytes / 1_048_576) MiB, save \(format(saveSeconds)) s, load \(format(loadSeconds)) s")
        return IndexBenchmarkReport.FileRow(kind: kind, bytes: bytes, saveSeconds: saveSeconds, loadSeconds: loadSeconds)
    }

    private static func format(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return "\(scaled)"
    }
}
