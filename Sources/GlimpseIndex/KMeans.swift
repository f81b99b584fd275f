import Dispatch
import GlimpseBasics

/// Spherical k-means: clusters of unit vectors under cosine similarity, the coarse quantizer of a
/// ``BinaryIVFIndex``.
public enum KMeans {
    /// The rows assigned per block of work; blocks, not threads, fix the order of every sum, so results
    /// do not depend on the thread count.
    static let blockRows = 1024

    /// `clusters` unit centroids (`clusters × dimension`, row-major) of the unit-length `rows`
    /// (`count × dimension`), after `iterations` rounds of Lloyd's algorithm under cosine similarity,
    /// started from rows chosen by k-means++ (``seeds(rows:dimension:clusters:seed:)``). A cluster left empty restarts at the row least similar
    /// to its own centroid. The result depends only on the rows, `clusters`, `iterations` and `seed`.
    ///
    /// - Precondition: `rows.count` is a multiple of `dimension` and holds at least `clusters` rows.
    public static func train(
        rows: [Float], dimension: Int, clusters: Int, iterations: Int, seed: UInt64, threads: Int = 1
    ) -> [Float] {
        precondition(dimension > 0 && rows.count % dimension == 0, "rows must be whole rows")
        let count = rows.count / dimension
        precondition(clusters > 0 && clusters <= count, "k-means needs at least as many rows as clusters")
        var centroids = seeds(rows: rows, dimension: dimension, clusters: clusters, seed: seed)
        for _ in 0..<max(0, iterations) {
            let (assigned, similarity) = assign(rows: rows, dimension: dimension, centroids: centroids, threads: threads)
            var sums = [Double](repeating: 0, count: clusters * dimension)
            var sizes = [Int](repeating: 0, count: clusters)
            for r in 0..<count {
                let c = Int(assigned[r])
                sizes[c] += 1
                let base = c * dimension, row = r * dimension
                for j in 0..<dimension { sums[base + j] += Double(rows[row + j]) }
            }
            // Empty clusters restart at the rows their centroids fit worst, least similar first.
            let empty = sizes.indices.filter { sizes[$0] == 0 }
            let worst = similarity.indices.sorted { similarity[$0] != similarity[$1] ? similarity[$0] < similarity[$1] : $0 < $1 }
            for (c, r) in zip(empty, worst) {
                for j in 0..<dimension { sums[c * dimension + j] = Double(rows[r * dimension + j]) }
            }
            for c in 0..<clusters {
                let base = c * dimension
                var norm = 0.0
                for j in 0..<dimension { norm += sums[base + j] * sums[base + j] }
                norm = norm.squareRoot()
                guard norm > 0 else { continue }
                for j in 0..<dimension { centroids[base + j] = Float(sums[base + j] / norm) }
            }
        }
        return centroids
    }

    /// `clusters` starting centroids drawn from `rows` by k-means++ with the generator seeded by `seed`:
    /// the first uniformly, each next one with a probability proportional to its squared chord distance
    /// (2 − 2 × similarity) to the nearest already chosen, so that the starts spread over the data.
    static func seeds(rows: [Float], dimension: Int, clusters: Int, seed: UInt64) -> [Float] {
        let count = rows.count / dimension
        var generator = SeededGenerator(seed: seed)
        var centroids: [Float] = []
        centroids.reserveCapacity(clusters * dimension)
        var nearest = [Double](repeating: .infinity, count: count)
        var pick = Int(generator.next() % UInt64(count))
        rows.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for _ in 0..<clusters {
                centroids.append(contentsOf: all[(pick * dimension)..<((pick + 1) * dimension)])
                let chosen = base + pick * dimension
                var total = 0.0
                for r in 0..<count {
                    let distance = max(0, 2 - 2 * Double(DistanceKernel.dot(base + r * dimension, chosen, count: dimension)))
                    if distance < nearest[r] { nearest[r] = distance }
                    total += nearest[r]
                }
                guard total > 0 else {
                    pick = Int(generator.next() % UInt64(count))
                    continue
                }
                var target = Double(generator.next() >> 11) / Double(1 << 53) * total
                pick = count - 1
                for r in 0..<count {
                    target -= nearest[r]
                    if target < 0 {
                        pick = r
                        break
                    }
                }
            }
        }
        return centroids
    }

    /// For each row of `rows`, the most similar centroid (the first among equals) and its similarity
    /// (dot product), computed on `threads` threads.
    public static func assign(
        rows: [Float], dimension: Int, centroids: [Float], threads: Int = 1
    ) -> (cluster: [Int32], similarity: [Float]) {
        let count = rows.count / dimension
        let clusters = centroids.count / dimension
        let blocks = (count + blockRows - 1) / blockRows
        let results = (0..<blocks).map { _ in BlockResult() }
        let threads = max(1, min(threads, blocks))
        let work: @Sendable (Int) -> Void = { thread in
            rows.withUnsafeBufferPointer { rowBuffer in
                centroids.withUnsafeBufferPointer { centroidBuffer in
                    guard let rowBase = rowBuffer.baseAddress, let centroidBase = centroidBuffer.baseAddress else { return }
                    var block = thread
                    while block < blocks {
                        let start = block * blockRows, end = min(count, start + blockRows)
                        let result = results[block]
                        result.cluster.reserveCapacity(end - start)
                        for r in start..<end {
                            let row = rowBase + r * dimension
                            var best: Int32 = 0
                            var bestSimilarity = -Float.infinity
                            for c in 0..<clusters {
                                let s = DistanceKernel.dot(row, centroidBase + c * dimension, count: dimension)
                                if s > bestSimilarity {
                                    bestSimilarity = s
                                    best = Int32(c)
                                }
                            }
                            result.cluster.append(best)
                            result.similarity.append(bestSimilarity)
                        }
                        block += threads
                    }
                }
            }
        }
        if threads == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: work) }
        return (results.flatMap(\.cluster), results.flatMap(\.similarity))
    }

    /// One block's assignments.
    private final class BlockResult: @unchecked Sendable {
        // @unchecked Sendable because: each block is written by the one thread whose number it is
        // congruent to, and read only after every thread has finished.
        var cluster: [Int32] = []
        var similarity: [Float] = []
    }
}
