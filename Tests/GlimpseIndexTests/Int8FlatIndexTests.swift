import Testing

@testable import GlimpseIndex
import GlimpseIndexBenchmark
import GlimpseBasics

@Suite("Int8FlatIndex")
struct Int8FlatIndexTests {
    @Test("quantized scan ranks like the float scan", arguments: DistanceMetric.allCases)
    func recallAgainstFloat(metric: DistanceMetric) throws {
        let data = try SyntheticVectors(dimension: 40, distribution: .clustered(clusters: 10, spread: 0.3), seed: 21)
        let flat = try FlatIndex(dimension: 40, metric: metric, rowMajor: data.rowMajor(count: 2000))
        let int8 = Int8FlatIndex(quantizing: flat)
        #expect(int8.count == 2000 && int8.memoryBytes * 3 < flat.vectors.count * 4)
        let r = try recall(of: int8, oracle: flat, queries: data.vectors(count: 50, stream: 6), k: 10)
        #expect(r >= 0.9, "recall@10 = \(r)")
    }

    @Test("decoded vectors are within half a step of the originals")
    func reconstruction() throws {
        let data = try SyntheticVectors(dimension: 17, distribution: .uniform, seed: 2)
        let flat = try FlatIndex(dimension: 17, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: 300))
        let int8 = Int8FlatIndex(quantizing: flat)
        for position in [0, 1, 150, 299] {
            let decoded = int8.decodedVector(at: position)
            for j in 0..<17 {
                let original = flat.vectors[position * 17 + j]
                #expect(abs(decoded[j] - original) <= int8.scales[j] * 0.5 + 1e-5)
            }
        }
    }

    @Test("distances match the decoded vectors; ids, k bounds and refusals")
    func distancesAndEdges() throws {
        var flat = try FlatIndex(dimension: 3, metric: .squaredEuclidean)
        try flat.add([0, 0, 0], id: 10)
        try flat.add([1, 2, 3], id: 20)
        try flat.add([4, 4, 4], id: 30)
        let int8 = Int8FlatIndex(quantizing: flat)
        let query: [Float] = [1, 1, 1]
        let found = try int8.search(query, k: 5)
        #expect(found.map(\.id) == [10, 20, 30])  // squared distances 3, 5 and 27
        for neighbour in found {
            let position = try #require(int8.ids.firstIndex(of: neighbour.id))
            let expected = DistanceMetric.squaredEuclidean.referenceDistance(int8.decodedVector(at: position), query)
            #expect(abs(neighbour.distance - expected) <= 1e-3 * max(1, expected))
        }
        #expect(try int8.search(query, k: 0).isEmpty)
        #expect(throws: IndexError.invalidK(-1)) { try int8.search(query, k: -1) }
        #expect(throws: IndexError.dimensionMismatch(expected: 3, actual: 2)) { try int8.search([1, 1], k: 1) }
        let constant = Int8FlatIndex(quantizing: try FlatIndex(dimension: 2, metric: .innerProduct, vectors: [[1, 1], [1, 1]]))
        #expect(try constant.search([1, 0], k: 2).map(\.id) == [0, 1])
    }
}

@Suite("Concurrency and benchmark")
struct ConcurrencyAndBenchmarkTests {
    @Test("concurrent HNSW searches return what sequential ones do")
    func concurrentSearches() async throws {
        let data = try SyntheticVectors(dimension: 16, distribution: .clustered(clusters: 8, spread: 0.3), seed: 13)
        let flat = try FlatIndex(dimension: 16, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: 800))
        let index = try HNSWIndex(building: flat, parameters: HNSWParameters(maxLinks: 8, efConstruction: 32))
        let queries = data.vectors(count: 64, stream: 5)
        let sequential = try queries.map { try index.search($0, k: 5) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, [Neighbor]).self) { group in
            for (i, query) in queries.enumerated() {
                group.addTask { (i, try index.search(query, k: 5)) }
            }
            var answers = [[Neighbor]](repeating: [], count: queries.count)
            for try await (i, answer) in group { answers[i] = answer }
            return answers
        }
        #expect(concurrent == sequential)
    }

    @Test("the benchmark runs end to end and the exact scan is its own oracle")
    func benchmarkSmoke() throws {
        let configuration = IndexBenchmarkConfiguration(
            count: 600, dimension: 16, queries: 20, k: 5, clusters: 6, spread: 0.3, seed: 1, hnswMaxLinks: 8,
            hnswEfConstruction: 32, buildThreads: 2, efSearchValues: [8, 64])
        var lines: [String] = []
        let report = try IndexBenchmark.run(configuration) { lines.append($0) }
        #expect(report.scanBytes == 600 * 16 * 4)
        #expect(report.searches.map(\.method) == ["int8-flat", "hnsw", "hnsw"])
        #expect(report.searches.allSatisfy { (0...1).contains($0.recall) })
        #expect(report.searches.last.map { $0.recall >= 0.95 } == true)
        #expect(report.measuredBandwidth.wallGBps > 0 && report.exactScan.p99 >= report.exactScan.p50)
        #expect(lines.count >= 5)
        #expect(throws: IndexError.self) { try IndexBenchmark.run(IndexBenchmarkConfiguration(count: 0)) }
    }

    @Test("synthetic data is reproducible from its seed")
    func syntheticReproducible() throws {
        let a = try SyntheticVectors(dimension: 5, distribution: .clustered(clusters: 3, spread: 0.1), seed: 77)
        let b = try SyntheticVectors(dimension: 5, distribution: .clustered(clusters: 3, spread: 0.1), seed: 77)
        let c = try SyntheticVectors(dimension: 5, distribution: .clustered(clusters: 3, spread: 0.1), seed: 78)
        #expect(a.rowMajor(count: 50) == b.rowMajor(count: 50))
        #expect(a.rowMajor(count: 50) != c.rowMajor(count: 50))
        #expect(a.rowMajor(count: 50, stream: 1) != a.rowMajor(count: 50))
        #expect(throws: IndexError.invalidParameter(name: "clusters", value: 0, reason: "pass at least 1 cluster")) {
            try SyntheticVectors(dimension: 5, distribution: .clustered(clusters: 0, spread: 0.1), seed: 1)
        }
    }
}
