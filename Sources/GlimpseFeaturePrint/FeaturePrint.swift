/// A learned image descriptor: the network's pooled embedding scaled to unit length, so that the
/// dot product of two prints is their cosine similarity (1 for the same picture, near 0 for
/// unrelated ones; EfficientNet-Lite0 embeddings are non-negative, so never below 0).
public struct FeaturePrint: Sendable, Hashable {
    /// The unit-length values (all zero only when the embedding was all zero).
    public let values: [Float]

    /// The number of values (1280 for EfficientNet-Lite0).
    public var dimension: Int { values.count }

    /// The print of a raw embedding: `embedding` divided by its L2 norm (kept as zeros when the
    /// norm is zero).
    public init(normalizing embedding: [Float]) {
        var sum: Double = 0
        for value in embedding { sum += Double(value) * Double(value) }
        let norm = sum.squareRoot()
        values = norm > 0 ? embedding.map { Float(Double($0) / norm) } : embedding
    }

    /// The print of a raw embedding given as a buffer, divided by its L2 norm like an array.
    public init(normalizing embedding: UnsafeBufferPointer<Float>) {
        self.init(normalizing: Array(embedding))
    }

    /// The dot product of the two prints' values.
    ///
    /// - Precondition: both prints have the same ``dimension`` (come from the same model).
    public func dot(_ other: FeaturePrint) -> Float {
        precondition(values.count == other.values.count,
                     "feature prints of different models: \(values.count) and \(other.values.count) values")
        return values.withUnsafeBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in
                var sums = SIMD8<Float>()
                let whole = a.count / 8 * 8
                var i = 0
                while i < whole {
                    sums += SIMD8(a[i..<(i + 8)]) * SIMD8(b[i..<(i + 8)])
                    i += 8
                }
                var total = sums.sum()
                while i < a.count {
                    total += a[i] * b[i]
                    i += 1
                }
                return total
            }
        }
    }

    /// The cosine similarity of the two prints, in -1...1; equal to ``dot(_:)`` since both have unit
    /// length (0 when either is all zero).
    ///
    /// - Precondition: both prints have the same ``dimension``.
    public func cosine(_ other: FeaturePrint) -> Float { min(1, max(-1, dot(other))) }
}
