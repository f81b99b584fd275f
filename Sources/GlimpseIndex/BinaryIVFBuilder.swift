/// Fills a ``BinaryIVFIndex`` batch by batch, so that the vectors never need to be held at once (a
/// million references' view prints as floats would take 36 GB): each batch is assigned to its lists and
/// sign-coded as it comes, and ``finish()`` sorts the entries into their lists.
///
/// The index is the same as ``BinaryIVFIndex/init(model:ids:vectors:threads:)`` over all the batches
/// in order.
public struct BinaryIVFBuilder: Sendable {
    /// The model every batch is assigned and coded with.
    public let model: BinaryIVFModel
    private var lists: [Int32] = []
    private var ids: [UInt32] = []
    private var codes: [UInt64] = []

    /// The number of vectors added.
    public var count: Int { ids.count }

    /// An empty builder for `model`.
    public init(model: BinaryIVFModel) {
        self.model = model
    }

    /// Adds the unit vectors `vectors` (`ids.count × dimension`), the i-th under `ids[i]`.
    ///
    /// - Precondition: `vectors.count == ids.count × model.dimension`.
    public mutating func add(ids batchIDs: [UInt32], vectors: [Float], threads: Int = 1) {
        let dimension = model.dimension
        precondition(vectors.count == batchIDs.count * dimension, "one vector per id")
        lists += KMeans.assign(rows: vectors, dimension: dimension, centroids: model.centroids, threads: threads).cluster
        ids += batchIDs
        var code = [UInt64](repeating: 0, count: model.codeWords)
        vectors.withUnsafeBufferPointer { all in
            for i in batchIDs.indices {
                SignCodes.encode(UnsafeBufferPointer(rebasing: all[(i * dimension)..<((i + 1) * dimension)]),
                                 about: model.centre, into: &code)
                codes += code
            }
        }
    }

    /// Adds one vector already assigned and coded: `code` (``BinaryIVFModel/codeWords`` words) in list
    /// `list`, under `id` (how an index is rebuilt from another index's entries without their vectors).
    ///
    /// - Precondition: `list` is one of the model's lists and `code` has the model's code length.
    public mutating func add(id: UInt32, list: Int, code: ArraySlice<UInt64>) {
        precondition(list >= 0 && list < model.clusters && code.count == model.codeWords, "a coded entry of this model")
        lists.append(Int32(list))
        ids.append(id)
        codes += code
    }

    /// The index of every vector added, list by list, each list in the order of addition.
    public func finish() -> BinaryIVFIndex {
        var starts = [Int](repeating: 0, count: model.clusters + 1)
        for list in lists { starts[Int(list) + 1] += 1 }
        for c in 0..<model.clusters { starts[c + 1] += starts[c] }
        var next = Array(starts.dropLast())
        let words = model.codeWords
        var sortedIDs = [UInt32](repeating: 0, count: ids.count)
        var sortedCodes = [UInt64](repeating: 0, count: codes.count)
        for (i, list) in lists.enumerated() {
            let slot = next[Int(list)]
            next[Int(list)] += 1
            sortedIDs[slot] = ids[i]
            for w in 0..<words { sortedCodes[slot * words + w] = codes[i * words + w] }
        }
        return BinaryIVFIndex(model: model, listStarts: starts, entryIDs: sortedIDs, codes: sortedCodes)
    }
}
