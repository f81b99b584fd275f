/// Checks vectors against an index's dimension and puts them in the form its kernels expect.
enum VectorPreparation {
    /// Throws unless `vector` has `dimension` finite components.
    static func validate(_ vector: UnsafeBufferPointer<Float>, dimension: Int) throws(IndexError) {
        guard vector.count == dimension else {
            throw .dimensionMismatch(expected: dimension, actual: vector.count)
        }
        for (i, value) in vector.enumerated() where !value.isFinite {
            throw .nonFiniteComponent(component: i)
        }
    }

    /// Validates `vector` and appends its prepared form (unit length for cosine) to `storage`.
    static func append(
        _ vector: UnsafeBufferPointer<Float>, dimension: Int, metric: DistanceMetric, to storage: inout [Float]
    ) throws(IndexError) {
        try validate(vector, dimension: dimension)
        let start = storage.count
        storage.append(contentsOf: vector)
        if metric == .cosine {
            normalize(&storage[start..<(start + dimension)])
        }
    }

    /// Scales `values` to unit length; an all-zero slice is left unchanged.
    static func normalize(_ values: inout ArraySlice<Float>) {
        var sum: Float = 0
        for value in values { sum += value * value }
        guard sum > 0 else { return }
        let scale = 1 / sum.squareRoot()
        for i in values.indices { values[i] *= scale }
    }

    /// Runs `body` with `query` validated and prepared for `metric`, copying it only for cosine.
    static func withPreparedQuery<R>(
        _ query: UnsafeBufferPointer<Float>, dimension: Int, metric: DistanceMetric,
        _ body: (UnsafePointer<Float>) throws(IndexError) -> R
    ) throws(IndexError) -> R {
        try validate(query, dimension: dimension)
        guard let base = query.baseAddress else {
            // dimension >= 1 and the count matched, so a nil base cannot occur; treat it as empty input.
            throw .dimensionMismatch(expected: dimension, actual: 0)
        }
        guard metric == .cosine else { return try body(base) }
        var copy = Array(query)[...]
        normalize(&copy)
        return try copy.withUnsafeBufferPointer { (buffer) throws(IndexError) -> R in
            guard let prepared = buffer.baseAddress else { throw .dimensionMismatch(expected: dimension, actual: 0) }
            return try body(prepared)
        }
    }
}
