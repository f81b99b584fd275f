import CGlimpseVisionKernels
import GlimpseBasics
import GlimpseFiles

/// Locality-sensitive hashing over 256-bit descriptors: each table keys a descriptor by a fixed
/// subset of its bits, so near descriptors tend to share a bucket in at least one table.
///
/// Buckets are stored in compressed-row form (one offsets array and one entries array per table).
/// The number of key bits grows with the number of descriptors (about ``targetBucketLoad`` descriptors per bucket,
/// never fewer than the configured bits), so the work per lookup stays roughly constant as the
/// index grows.
public struct LSHIndex: Sendable {
    /// Number of tables.
    public let tableCount: Int
    /// Key bits per table.
    public let bits: Int
    /// For each table, the descriptor bit positions (0...255) that form its key (`bits` per table), as the
    /// lookup kernel reads them.
    let positions: [Int32]
    /// For each table, `2^bits + 1` bucket start offsets into that table's part of `entries`.
    let starts: [UInt32]
    /// For each table, `n` descriptor indices grouped by bucket.
    let entries: [UInt32]
    /// The number of indexed descriptors.
    public let count: Int
    /// The crowded buckets' descriptors in contiguous runs (``copyingCrowdedBuckets(of:over:upTo:)``), or `nil`.
    private(set) var crowded: CrowdedBuckets?

    /// Copies of the descriptors of every bucket with more than `line` and at most `cap` entries, each bucket's
    /// in its entry order in one run, so that a lookup reads a crowded bucket at memory speed instead of one
    /// cache miss per entry. Derived from the indexed descriptors, never stored.
    struct CrowdedBuckets: Sendable {
        /// Buckets of more than this many entries are copied...
        let line: Int
        /// ...up to this many.
        let cap: Int
        /// For each table and bucket (`tableCount × 2^bits`), the descriptor at which its run starts in
        /// `words` (meaningful for copied buckets only).
        let starts: [UInt32]
        /// The runs, four words a descriptor.
        let words: [UInt64]
    }

    /// Builds an index over every descriptor in `words` (four words each).
    ///
    /// - Parameters:
    ///   - tables: the number of tables.
    ///   - minimumBits: the fewest key bits per table.
    ///   - seed: chooses the bit positions deterministically.
    public init(words: [UInt64], tables: Int, minimumBits: Int, seed: UInt64 = 0x4c53_4831) {
        let n = words.count / 4
        var bits = minimumBits
        while bits < 24 && (n >> bits) > Self.targetBucketLoad { bits += 1 }
        // Key bits are chosen greedily on a sample of the indexed descriptors: each table adds,
        // one at a time, the unused bit that keeps its buckets most even (least sum of squared
        // bucket sizes). Even buckets keep the work per lookup close to n / 2^bits even though
        // binary descriptors are far from uniformly distributed.
        let chosen = Self.chooseBits(words: words, count: n, tables: tables, bits: bits, seed: seed)
        self.init(words: words, tables: tables, bits: bits, positions: chosen.flatMap { $0 })
    }

    /// An index over `words` keyed by the bit positions `base` chose, each table's list cut to the
    /// key length that suits `words`' size (about ``targetBucketLoad`` descriptors per bucket).
    ///
    /// Building it costs one pass over `words`, not a new choice of bits: this is how a matcher indexes
    /// references added to a catalog while it serves (the positions were chosen greedily, most even
    /// first, so a prefix of each table's list is itself a good key).
    public init(words: [UInt64], sharingBitsOf base: LSHIndex) {
        let n = words.count / 4
        var bits = min(base.bits, 4)
        while bits < base.bits && (n >> bits) > Self.targetBucketLoad { bits += 1 }
        var positions: [Int] = []
        positions.reserveCapacity(base.tableCount * bits)
        for t in 0..<base.tableCount {
            positions.append(contentsOf: base.positions[(t * base.bits)..<(t * base.bits + bits)].map { Int($0) })
        }
        self.init(words: words, tables: base.tableCount, bits: bits, positions: positions)
    }

    /// An index from its stored parts (a matcher index file's, checked by its loader to be in range).
    init(tableCount: Int, bits: Int, positions: [Int32], starts: [UInt32], entries: [UInt32], count: Int) {
        self.tableCount = tableCount
        self.bits = bits
        self.positions = positions
        self.starts = starts
        self.entries = entries
        self.count = count
    }

    /// Fills the buckets of `tables` tables keyed by `positions` (`bits` per table).
    private init(words: [UInt64], tables: Int, bits: Int, positions: [Int]) {
        let n = words.count / 4
        self.tableCount = tables
        self.bits = bits
        self.positions = positions.map { Int32(truncatingIfNeeded: $0) }
        self.count = n
        let buckets = 1 << bits
        var starts = [UInt32](repeating: 0, count: tables * (buckets + 1))
        var entries = [UInt32](repeating: 0, count: tables * n)
        var keys = [UInt32](repeating: 0, count: n)
        var counts = [UInt32](repeating: 0, count: buckets + 1)
        var fill = [UInt32](repeating: 0, count: buckets + 1)
        words.withUnsafeBufferPointer { w in
            positions.withUnsafeBufferPointer { pos in
                for t in 0..<tables {
                    let tablePositions = UnsafeBufferPointer(rebasing: pos[(t * bits)..<((t + 1) * bits)])
                    for b in 0...buckets { counts[b] = 0 }
                    for i in 0..<n {
                        let k = Self.key(w, i, tablePositions)
                        keys[i] = k
                        counts[Int(k) + 1] += 1
                    }
                    for b in 0..<buckets { counts[b + 1] += counts[b] }
                    for b in 0...buckets { fill[b] = counts[b] }
                    for i in 0..<n {
                        let k = Int(keys[i])
                        entries[t * n + Int(fill[k])] = UInt32(i)
                        fill[k] += 1
                    }
                    for b in 0...buckets { starts[t * (buckets + 1) + b] = counts[b] }
                }
            }
        }
        self.starts = starts
        self.entries = entries
    }

    /// Greedy bit selection (see `init`); tables use disjoint bits while enough remain.
    static func chooseBits(words: [UInt64], count n: Int, tables: Int, bits: Int, seed: UInt64) -> [[Int]] {
        var rng = SeededGenerator(seed: seed)
        let sampleSize = min(n, 8192)
        var sample: [Int] = []
        sample.reserveCapacity(sampleSize)
        if n <= sampleSize { sample = Array(0..<n) } else {
            for _ in 0..<sampleSize { sample.append(Int(rng.next() % UInt64(n))) }
        }
        // Bits of every sampled descriptor, unpacked once: bitsOf[p][s] is bit p of sample s.
        var bitsOf = [[UInt32]](repeating: [UInt32](repeating: 0, count: sample.count), count: 256)
        for (si, i) in sample.enumerated() {
            for p in 0..<256 { bitsOf[p][si] = UInt32(truncatingIfNeeded: (words[4 * i + (p >> 6)] >> UInt64(p & 63)) & 1) }
        }
        var used = Set<Int>()
        var result: [[Int]] = []
        var histogram = [Int32](repeating: 0, count: 1 << min(bits, 16))
        for _ in 0..<tables {
            if used.count + bits > 256 { used.removeAll() }
            var keys = [UInt32](repeating: 0, count: sample.count)
            var chosen: [Int] = []
            // A seeded random start bit makes the tables differ even on tiny samples.
            var first = Int(rng.next() % 256)
            while used.contains(first) { first = (first + 1) % 256 }
            chosen.append(first)
            used.insert(first)
            for s in 0..<sample.count { keys[s] = bitsOf[first][s] }
            while chosen.count < bits {
                let level = min(chosen.count + 1, 16)
                let mask = UInt32((1 << level) - 1)
                var bestBit = -1
                var bestCost = Int.max
                for p in 0..<256 where !used.contains(p) {
                    for b in 0..<(1 << level) { histogram[b] = 0 }
                    var cost = 0
                    bitsOf[p].withUnsafeBufferPointer { bp in
                        keys.withUnsafeBufferPointer { kp in
                            histogram.withUnsafeMutableBufferPointer { h in
                                for s in 0..<kp.count {
                                    let k = Int(((kp[s] << 1) | bp[s]) & mask)
                                    cost &+= Int(h[k]) &* 2 &+ 1  // running sum of squares
                                    h[k] &+= 1
                                }
                            }
                        }
                    }
                    if cost < bestCost { bestCost = cost; bestBit = p }
                }
                guard bestBit >= 0 else { break }
                chosen.append(bestBit)
                used.insert(bestBit)
                for s in 0..<sample.count { keys[s] = (keys[s] << 1) | bitsOf[bestBit][s] }
            }
            // Keys are formed in `key(_:_:_:)` with the first position as bit 0; order does not matter.
            result.append(chosen)
        }
        return result
    }

    /// Average descriptors per bucket the key length is chosen for.
    public static let targetBucketLoad = 8

    /// The average number of entries scanned per table when looking up an indexed descriptor
    /// (sum of squared bucket sizes over entries): a measure of how even the buckets are.
    public var meanScannedPerTable: Double {
        let buckets = 1 << bits
        var total = 0.0
        for t in 0..<tableCount {
            var squares = 0.0
            for b in 0..<buckets {
                let c = Double(starts[t * (buckets + 1) + b + 1] - starts[t * (buckets + 1) + b])
                squares += c * c
            }
            total += squares / Double(max(1, count))
        }
        return total / Double(max(1, tableCount))
    }

    @inline(__always)
    static func key(_ words: UnsafeBufferPointer<UInt64>, _ index: Int, _ positions: UnsafeBufferPointer<Int>) -> UInt32 {
        var k: UInt32 = 0
        let base = index &* 4
        for j in 0..<positions.count {
            let p = positions[j]
            k |= UInt32(truncatingIfNeeded: (words[base &+ (p &>> 6)] &>> UInt64(p & 63)) & 1) &<< UInt32(j)
        }
        return k
    }

    /// For every descriptor of `queries`, the nearest indexed descriptor among those sharing a
    /// bucket with it in any table: its index and distance, or index -1 when every bucket was
    /// empty (or skipped).
    ///
    /// - Parameters:
    ///   - references: the same descriptor words the index was built from.
    ///   - bucketCap: buckets with more entries than this are skipped (0 = none skipped).
    ///   - tables: look in the first this many tables only (nil: all of them).
    public func nearest(
        queries: [UInt64], references: [UInt64], bucketCap: Int = 0, tables: Int? = nil
    ) -> [(index: Int32, distance: UInt32)] {
        precondition(references.count == 4 * count, "references must be the indexed descriptors")
        let m = queries.count / 4
        let cap = bucketCap > 0 ? bucketCap : Int.max
        let tablesUsed = min(tableCount, max(1, tables ?? tableCount))
        var index = [Int32](repeating: -1, count: m)
        var distance = [UInt32](repeating: 257, count: m)
        guard m > 0 else { return [] }
        queries.withUnsafeBufferPointer { q in
            references.withUnsafeBufferPointer { r in
                entries.withUnsafeBufferPointer { en in
                    starts.withUnsafeBufferPointer { st in
                        positions.withUnsafeBufferPointer { pos in
                            index.withUnsafeMutableBufferPointer { bi in
                                distance.withUnsafeMutableBufferPointer { bd in
                                    // Fenced: entries hold indices < count, so every descriptor the kernel reads is
                                    // in `r`; keys index `starts` within each table's 2^bits + 1 offsets.
                                    guard let qb = q.baseAddress, let rb = r.baseAddress, let eb = en.baseAddress,
                                          let sb = st.baseAddress, let pb = pos.baseAddress, let bip = bi.baseAddress,
                                          let bdp = bd.baseAddress else { return }
                                    Self.withCrowdedRuns(crowded) { copies, copyStarts, line, copyCap in
                                        glimpse_lsh_nearest(
                                            qb, m, rb, eb, sb, pb, Int32(tablesUsed), Int32(bits), count, cap,
                                            copies, copyStarts, line, copyCap, bip, bdp)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (0..<m).map { (index[$0], distance[$0]) }
    }

    /// Calls `body` with the crowded buckets' runs, their starts, line and cap (`nil` pointers and zeros
    /// without copies), for the lookup kernel.
    private static func withCrowdedRuns(
        _ crowded: CrowdedBuckets?,
        _ body: (UnsafePointer<UInt64>?, UnsafePointer<UInt32>?, Int, Int) -> Void
    ) {
        guard let crowded, !crowded.words.isEmpty else { return body(nil, nil, 0, 0) }
        crowded.words.withUnsafeBufferPointer { runs in
            crowded.starts.withUnsafeBufferPointer { runStarts in
                body(runs.baseAddress, runStarts.baseAddress, crowded.line, crowded.cap)
            }
        }
    }

    /// Asks for the tables and the crowded buckets' copies to be backed by huge pages (``HugePages``): a lookup
    /// reads them at random.
    func adviseHugePages() {
        HugePages.advise(starts)
        HugePages.advise(entries)
        if let crowded {
            HugePages.advise(crowded.starts)
            HugePages.advise(crowded.words)
        }
    }

    /// Bytes held by the tables (offsets and entries) and the crowded buckets' copies.
    public var memoryBytes: Int {
        (starts.count + entries.count + (crowded?.starts.count ?? 0)) * MemoryLayout<UInt32>.size
            + (crowded?.words.count ?? 0) * MemoryLayout<UInt64>.size
    }

    /// This index with the descriptors of every bucket holding more than `line` and at most `cap` entries
    /// copied into contiguous runs (none when `line` is 0 or `cap` is not above it): a lookup then scans such
    /// a bucket in one sequential read, with the same answer, so buckets too crowded to scan entry by entry
    /// (``VisionConfiguration/lshContiguousBucketLine``) can be searched instead of skipped.
    ///
    /// - Parameter words: the descriptors the index was built from (four words each).
    public func copyingCrowdedBuckets(of words: [UInt64], over line: Int, upTo cap: Int) -> LSHIndex {
        precondition(words.count == 4 * count, "words must be the indexed descriptors")
        var copy = self
        copy.crowded = nil
        guard line > 0, cap > line else { return copy }
        let buckets = 1 << bits
        // The kernel's own test (`LSH_COPIED`): which buckets have a run.
        func copied(_ size: Int) -> Bool { size > line && size <= cap }
        var runStarts = [UInt32](repeating: 0, count: tableCount * buckets)
        var total = 0
        for t in 0..<tableCount {
            let base = t * (buckets + 1)
            for b in 0..<buckets {
                let size = Int(starts[base + b + 1] &- starts[base + b])
                guard copied(size) else { continue }
                // All or nothing: a run that a 32-bit start cannot name leaves the index without copies.
                guard total <= Int(UInt32.max) else { return copy }
                runStarts[t * buckets + b] = UInt32(total)
                total += size
            }
        }
        // No bucket that crowded: nothing to copy, and no table of run starts to hold.
        guard total > 0 else { return copy }
        let runs = [UInt64](unsafeUninitializedCapacity: 4 * total) { out, initialized in
            HugePages.adviseBeforeFilling(UnsafeMutableRawBufferPointer(out))
            var at = 0
            words.withUnsafeBufferPointer { w in
                for t in 0..<tableCount {
                    let base = t * (buckets + 1)
                    for b in 0..<buckets {
                        let lo = Int(starts[base + b]), hi = Int(starts[base + b + 1])
                        guard copied(hi - lo) else { continue }
                        for k in lo..<hi {
                            // Entries name indexed descriptors (< count), checked by the loader for a stored index.
                            let d = 4 * Int(entries[t * count + k])
                            out[at] = w[d]; out[at + 1] = w[d + 1]; out[at + 2] = w[d + 2]; out[at + 3] = w[d + 3]
                            at += 4
                        }
                    }
                }
            }
            // Every copied bucket's entries were written: `at` is 4 × total, as counted above.
            initialized = at
        }
        copy.crowded = CrowdedBuckets(line: line, cap: cap, starts: runStarts, words: runs)
        return copy
    }
}
