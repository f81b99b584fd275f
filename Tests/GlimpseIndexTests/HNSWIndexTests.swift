import Testing

@testable import GlimpseIndex
import GlimpseIndexBenchmark

/// Mean recall@k of `index` against the exact `oracle` over `queries`.
func recall(of index: some NearestNeighborIndex, oracle: FlatIndex, queries: [[Float]], k: Int) throws -> Double {
    Neighbor.recall(of: try queries.map { try index.search($0, k: k) }, against: try queries.map { try oracle.search($0, k: k) })
}

@Suite("HNSWIndex")
struct HNSWIndexTests {
    static let small = HNSWParameters(maxLinks: 10, efConstruction: 48, efSearch: 48, seed: 3)

    @Test(
        "recall@10 against the flat oracle",
        arguments: [
            SyntheticVectors.Distribution.uniform, .clustered(clusters: 50, spread: 0.3),
        ], [DistanceMetric.squaredEuclidean, .cosine])
    func recallAt10(distribution: SyntheticVectors.Distribution, metric: DistanceMetric) throws {
        let data = try SyntheticVectors(dimension: 24, distribution: distribution, seed: 11)
        let flat = try FlatIndex(dimension: 24, metric: metric, rowMajor: data.rowMajor(count: 4000))
        let index = try HNSWIndex(building: flat, parameters: Self.small)
        let queries = data.vectors(count: 100, stream: 9)
        let r = try recall(of: index, oracle: flat, queries: queries, k: 10)
        #expect(r >= 0.95, "recall@10 = \(r)")
        #expect(index.count == 4000)
    }

    @Test("same seed, same graph, whatever the thread count")
    func determinism() throws {
        let data = try SyntheticVectors(dimension: 16, distribution: .clustered(clusters: 20, spread: 0.2), seed: 5)
        let flat = try FlatIndex(dimension: 16, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: 1200))
        var parameters = Self.small
        let a = try HNSWIndex(building: flat, parameters: parameters)
        parameters.buildThreads = 2
        let b = try HNSWIndex(building: flat, parameters: parameters)
        parameters.seed = 4
        let c = try HNSWIndex(building: flat, parameters: parameters)
        #expect(graphSignature(a) == graphSignature(b))
        #expect(graphSignature(a) != graphSignature(c))
        for query in data.vectors(count: 20, stream: 2) {
            #expect(try a.search(query, k: 5) == b.search(query, k: 5))
        }
    }

    @Test("deleted vectors are never returned and recall holds")
    func deletes() throws {
        let data = try SyntheticVectors(dimension: 24, distribution: .clustered(clusters: 30, spread: 0.3), seed: 8)
        var flat = try FlatIndex(dimension: 24, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: 2400))
        let index = try HNSWIndex(building: flat, parameters: Self.small)
        let doomed = Array(stride(from: 0, to: 2400, by: 3))
        for id in doomed { try index.delete(id: id) }
        #expect(throws: IndexError.unknownID(0)) { try index.delete(id: 0) }
        #expect(throws: IndexError.unknownID(99_999)) { try index.delete(id: 99_999) }
        #expect(index.count == 1600)
        #expect(!index.contains(id: 3) && index.contains(id: 4))
        for id in doomed { try flat.remove(id: id) }
        let queries = data.vectors(count: 60, stream: 4)
        for query in queries {
            #expect(try index.search(query, k: 10).allSatisfy { $0.id % 3 != 0 })
        }
        #expect(try recall(of: index, oracle: flat, queries: queries, k: 10) >= 0.95)
    }

    @Test("small and empty indexes, k bounds and refusals")
    func edges() throws {
        let empty = try HNSWIndex(building: FlatIndex(dimension: 4, metric: .cosine))
        #expect(try empty.search([1, 0, 0, 0], k: 3).isEmpty)
        let flat = try FlatIndex(dimension: 2, metric: .squaredEuclidean, vectors: [[0, 0], [2, 0], [1, 0]])
        let index = try HNSWIndex(building: flat)
        #expect(try index.search([0, 0], k: 10).map(\.id) == [0, 2, 1])
        #expect(try index.search([0, 0], k: 0).isEmpty)
        #expect(throws: IndexError.invalidK(-1)) { try index.search([0, 0], k: -1) }
        #expect(throws: IndexError.dimensionMismatch(expected: 2, actual: 3)) { try index.search([0, 0, 0], k: 1) }
        #expect(throws: IndexError.invalidParameter(name: "maxLinks", value: 1, reason: "use 2 to 127 (16 is typical)")) {
            try HNSWIndex(building: flat, parameters: HNSWParameters(maxLinks: 1))
        }
    }
}

/// Every link of every node on every level, in order: equal graphs have equal signatures.
func graphSignature(_ index: HNSWIndex) -> [UInt32] {
    var signature: [UInt32] = [index.entryPoint, UInt32(index.maxLevel)]
    for node in 0..<index.storage.nodeCount {
        for level in 0...Int(index.storage.levels[node]) {
            signature.append(UInt32(level))
            signature.append(contentsOf: index.storage.links(UInt32(node), level: level))
        }
    }
    return signature
}
