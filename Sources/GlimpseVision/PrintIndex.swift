import GlimpseBasics
public import GlimpseIndex

/// The feature prints of many references, kept small enough for a million of them, and the groups
/// (places) whose prints lie nearest to a query's print.
///
/// Each reference contributes its view prints as rows of ``QuantizedRows`` (one byte per value). A group's
/// similarity is the best of its references' views, as in the matcher's dense comparison. With a
/// ``BinaryIVFModel``, a search probes the lists nearest to the query, ranks their sign codes and rescores
/// the best `shortlist` of them on the quantized rows; without one it scans every row (the exact answer
/// on quantized rows, which the index is measured against).
public struct PrintIndex: Sendable {
    /// A group found for a query: its best reference and that reference's best view similarity.
    public struct Match: Sendable, Equatable {
        /// The group (place) number.
        public let group: Int
        /// The reference whose view was most similar.
        public let reference: Int
        /// That view's similarity to the query (dot product of unit prints).
        public let similarity: Float
    }

    /// How a search through the inverted file runs.
    public struct Search: Sendable, Equatable {
        /// How many lists are probed.
        public var probe: Int
        /// How many codes, best by Hamming distance, are rescored on the quantized rows.
        public var shortlist: Int

        /// Probe `probe` lists and rescore `shortlist` codes.
        public init(probe: Int = 8, shortlist: Int = 512) {
            self.probe = probe
            self.shortlist = shortlist
        }
    }

    /// Every reference view, one row each.
    public let rows: QuantizedRows
    /// The reference each row belongs to.
    public let rowReferences: [UInt32]
    /// The group of each reference.
    public let referenceGroups: [Int32]
    /// The inverted file over the rows (entry ids are row numbers), or `nil` for an exact scan.
    public let ivf: BinaryIVFIndex?
    /// The search settings used with ``ivf``.
    public let search: Search

    /// The number of groups (one more than the largest group number).
    public let groupCount: Int

    /// An index of `rows`, the r-th row a view of reference `rowReferences[r]`, whose group is
    /// `referenceGroups[rowReferences[r]]`; with `model`, each row is assigned and coded (in batches,
    /// from its quantized values) on `threads` threads.
    ///
    /// - Precondition: one reference per row, each naming a reference of `referenceGroups`; groups are
    ///   non-negative; `model` has the rows' dimension.
    public init(
        rows: QuantizedRows, rowReferences: [UInt32], referenceGroups: [Int32], model: BinaryIVFModel?,
        search: Search = Search(), threads: Int = 1
    ) {
        precondition(rowReferences.count == rows.count && rowReferences.allSatisfy { Int($0) < referenceGroups.count }
                     && referenceGroups.allSatisfy { $0 >= 0 }, "every row needs a reference with a group")
        self.rows = rows
        self.rowReferences = rowReferences
        self.referenceGroups = referenceGroups
        self.search = search
        groupCount = Int(referenceGroups.max() ?? -1) + 1
        guard let model else {
            ivf = nil
            return
        }
        precondition(model.dimension == rows.dimension, "the model must have the rows' dimension")
        var builder = BinaryIVFBuilder(model: model)
        let batch = 4_096
        for start in stride(from: 0, to: rows.count, by: batch) {
            let range = start..<min(rows.count, start + batch)
            builder.add(ids: range.map { UInt32($0) }, vectors: rows.decoded(rows: range), threads: threads)
        }
        ivf = builder.finish()
    }

    /// Trains an inverted-file model on at most `sample` rows of `rows` drawn by `seed` (decoded from
    /// their bytes): `clusters` lists, `iterations` rounds of spherical k-means.
    ///
    /// - Precondition: the sample holds at least `clusters` rows.
    public static func trainModel(
        rows: QuantizedRows, clusters: Int, iterations: Int = 8, sample: Int = 65_536, seed: UInt64, threads: Int = 1
    ) -> BinaryIVFModel {
        var picked = Array(0..<rows.count)
        if rows.count > sample {
            var generator = SeededGenerator(seed: seed ^ 0x5052_494E_5449_4458)
            for i in 0..<sample { picked.swapAt(i, i + Int(generator.next() % UInt64(rows.count - i))) }
            picked = picked[..<sample].sorted()
        }
        var vectors: [Float] = []
        vectors.reserveCapacity(picked.count * rows.dimension)
        for row in picked { rows.decode(row, appendingTo: &vectors) }
        return BinaryIVFModel.train(rows: vectors, dimension: rows.dimension, clusters: clusters, iterations: iterations,
                                    sample: picked.count, seed: seed, threads: threads)
    }

    /// The `count` groups nearest to the unit print `query`, most similar first (ties: lower group):
    /// through the inverted file when there is one, otherwise by ``exactNearestGroups(to:count:)``.
    ///
    /// - Precondition: `query.count == rows.dimension`.
    public func nearestGroups(to query: [Float], count: Int) -> [Match] {
        guard let ivf else { return exactNearestGroups(to: query, count: count) }
        let prepared = QuantizedRows.Query(query)
        var best: [Int: Match] = [:]
        for candidate in ivf.shortlist(query, probe: search.probe, shortlist: search.shortlist) {
            let row = candidate.id
            offer(row: row, similarity: rows.dot(prepared, row: row), into: &best)
        }
        return Self.top(best.values, count: count)
    }

    /// The `count` groups nearest to the unit print `query` over every row, most similar first (ties:
    /// lower group).
    ///
    /// - Precondition: `query.count == rows.dimension`.
    public func exactNearestGroups(to query: [Float], count: Int) -> [Match] {
        let prepared = QuantizedRows.Query(query)
        var similarities: [Float] = []
        var bestRow = [Int32](repeating: -1, count: groupCount)
        var bestValue = [Float](repeating: 0, count: groupCount)
        let batch = 8_192
        for start in stride(from: 0, to: rows.count, by: batch) {
            let range = start..<min(rows.count, start + batch)
            rows.dots(prepared, rows: range, into: &similarities)
            for (i, similarity) in similarities.enumerated() {
                let row = range.lowerBound + i
                let group = Int(referenceGroups[Int(rowReferences[row])])
                if bestRow[group] < 0 || similarity > bestValue[group] {
                    bestRow[group] = Int32(row)
                    bestValue[group] = similarity
                }
            }
        }
        var found: [Match] = []
        for group in 0..<groupCount where bestRow[group] >= 0 {
            found.append(Match(group: group, reference: Int(rowReferences[Int(bestRow[group])]), similarity: bestValue[group]))
        }
        return Self.top(found, count: count)
    }

    /// Keeps `row`'s similarity as its group's when it is the group's best so far.
    private func offer(row: Int, similarity: Float, into best: inout [Int: Match]) {
        let reference = Int(rowReferences[row])
        let group = Int(referenceGroups[reference])
        if let known = best[group], known.similarity >= similarity { return }
        best[group] = Match(group: group, reference: reference, similarity: similarity)
    }

    /// The `count` most similar of `matches`, ties by group.
    private static func top<S: Sequence<Match>>(_ matches: S, count: Int) -> [Match] {
        Array(matches.sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.group < $1.group }
            .prefix(max(0, count)))
    }
}
