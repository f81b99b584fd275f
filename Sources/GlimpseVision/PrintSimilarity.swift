import CGlimpseVisionKernels

/// Comparisons of one feature print with many: the cosine similarities, and the most similar.
enum PrintSimilarity {
    /// The dot product of `query` with each `dimension`-long row of `rows` (for L2-normalised prints,
    /// the cosine similarity), in row order; the loop is `glimpse_dot_rows` of `CGlimpseVisionKernels`,
    /// which keeps the same bits in every build.
    static func cosines(_ query: [Float], against rows: [Float], dimension: Int) -> [Float] {
        guard dimension > 0, query.count == dimension else { return [] }
        let count = rows.count / dimension
        guard count > 0 else { return [] }
        return [Float](unsafeUninitializedCapacity: count) { out, initialized in
            query.withUnsafeBufferPointer { q in
                rows.withUnsafeBufferPointer { r in
                    // Both base addresses exist: `query` holds `dimension` > 0 floats, `rows` at least one row.
                    glimpse_dot_rows(q.baseAddress, r.baseAddress, count, dimension, out.baseAddress)
                }
            }
            initialized = count
        }
    }

    /// The indices of the `count` largest values of `values`, largest first (ties: lower index first).
    static func top(_ values: [Float], count: Int) -> [Int] {
        let k = min(max(0, count), values.count)
        guard k > 0 else { return [] }
        var best: [(index: Int, value: Float)] = []
        best.reserveCapacity(k + 1)
        for (index, value) in values.enumerated() {
            if best.count == k, let last = best.last, value <= last.value { continue }
            var pos = best.count
            while pos > 0 && best[pos - 1].value < value { pos -= 1 }
            best.insert((index, value), at: pos)
            if best.count > k { best.removeLast() }
        }
        return best.map(\.index)
    }
}

/// A query print's similarity to every group of references (a place's photos), with the two best
/// values, so that the margin of any group over its closest rival is found without another pass.
struct PrintComparison {
    /// The similarity to each group, in group order.
    let values: [Float]
    /// The reference of each group its similarity came from (-1 for a group with no print).
    let bestReferences: [Int]
    /// The reference with the highest similarity (-1 when there are none).
    let bestIndex: Int
    /// The highest similarity, and the second highest (0 when missing).
    let best: Float, second: Float

    init(_ values: [Float], bestReferences: [Int]) {
        self.values = values
        self.bestReferences = bestReferences
        var bestIndex = -1
        var best: Float = 0, second: Float = 0
        for (i, value) in values.enumerated() {
            if bestIndex < 0 || value > best {
                second = bestIndex < 0 ? second : best
                best = value
                bestIndex = i
            } else if value > second {
                second = value
            }
        }
        self.bestIndex = bestIndex
        self.best = best
        self.second = second
    }

    /// The similarity of the most similar reference other than `index`.
    func rival(of index: Int) -> Float {
        index == bestIndex ? second : best
    }
}
