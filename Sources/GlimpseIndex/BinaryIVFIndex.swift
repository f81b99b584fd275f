/// An inverted-file index of unit vectors kept as one-bit sign codes, for searching millions of
/// vectors in little memory: a query's most similar centroids name the lists to probe, the codes in
/// them are ranked by Hamming distance to the query's code, and the best of those are rescored exactly
/// by the caller (from wherever it keeps the vectors: quantized rows in a mapped file, for instance),
/// so the index itself holds `codeWords × 8 + 4` bytes per vector.
///
/// With every list probed and every code rescored, a search is exact: the approximation lies only in
/// `probe` and `shortlist`.
public struct BinaryIVFIndex: Sendable {
    /// The centroids and the centre of the codes.
    public let model: BinaryIVFModel
    /// Where each list starts in ``entryIDs`` (`clusters + 1` values, the last the entry count).
    public let listStarts: [Int]
    /// The entries' ids, list by list.
    public let entryIDs: [UInt32]
    /// The entries' codes (``BinaryIVFModel/codeWords`` words each), in the order of ``entryIDs``.
    public let codes: [UInt64]

    /// The number of vectors indexed.
    public var count: Int { entryIDs.count }

    /// Indexes the unit vectors `vectors` (`ids.count × dimension`), the i-th under `ids[i]`: each goes to
    /// the list of its most similar centroid, with its sign code. Lists keep the order of `ids`.
    ///
    /// - Precondition: `vectors.count == ids.count × model.dimension`.
    public init(model: BinaryIVFModel, ids: [UInt32], vectors: [Float], threads: Int = 1) {
        var builder = BinaryIVFBuilder(model: model)
        builder.add(ids: ids, vectors: vectors, threads: threads)
        self = builder.finish()
    }

    /// An index from its parts (as a file holds them).
    ///
    /// - Precondition: `listStarts` has `clusters + 1` non-decreasing values from 0 to `entryIDs.count`,
    ///   and `codes` one code per entry.
    public init(model: BinaryIVFModel, listStarts: [Int], entryIDs: [UInt32], codes: [UInt64]) {
        precondition(listStarts.count == model.clusters + 1 && listStarts.first == 0 && listStarts.last == entryIDs.count
                     && zip(listStarts, listStarts.dropFirst()).allSatisfy { $0 <= $1 }
                     && codes.count == entryIDs.count * model.codeWords, "inconsistent inverted lists")
        self.model = model
        self.listStarts = listStarts
        self.entryIDs = entryIDs
        self.codes = codes
    }

    /// The `shortlist` entries of the `probe` lists nearest to `query` whose codes lie nearest to the
    /// query's code, nearest first (ties by id); `distance` is the Hamming distance.
    ///
    /// - Precondition: `query.count == model.dimension`.
    public func shortlist(_ query: [Float], probe: Int, shortlist: Int) -> [Neighbor] {
        precondition(query.count == model.dimension, "query dimension mismatch")
        guard var top = try? TopK(k: max(0, shortlist)) else { return [] }
        var code = [UInt64](repeating: 0, count: model.codeWords)
        let lists = query.withUnsafeBufferPointer { q in
            SignCodes.encode(q, about: model.centre, into: &code)
            return model.nearestClusters(of: q, count: probe)
        }
        var distances: [UInt16] = []
        let words = model.codeWords
        codes.withUnsafeBufferPointer { all in
            for list in lists {
                let lo = listStarts[list], hi = listStarts[list + 1]
                guard hi > lo else { continue }
                SignCodes.distances(from: code, to: UnsafeBufferPointer(rebasing: all[(lo * words)..<(hi * words)]),
                                    into: &distances)
                let threshold = top.threshold
                for (i, d) in distances.enumerated() where Float(d) <= threshold {
                    top.offer(id: Int(entryIDs[lo + i]), distance: Float(d))
                }
            }
        }
        return top.drainSorted()
    }

    /// The `k` entries most similar to `query`: the ``shortlist(_:probe:shortlist:)`` rescored by
    /// `score` (the exact similarity of an id, or `nil` to drop it, for an entry deleted or unreadable),
    /// most similar first, ties by id; `distance` is the negated score.
    public func search(
        _ query: [Float], k: Int, probe: Int, shortlist size: Int, score: (UInt32) -> Float?
    ) -> [Neighbor] {
        guard var top = try? TopK(k: max(0, k)) else { return [] }
        for candidate in shortlist(query, probe: probe, shortlist: size) {
            if let similarity = score(UInt32(candidate.id)) { top.offer(id: candidate.id, distance: -similarity) }
        }
        return top.drainSorted()
    }
}
