import GlimpseBasics
public import GlimpseIndex

/// Reproducible synthetic vector sets for tests and benchmarks.
///
/// Clustered data imitates image features: points gather around a number of centres, each centre
/// drawn uniformly from `[-1, 1]^d` and each point offset from its centre by Gaussian noise. Uniform
/// data has no structure at all, the hard case for graph indexes.
public struct SyntheticVectors: Sendable {
    /// How the points are distributed.
    public enum Distribution: Sendable, Hashable {
        /// Every component uniform in `[-1, 1]`.
        case uniform
        /// `clusters` centres uniform in `[-1, 1]^d`, points Gaussian around them with standard deviation `spread`.
        case clustered(clusters: Int, spread: Float)
    }

    /// The number of components per vector.
    public let dimension: Int
    /// The distribution points are drawn from.
    public let distribution: Distribution
    /// The seed that fixes the centres and the point sequence.
    public let seed: UInt64
    private let centres: [Float]

    /// Creates a generator of `dimension`-component vectors; the same arguments always give the same vectors.
    /// - Throws: ``IndexError`` when the dimension or the cluster count is not positive.
    public init(dimension: Int, distribution: Distribution, seed: UInt64) throws(IndexError) {
        guard (1...IndexLimits.maximumDimension).contains(dimension) else { throw .invalidDimension(dimension) }
        self.dimension = dimension
        self.distribution = distribution
        self.seed = seed
        var generator = SeededGenerator(seed: seed ^ 0x5EED_CE47_2E5A_0001)
        switch distribution {
        case .uniform:
            centres = []
        case let .clustered(clusters, _):
            guard clusters >= 1 else {
                throw .invalidParameter(name: "clusters", value: clusters, reason: "pass at least 1 cluster")
            }
            centres = (0..<(clusters * dimension)).map { _ in generator.nextUnitFloat() * 2 - 1 }
        }
    }

    /// The `count` vectors of stream `stream`, row by row (`count × dimension` floats).
    ///
    /// Different streams are independent draws from the same distribution: use one for the indexed set
    /// and another for queries.
    public func rowMajor(count: Int, stream: UInt64 = 0) -> [Float] {
        var generator = SeededGenerator(seed: seed &+ 0x9E37_79B9 &* (stream &+ 1))
        var values = [Float](repeating: 0, count: max(0, count) * dimension)
        switch distribution {
        case .uniform:
            for i in values.indices { values[i] = generator.nextUnitFloat() * 2 - 1 }
        case let .clustered(clusters, spread):
            for row in 0..<max(0, count) {
                let centre = Int(generator.next() % UInt64(clusters)) * dimension
                var c = 0
                while c < dimension {
                    let (g0, g1) = generator.nextGaussianPair()
                    values[row * dimension + c] = centres[centre + c] + spread * g0
                    if c + 1 < dimension { values[row * dimension + c + 1] = centres[centre + c + 1] + spread * g1 }
                    c += 2
                }
            }
        }
        return values
    }

    /// The `count` vectors of stream `stream`, one array each.
    public func vectors(count: Int, stream: UInt64 = 0) -> [[Float]] {
        let flat = rowMajor(count: count, stream: stream)
        return (0..<max(0, count)).map { Array(flat[($0 * dimension)..<(($0 + 1) * dimension)]) }
    }
}
