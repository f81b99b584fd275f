/// An exact scan over 8-bit scalar-quantized vectors: a quarter of the memory of ``FlatIndex``.
///
/// Each dimension `j` is mapped linearly from the range of the indexed values, `[minⱼ, maxⱼ]`, to the
/// codes 0…255, so a stored component is `offsetⱼ + scaleⱼ × code`. Queries stay in float; distances
/// are computed between the float query and the decoded vector, so they are approximate (ranks close to
/// the float index's, measured as recall against it). Built once from a ``FlatIndex``; read-only.
public struct Int8FlatIndex: NearestNeighborIndex {
    /// The number of components of every vector.
    public let dimension: Int
    /// How distances are measured.
    public let metric: DistanceMetric
    /// The id of each stored vector, by position.
    public let ids: [Int]
    /// `offsetⱼ`: the value code 0 stands for, per dimension.
    public let offsets: [Float]
    /// `scaleⱼ`: the value step between consecutive codes, per dimension (never zero).
    public let scales: [Float]
    /// The codes, `count × dimension` bytes, row by row.
    public let codes: [UInt8]
    /// `scaleⱼ²`, block-permuted for the kernels.
    private let permutedSquaredScales: [Float]

    /// Quantizes the vectors of `flat`, keeping their ids and metric.
    public init(quantizing flat: FlatIndex) {
        let d = flat.dimension
        let n = flat.count
        var low = [Float](repeating: .infinity, count: d)
        var high = [Float](repeating: -.infinity, count: d)
        for row in 0..<n {
            for j in 0..<d {
                let value = flat.vectors[row * d + j]
                low[j] = min(low[j], value)
                high[j] = max(high[j], value)
            }
        }
        var offsets = [Float](repeating: 0, count: d)
        var scales = [Float](repeating: 1, count: d)
        for j in 0..<d where n > 0 {
            offsets[j] = low[j]
            let step = (high[j] - low[j]) / 255
            scales[j] = step > 0 && step.isFinite ? step : 1
        }
        var codes = [UInt8](repeating: 0, count: n * d)
        for row in 0..<n {
            for j in 0..<d {
                let code = ((flat.vectors[row * d + j] - offsets[j]) / scales[j]).rounded()
                codes[row * d + j] = UInt8(min(255, max(0, code)))
            }
        }
        self.init(dimension: d, metric: flat.metric, ids: flat.ids, offsets: offsets, scales: scales, codes: codes)
    }

    /// Assembles an index from validated parts (see ``IndexFile``).
    init(dimension: Int, metric: DistanceMetric, ids: [Int], offsets: [Float], scales: [Float], codes: [UInt8]) {
        self.dimension = dimension
        self.metric = metric
        self.ids = ids
        self.offsets = offsets
        self.scales = scales
        self.codes = codes
        permutedSquaredScales = QuantizedKernel.permute(scales.map { $0 * $0 })
    }

    /// The number of stored vectors.
    public var count: Int { ids.count }

    /// Bytes held by the codes and the per-dimension tables (not counting ids).
    public var memoryBytes: Int { codes.count + dimension * 12 }

    /// The decoded (approximate) vector at `position`.
    public func decodedVector(at position: Int) -> [Float] {
        (0..<dimension).map { j in offsets[j] + scales[j] * Float(codes[position * dimension + j]) }
    }

    /// The `k` stored vectors nearest to `query` by the quantized distance, nearest first, ties by id.
    ///
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component, or `k < 0`.
    /// - Complexity: O(`count × dimension + count × log k`).
    public func search(_ query: UnsafeBufferPointer<Float>, k: Int) throws(IndexError) -> [Neighbor] {
        var top = try TopK(k: k)
        try VectorPreparation.withPreparedQuery(query, dimension: dimension, metric: metric) { q in
            guard k > 0, !ids.isEmpty else { return }
            // Move the query into code space once: q′ⱼ = (qⱼ − offsetⱼ) / scaleⱼ for Euclidean,
            // q″ⱼ = qⱼ × scaleⱼ plus the constant Σ qⱼ offsetⱼ for the inner products.
            var transformed = [Float](repeating: 0, count: dimension)
            var constant: Float = 0
            for j in 0..<dimension {
                if metric == .squaredEuclidean {
                    transformed[j] = (q[j] - offsets[j]) / scales[j]
                } else {
                    transformed[j] = q[j] * scales[j]
                    constant += q[j] * offsets[j]
                }
            }
            transformed = QuantizedKernel.permute(transformed)
            let d = dimension
            let metric = self.metric
            transformed.withUnsafeBufferPointer { tq in
                permutedSquaredScales.withUnsafeBufferPointer { weights in
                    codes.withUnsafeBufferPointer { all in
                        // safe because all.count == ids.count × d and tq, weights hold d floats.
                        guard let t = tq.baseAddress, let w = weights.baseAddress, var row = all.baseAddress else {
                            return
                        }
                        for position in 0..<ids.count {
                            let distance: Float
                            switch metric {
                            case .squaredEuclidean: distance = QuantizedKernel.weightedSquaredDifference(t, w, row, count: d)
                            case .cosine: distance = 1 - (constant + QuantizedKernel.dot(t, row, count: d))
                            case .innerProduct: distance = -(constant + QuantizedKernel.dot(t, row, count: d))
                            }
                            if distance <= top.threshold { top.offer(id: ids[position], distance: distance) }
                            row += d
                        }
                    }
                }
            }
        }
        return top.drainSorted()
    }
}
