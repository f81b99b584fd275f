/// Vectors kept as one byte per component with a range per row — a quarter of the memory of floats —
/// for scoring a float query against many of them: the rescoring rows of a ``BinaryIVFIndex``, or an
/// exact scan where no index is worth building.
///
/// Row *r* is mapped linearly from its own range `[minᵣ, maxᵣ]` to the codes 0…255, so a stored
/// component is `offsetᵣ + scaleᵣ × code`. Unlike ``Int8FlatIndex`` (one range per dimension, fixed
/// when it is built), a row is quantized on its own, so rows are appended one at a time, and the error of
/// a dot product with a unit query is at most `scaleᵣ / 2 × Σ|qⱼ|`.
public struct QuantizedRows: Sendable {
    /// The number of components of every row.
    public let dimension: Int
    /// The codes, `count × dimension` bytes, row by row.
    public private(set) var codes: [UInt8] = []
    /// `offsetᵣ`: the value code 0 stands for, per row.
    public private(set) var offsets: [Float] = []
    /// `scaleᵣ`: the value step between consecutive codes, per row (0 for a row of equal values).
    public private(set) var scales: [Float] = []

    /// The number of rows.
    public var count: Int { offsets.count }
    /// Bytes held by the codes and the per-row ranges.
    public var memoryBytes: Int { codes.count + offsets.count * 8 }

    /// No rows yet, of `dimension` components each.
    ///
    /// - Precondition: `dimension > 0`.
    public init(dimension: Int) {
        precondition(dimension > 0, "rows need at least one component")
        self.dimension = dimension
    }

    /// Reserves room for `rows` rows in all.
    public mutating func reserveCapacity(_ rows: Int) {
        codes.reserveCapacity(rows * dimension)
        offsets.reserveCapacity(rows)
        scales.reserveCapacity(rows)
    }

    /// Appends each `dimension`-long row of `rows`, quantized.
    ///
    /// A value that is not finite (rows may come from stored bytes) is kept as 0.
    ///
    /// - Precondition: `rows.count` is a multiple of ``dimension``.
    public mutating func append(rows: UnsafeBufferPointer<Float>) {
        precondition(rows.count % dimension == 0, "rows must be whole rows")
        for start in stride(from: 0, to: rows.count, by: dimension) {
            let row = UnsafeBufferPointer(rebasing: rows[start..<(start + dimension)])
            var low = Float.infinity, high = -Float.infinity
            for value in row where value.isFinite {
                low = min(low, value)
                high = max(high, value)
            }
            if !(low <= high) || !(high - low).isFinite { (low, high) = (0, 0) }
            low = min(low, 0)
            high = max(high, 0)
            let scale = (high - low) / 255
            let inverse = scale > 0 ? 1 / scale : 0
            offsets.append(low)
            scales.append(scale)
            for value in row {
                let code = value.isFinite ? ((value - low) * inverse).rounded() : -low * inverse
                codes.append(UInt8(min(255, max(0, code.rounded()))))
            }
        }
    }

    /// Appends each `dimension`-long row of `rows`, quantized (see ``append(rows:)-(UnsafeBufferPointer<Float>)``).
    public mutating func append(rows: [Float]) {
        rows.withUnsafeBufferPointer { append(rows: $0) }
    }

    /// Appends the rows of `other`, as they are.
    ///
    /// - Precondition: `other` has this ``dimension``.
    public mutating func append(_ other: QuantizedRows) {
        precondition(other.dimension == dimension, "rows of another dimension")
        codes += other.codes
        offsets += other.offsets
        scales += other.scales
    }

    /// The decoded (approximate) row `row`.
    public func decoded(_ row: Int) -> [Float] {
        var out: [Float] = []
        decode(row, appendingTo: &out)
        return out
    }

    /// The decoded (approximate) rows of `range`, row after row.
    public func decoded(rows range: Range<Int>) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(range.count * dimension)
        for row in range { decode(row, appendingTo: &out) }
        return out
    }

    /// Appends the decoded (approximate) row `row` to `out`.
    public func decode(_ row: Int, appendingTo out: inout [Float]) {
        let offset = offsets[row], scale = scales[row]
        out.append(contentsOf: codes[(row * dimension)..<((row + 1) * dimension)].lazy.map { offset + scale * Float($0) })
    }

    /// A query made ready for scoring against rows: its values block-permuted for the kernel, and their sum.
    public struct Query: Sendable {
        let permuted: [Float]
        let sum: Float

        /// Prepares `values` for rows of its length.
        public init(_ values: [Float]) {
            permuted = QuantizedKernel.permute(values)
            sum = values.reduce(0, +)
        }
    }

    /// The dot product of `query` with the decoded row `row`.
    ///
    /// - Precondition: the query has ``dimension`` values and `row` is in `0..<count`.
    public func dot(_ query: Query, row: Int) -> Float {
        precondition(query.permuted.count == dimension && row >= 0 && row < count, "row or query out of range")
        return query.permuted.withUnsafeBufferPointer { q in
            codes.withUnsafeBufferPointer { all in
                // Fenced: both hold `dimension` values from their starts (checked above).
                guard let qBase = q.baseAddress, let rows = all.baseAddress else { return 0 }
                return offsets[row] * query.sum
                    + scales[row] * QuantizedKernel.dot(qBase, rows + row * dimension, count: dimension)
            }
        }
    }

    /// Writes the dot product of `query` with each decoded row of `range` into `out`, resized to the
    /// range's length: the exact scan.
    ///
    /// - Precondition: the query has ``dimension`` values and `range` lies in `0..<count`.
    public func dots(_ query: Query, rows range: Range<Int>, into out: inout [Float]) {
        precondition(query.permuted.count == dimension && range.lowerBound >= 0 && range.upperBound <= count,
                     "rows or query out of range")
        if out.count != range.count { out = [Float](repeating: 0, count: range.count) }
        let d = dimension
        query.permuted.withUnsafeBufferPointer { q in
            codes.withUnsafeBufferPointer { all in
                out.withUnsafeMutableBufferPointer { results in
                    // Fenced: every row of `range` holds `d` codes (checked above).
                    guard let qBase = q.baseAddress, let rows = all.baseAddress else { return }
                    for (i, row) in range.enumerated() {
                        results[i] = offsets[row] * query.sum + scales[row] * QuantizedKernel.dot(qBase, rows + row * d, count: d)
                    }
                }
            }
        }
    }
}
