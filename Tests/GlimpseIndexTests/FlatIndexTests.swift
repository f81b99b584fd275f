import GlimpseBasics
import Testing

@testable import GlimpseIndex
import GlimpseIndexBenchmark

/// The plain nested loop every index is checked against: all distances, sorted by (distance, id).
func naiveNearest(_ vectors: [[Float]], ids: [Int]? = nil, query: [Float], k: Int, metric: DistanceMetric)
    -> [Neighbor]
{
    let all = vectors.enumerated().map { position, vector in
        Neighbor(id: ids?[position] ?? position, distance: metric.referenceDistance(vector, query))
    }
    return Array(all.sorted { $0.ranks(before: $1) }.prefix(max(0, k)))
}

@Suite("FlatIndex")
struct FlatIndexTests {
    @Test("matches the naive loop", arguments: DistanceMetric.allCases, [1, 7, 33, 256])
    func matchesNaive(metric: DistanceMetric, dimension: Int) throws {
        let data = try SyntheticVectors(dimension: dimension, distribution: .uniform, seed: 7)
        let vectors = data.vectors(count: 300)
        let queries = data.vectors(count: 20, stream: 1)
        let index = try FlatIndex(dimension: dimension, metric: metric, vectors: vectors)
        #expect(index.count == 300)
        for query in queries {
            let expected = naiveNearest(vectors, query: query, k: 10, metric: metric)
            let found = try index.search(query, k: 10)
            #expect(found.count == expected.count)
            for (a, b) in zip(found, expected) {
                let tolerance = 1e-4 * max(1, abs(b.distance))
                #expect(abs(a.distance - b.distance) <= tolerance)
                // Ids agree unless two distances tie within rounding (1-d cosine is all ties).
                if a.id != b.id {
                    #expect(abs(metric.referenceDistance(vectors[a.id], query) - b.distance) <= tolerance)
                }
            }
            #expect(found.map(\.id) == expected.map(\.id) || dimension == 1)
        }
    }

    @Test("caller ids, removal and lookup")
    func callerIDs() throws {
        var index = try FlatIndex(dimension: 2, metric: .squaredEuclidean)
        try index.add([0, 0], id: 100)
        try index.add([1, 0], id: 50)
        try index.add([5, 5], id: 7)
        #expect(throws: IndexError.duplicateID(50)) { try index.add([9, 9], id: 50) }
        #expect(try index.search([0.9, 0], k: 2).map(\.id) == [50, 100])
        try index.remove(id: 50)
        #expect(!index.contains(id: 50))
        #expect(index.vector(id: 7) == [5, 5])
        #expect(try index.search([0.9, 0], k: 3).map(\.id) == [100, 7])
        #expect(throws: IndexError.unknownID(50)) { try index.remove(id: 50) }
    }

    @Test("refuses bad dimensions, bad vectors and negative k")
    func refusals() throws {
        #expect(throws: IndexError.invalidDimension(0)) { try FlatIndex(dimension: 0, metric: .cosine) }
        #expect(throws: IndexError.invalidDimension(-3)) { try FlatIndex(dimension: -3, metric: .cosine) }
        var index = try FlatIndex(dimension: 3, metric: .squaredEuclidean)
        #expect(throws: IndexError.dimensionMismatch(expected: 3, actual: 2)) { try index.add([1, 2]) }
        #expect(throws: IndexError.nonFiniteComponent(component: 1)) { try index.add([1, .nan, 2]) }
        try index.add([1, 2, 3])
        #expect(throws: IndexError.dimensionMismatch(expected: 3, actual: 4)) { try index.search([1, 2, 3, 4], k: 1) }
        #expect(throws: IndexError.nonFiniteComponent(component: 2)) { try index.search([1, 2, .infinity], k: 1) }
        #expect(throws: IndexError.invalidK(-1)) { try index.search([1, 2, 3], k: -1) }
        #expect(index.count == 1)
    }

    @Test("k = 0 and k > count")
    func kBounds() throws {
        let index = try FlatIndex(dimension: 2, metric: .squaredEuclidean, vectors: [[0, 0], [3, 0], [1, 0]])
        #expect(try index.search([0, 0], k: 0).isEmpty)
        #expect(try index.search([0, 0], k: 10).map(\.id) == [0, 2, 1])
        let empty = try FlatIndex(dimension: 2, metric: .cosine)
        #expect(try empty.search([1, 0], k: 5).isEmpty)
    }

    @Test("cosine normalises vectors; a zero vector is at distance 1")
    func cosine() throws {
        let index = try FlatIndex(dimension: 2, metric: .cosine, vectors: [[10, 0], [0, 0.5], [0, 0]])
        let found = try index.search([3, 0], k: 3)
        #expect(found.map(\.id) == [0, 1, 2])
        #expect(abs(found[0].distance) < 1e-6)
        #expect(abs(found[1].distance - 1) < 1e-6 && abs(found[2].distance - 1) < 1e-6)
    }
}

@Suite("TopK")
struct TopKTests {
    @Test("ties are broken by the smaller id")
    func ties() throws {
        let vectors: [[Float]] = (0..<20).map { [Float($0 % 4)] }
        let index = try FlatIndex(dimension: 1, metric: .squaredEuclidean, vectors: vectors)
        // Distances to 0: ids 0,4,8,12,16 at 0; 1,5,9,... at 1.
        #expect(try index.search([0], k: 7).map(\.id) == [0, 4, 8, 12, 16, 1, 5])
        #expect(try index.search([0], k: 3).map(\.id) == [0, 4, 8])
    }

    @Test("keeps the k smallest of a random stream", arguments: [0, 1, 2, 5, 64, 1000])
    func randomStream(k: Int) throws {
        var generator = SeededGenerator(seed: UInt64(k) + 1)
        var top = try TopK(k: k)
        var all: [Neighbor] = []
        for id in 0..<500 {
            let distance = Float(generator.next() % 50)  // many ties
            all.append(Neighbor(id: id, distance: distance))
            top.offer(id: id, distance: distance)
        }
        let expected = Array(all.sorted { $0.ranks(before: $1) }.prefix(k))
        #expect(top.drainSorted() == expected)
        #expect(top.count == 0)
    }

    @Test("negative k is refused")
    func negative() {
        #expect(throws: IndexError.invalidK(-2)) { try TopK(k: -2) }
    }
}
