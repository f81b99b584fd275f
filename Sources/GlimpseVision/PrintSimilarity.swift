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

/// A query print's similarity to every group of references that has a print (a place's photos), with the
/// two best values, so that the margin of any group over its closest rival is found without another pass.
///
/// Only groups with prints are held, so a catalog of many groups without prints costs each query nothing
/// beyond its prints; a segment that keeps its prints as codes contributes only the groups its inverted
/// file finds nearest (and those a query asks for by name), so the comparison stays short at 10⁶ groups.
struct PrintComparison {
    /// The groups with a print that counts, ascending.
    let groups: [Int]
    /// Each of those groups' similarity (its best reference view, at least 0), in the same order.
    let values: [Float]
    /// The reference each similarity came from, in the same order.
    let references: [Int]
    /// The group with the highest similarity (-1 when there are none).
    let bestIndex: Int
    /// The highest similarity, and the second highest (0 when missing).
    let best: Float, second: Float

    /// A comparison over `groups` (ascending) with their `values` and best `references`.
    init(groups: [Int], values: [Float], references: [Int]) {
        self.groups = groups
        self.values = values
        self.references = references
        var bestPosition = -1
        var best: Float = 0, second: Float = 0
        for (i, value) in values.enumerated() {
            if bestPosition < 0 || value > best {
                second = bestPosition < 0 ? second : best
                best = value
                bestPosition = i
            } else if value > second {
                second = value
            }
        }
        self.bestIndex = bestPosition < 0 ? -1 : groups[bestPosition]
        self.best = best
        self.second = second
    }

    /// Where `group` lies in ``groups``, or `nil` when it has no print.
    private func position(of group: Int) -> Int? {
        var lo = 0, hi = groups.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if groups[mid] < group { lo = mid + 1 } else { hi = mid }
        }
        return lo < groups.count && groups[lo] == group ? lo : nil
    }

    /// The similarity of `group` (0 for a group without a print).
    func value(ofGroup group: Int) -> Float { position(of: group).map { values[$0] } ?? 0 }

    /// The reference `group`'s similarity came from, or -1 for a group without a print.
    func reference(ofGroup group: Int) -> Int { position(of: group).map { references[$0] } ?? -1 }

    /// The `count` most similar groups, most similar first (ties: lower group first).
    func top(_ count: Int) -> [Int] { PrintSimilarity.top(values, count: count).map { groups[$0] } }

    /// The similarity of the most similar group other than `group`.
    func rival(of group: Int) -> Float {
        group == bestIndex ? second : best
    }
}
