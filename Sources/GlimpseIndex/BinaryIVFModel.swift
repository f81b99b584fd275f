import GlimpseBasics
import GlimpseFiles

/// The trained part of a ``BinaryIVFIndex``: the centroids that split vectors into lists, and the centre
/// that their sign codes are taken about.
public struct BinaryIVFModel: Sendable, Equatable {
    /// The number of components of every vector.
    public let dimension: Int
    /// The unit centroids, `clusters × dimension`, row-major.
    public let centroids: [Float]
    /// The mean of the training vectors: bit *j* of a code says whether component *j* lies above it.
    public let centre: [Float]

    /// The number of centroids (inverted lists).
    public var clusters: Int { centroids.count / dimension }
    /// The 64-bit words of one sign code.
    public var codeWords: Int { SignCodes.words(dimension: dimension) }

    /// A model from its parts.
    ///
    /// - Precondition: `dimension > 0`, `centroids` holds whole rows, at least one, and
    ///   `centre.count == dimension`.
    public init(dimension: Int, centroids: [Float], centre: [Float]) {
        precondition(dimension > 0 && !centroids.isEmpty && centroids.count % dimension == 0 && centre.count == dimension,
                     "a model needs whole centroid rows and a centre of its dimension")
        self.dimension = dimension
        self.centroids = centroids
        self.centre = centre
    }

    /// Trains a model on the unit vectors `rows` (`count × dimension`): spherical k-means (``KMeans``) of
    /// at most `sample` rows drawn by `seed`, and their mean as the centre. Depends only on the rows and
    /// the parameters, not on `threads`.
    ///
    /// - Precondition: the sample holds at least `clusters` rows.
    public static func train(
        rows: [Float], dimension: Int, clusters: Int, iterations: Int = 8, sample: Int = 65_536, seed: UInt64,
        threads: Int = 1
    ) -> BinaryIVFModel {
        let count = rows.count / dimension
        var picked = rows
        if count > sample {
            var generator = SeededGenerator(seed: seed ^ 0x5EED_5A4D_1E00_0001)
            var order = Array(0..<count)
            for i in 0..<sample { order.swapAt(i, i + Int(generator.next() % UInt64(count - i))) }
            let rowsTaken = order[..<sample].sorted()
            picked = []
            picked.reserveCapacity(sample * dimension)
            for r in rowsTaken { picked.append(contentsOf: rows[(r * dimension)..<((r + 1) * dimension)]) }
        }
        let taken = picked.count / dimension
        var centre = [Double](repeating: 0, count: dimension)
        for r in 0..<taken {
            for j in 0..<dimension { centre[j] += Double(picked[r * dimension + j]) }
        }
        let centroids = KMeans.train(
            rows: picked, dimension: dimension, clusters: clusters, iterations: iterations, seed: seed, threads: threads)
        return BinaryIVFModel(dimension: dimension, centroids: centroids, centre: centre.map { Float($0 / Double(max(1, taken))) })
    }

    /// A stable identity of the model (FNV-1a 64 of its dimension, centroids and centre): files that
    /// hold list numbers or codes made with it record it, and are refused beside another model.
    public var id: UInt64 {
        var hasher = FNV1a64()
        hasher.add(UInt64(dimension))
        for value in centroids { hasher.add(UInt64(value.bitPattern)) }
        for value in centre { hasher.add(UInt64(value.bitPattern)) }
        return hasher.value
    }

    /// The `count` centroids most similar to `vector` (dot product), most similar first, ties by number.
    public func nearestClusters(of vector: UnsafeBufferPointer<Float>, count: Int) -> [Int] {
        precondition(vector.count == dimension, "vector dimension mismatch")
        guard let base = vector.baseAddress, var top = try? TopK(k: max(0, min(count, clusters))) else { return [] }
        centroids.withUnsafeBufferPointer { rows in
            guard let rowBase = rows.baseAddress else { return }
            for c in 0..<clusters {
                top.offer(id: c, distance: -DistanceKernel.dot(base, rowBase + c * dimension, count: dimension))
            }
        }
        return top.drainSorted().map(\.id)
    }
}
