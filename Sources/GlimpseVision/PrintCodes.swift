import GlimpseIndex
import GlimpseFiles

/// A segment's reference views kept as one-bit sign codes in an inverted file, for catalogs whose prints
/// as floats would not fit: 10⁶ references of 7 views of 1,280 values are 35.8 GB as floats, and here
/// 1.2 GB (a 160-byte code, a 4-byte entry id, a 4-byte scale and a 4-byte position per view).
///
/// Views and queries are first turned by one fixed rotation (``PrintRotation``), which keeps their dot
/// products and spreads each print over every component. A rotated view `v` is coded about the model's centre `c`: bit *j* says whether `vⱼ > cⱼ`. It is read back as
/// `v̂`, each component the mean of the training views' values on its side of the centre (`hⱼ` above,
/// `lⱼ` at or below: one-bit scalar quantization). With `x = v − c` and `x̂ = v̂ − c`, a query `q`'s
/// similarity is estimated as `q·c + σ q·x̂` with the view's own factor `σ = |x|² / x·x̂`: the estimator of
/// RaBitQ (Gao and Long, 2024), which is unbiased when the quantization error is not aligned with the query
/// (what the rotation is for) and exact for the view itself. `q·x̂` is a sum of table lookups, one per
/// code byte.
///
/// A search probes the lists whose centroids are nearest to the query, ranks their codes by Hamming
/// distance to the query's code, and estimates the best ``Search/shortlist`` of them. No float rows are
/// kept anywhere, so the estimate is the similarity the matcher decides with.
struct PrintCodes: Sendable {
    /// How a search through the inverted file runs.
    struct Search: Sendable, Equatable {
        /// How many lists are probed.
        var probe: Int
        /// How many codes, nearest by Hamming distance, are estimated.
        var shortlist: Int
    }

    /// The lists and codes; entry ids are view (row) numbers.
    let index: BinaryIVFIndex
    /// Each component's reading below and above the centre: `l₀ … l_{d−1}`, then `h₀ … h_{d−1}`.
    let levels: [Float]
    /// Each view's factor `σ`, in row order.
    let scales: [Float]
    /// The entry (position in ``BinaryIVFIndex/entryIDs``) of each row.
    let rowEntries: [UInt32]
    /// The rotation views and queries are turned by (the model lives in the rotated space).
    let rotation: PrintRotation

    /// The number of views coded.
    var count: Int { scales.count }
    /// The values per view.
    var dimension: Int { index.model.dimension }

    /// Codes from their parts (as a builder or an index file holds them), with each row's entry derived.
    ///
    /// - Precondition: two levels per dimension, one scale per entry, and the entry ids a permutation of
    ///   the rows (a loader checks that before calling).
    init(index: BinaryIVFIndex, levels: [Float], scales: [Float]) {
        precondition(levels.count == 2 * index.model.dimension && scales.count == index.count, "codes need their parts")
        self.index = index
        self.levels = levels
        self.scales = scales
        var entries = [UInt32](repeating: 0, count: index.count)
        for (entry, row) in index.entryIDs.enumerated() { entries[Int(row)] = UInt32(entry) }
        rowEntries = entries
        rotation = PrintRotation(dimension: index.model.dimension)
    }

    /// Whether `entryIDs` name every row of `count` exactly once (what ``init(index:levels:scales:)`` needs).
    static func isPermutation(_ entryIDs: [UInt32], count: Int) -> Bool {
        guard entryIDs.count == count else { return false }
        var seen = [Bool](repeating: false, count: count)
        for row in entryIDs {
            guard Int(row) < count, !seen[Int(row)] else { return false }
            seen[Int(row)] = true
        }
        return true
    }

    /// The lists for `views` rows: one per 2,048 views, from 1 to 256 (256 keeps assigning 7·10⁶ views
    /// to minutes on two cores; probing 8 of them then reads 3 % of the codes).
    static func listCount(views: Int) -> Int { max(1, min(256, views / 2_048)) }

    /// The model (centroids and centre) and the levels trained on the unit views `sample` (`count ×
    /// dimension`; the model on at most ``trainingViews`` of them), with `seed`.
    static func train(sample unrotated: [Float], dimension: Int, views: Int, seed: UInt64, threads: Int) -> (BinaryIVFModel, [Float]) {
        let sample = PrintRotation(dimension: dimension).rotated(rows: unrotated, threads: threads)
        let rows = sample.count / dimension
        let model = BinaryIVFModel.train(
            rows: sample, dimension: dimension, clusters: min(rows, listCount(views: views)), iterations: 8,
            sample: trainingViews, seed: seed, threads: threads)
        var sums = [Double](repeating: 0, count: 2 * dimension), counts = [Int](repeating: 0, count: 2 * dimension)
        for r in 0..<rows {
            for j in 0..<dimension {
                let value = sample[r * dimension + j]
                let side = value > model.centre[j] ? dimension + j : j
                sums[side] += Double(value)
                counts[side] += 1
            }
        }
        // A side no training view fell on reads as the centre.
        let levels = (0..<(2 * dimension)).map { k in
            counts[k] > 0 ? Float(sums[k] / Double(counts[k])) : model.centre[k % dimension]
        }
        return (model, levels)
    }

    /// The most views a model is trained on.
    static let trainingViews = 65_536

    /// The factor `σ = |x|² / x·x̂` of the (rotated) view `v`, with `x = v − c` and `x̂` its reading less
    /// the centre (0 when the reading does not point along `x`: the estimate is then `q·c`).
    static func scale(of v: UnsafeBufferPointer<Float>, centre: [Float], levels: [Float]) -> Float {
        let d = v.count
        var along = 0.0, length = 0.0
        for j in 0..<d {
            let x = Double(v[j]) - Double(centre[j])
            let read = Double(levels[v[j] > centre[j] ? d + j : j]) - Double(centre[j])
            along += x * read
            length += x * x
        }
        return along > 0 ? Float(length / along) : 0
    }

    /// A query made ready for estimates: `q·c`, `Σ qⱼ(lⱼ − cⱼ)`, and per code byte the sum of `qⱼ(hⱼ − lⱼ)`
    /// over the bits each of its 256 values sets.
    struct Query {
        let centreDot: Float
        let base: Float
        let tables: [Float]
        let vector: [Float]

        init(_ query: [Float], centre: [Float], levels: [Float]) {
            let d = query.count
            let bytes = SignCodes.words(dimension: d) * 8
            var weight = [Float](repeating: 0, count: bytes * 8)
            var base: Float = 0, centreDot: Float = 0
            for j in 0..<d {
                weight[j] = query[j] * (levels[d + j] - levels[j])
                base += query[j] * (levels[j] - centre[j])
                centreDot += query[j] * centre[j]
            }
            var tables = [Float](repeating: 0, count: bytes * 256)
            for p in 0..<bytes {
                let t = p * 256
                for b in 1..<256 {
                    tables[t + b] = tables[t + (b & (b - 1))] + weight[8 * p + b.trailingZeroBitCount]
                }
            }
            self.centreDot = centreDot
            self.base = base
            self.tables = tables
            self.vector = query
        }

        /// `q·x̂` for the code at `words[start...]`.
        @inline(__always)
        func dot(code words: UnsafeBufferPointer<UInt64>, start: Int, wordCount: Int) -> Float {
            var sum = base
            tables.withUnsafeBufferPointer { t in
                for w in 0..<wordCount {
                    var word = words[start + w]
                    var offset = w * 8 * 256
                    for _ in 0..<8 {
                        sum += t[offset + Int(word & 0xFF)]
                        word >>= 8
                        offset += 256
                    }
                }
            }
            return sum
        }
    }

    /// The query `query` (a unit print of the codes' dimension) rotated and prepared for ``estimate(_:row:)``.
    func prepare(_ query: [Float]) -> Query {
        Query(query.withUnsafeBufferPointer { rotation.rotated($0) }, centre: index.model.centre, levels: levels)
    }

    /// The estimated similarity of the prepared query to row `row`.
    func estimate(_ query: Query, row: Int) -> Float {
        let words = index.model.codeWords
        let entry = Int(rowEntries[row])
        return index.codes.withUnsafeBufferPointer { codes in
            query.centreDot + scales[row] * query.dot(code: codes, start: entry * words, wordCount: words)
        }
    }

    /// What row `row`'s code reads back as, in the prints' own space and of unit length: `c + σ·x̂`
    /// turned back by the rotation and normalised. An approximation of the view (one bit per component),
    /// for measuring a catalog's views against each other: its similarities to other coded views come out
    /// a little low (the reading's error lengthens it; unnormalised they come out high, as the largest of
    /// several noisy estimates is picked), which errs towards the catalog's own line.
    func reading(row: Int) -> [Float] {
        let d = dimension, words = index.model.codeWords
        let start = Int(rowEntries[row]) * words
        let centre = index.model.centre
        var rotated = [Float](repeating: 0, count: d)
        for j in 0..<d {
            let high = index.codes[start + j >> 6] >> UInt64(j & 63) & 1 == 1
            rotated[j] = centre[j] + scales[row] * (levels[high ? d + j : j] - centre[j])
        }
        let view = rotation.unrotated(rotated)
        let norm = view.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? view.map { $0 / norm } : view
    }

    /// The rows whose codes lie nearest the query in its `search.probe` nearest lists (at most
    /// `search.shortlist` of them), each with its estimated similarity.
    func nearestRows(_ query: Query, search: Search) -> [(row: Int, similarity: Float)] {
        index.shortlist(query.vector, probe: search.probe, shortlist: search.shortlist).map { candidate in
            (candidate.id, estimate(query, row: candidate.id))
        }
    }

    /// Asks for the codes and their lists to be backed by huge pages (``HugePages``).
    func adviseHugePages() {
        HugePages.advise(index.codes)
        HugePages.advise(index.entryIDs)
        HugePages.advise(scales)
        HugePages.advise(rowEntries)
    }

    /// Bytes held.
    var memoryBytes: Int {
        index.codes.count * 8 + index.entryIDs.count * 4 + index.listStarts.count * 8 + index.model.centroids.count * 4
            + scales.count * 4 + rowEntries.count * 4 + levels.count * 4
    }

    /// The list each entry is in, in entry order.
    var entryLists: [Int32] {
        var lists = [Int32](repeating: 0, count: index.count)
        for list in 0..<index.model.clusters {
            for entry in index.listStarts[list]..<index.listStarts[list + 1] { lists[entry] = Int32(list) }
        }
        return lists
    }
}

/// Codes a segment's views as they come (``PrintCodes``): once trained, each batch of float views is
/// assigned to lists and coded, and never held as floats again.
struct PrintCodesBuilder {
    let levels: [Float]
    let rotation: PrintRotation
    private var ivf: BinaryIVFBuilder
    private var scales: [Float] = []

    /// The model's dimension.
    var dimension: Int { ivf.model.dimension }
    /// The number of views coded so far.
    var count: Int { scales.count }
    /// The model views are coded with.
    var model: BinaryIVFModel { ivf.model }

    init(model: BinaryIVFModel, levels: [Float]) {
        self.ivf = BinaryIVFBuilder(model: model)
        self.levels = levels
        rotation = PrintRotation(dimension: model.dimension)
    }

    /// Codes the unit views `views` (whole rows), the next rows in order, on `threads` threads.
    mutating func add(views unrotated: [Float], threads: Int) {
        let d = dimension
        let views = rotation.rotated(rows: unrotated, threads: threads)
        let n = views.count / d
        guard n > 0 else { return }
        let first = UInt32(count)
        ivf.add(ids: (0..<n).map { first + UInt32($0) }, vectors: views, threads: threads)
        let centre = ivf.model.centre
        views.withUnsafeBufferPointer { all in
            for r in 0..<n {
                scales.append(PrintCodes.scale(of: UnsafeBufferPointer(rebasing: all[(r * d)..<((r + 1) * d)]),
                                               centre: centre, levels: levels))
            }
        }
    }

    /// Adds row `count` already coded (`code` in `list`, with `scale`).
    mutating func add(list: Int, code: ArraySlice<UInt64>, scale: Float) {
        ivf.add(id: UInt32(count), list: list, code: code)
        scales.append(scale)
    }

    /// The codes of every view added.
    func finish() -> PrintCodes {
        PrintCodes(index: ivf.finish(), levels: levels, scales: scales)
    }
}
