import CGlimpseVisionKernels

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
    /// For each table, the descriptor bit positions (0...255) that form its key.
    let positions: [[Int]]
    /// For each table, `2^bits + 1` bucket start offsets into `entries`.
    let starts: [[UInt32]]
    /// For each table, descriptor indices grouped by bucket.
    let entries: [[UInt32]]

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
        self.tableCount = tables
        self.bits = bits
        // Key bits: the most balanced descriptor bits (mean nearest 1/2 over the indexed data),
        // dealt to the tables in a seeded random order. Balanced bits keep buckets even, which
        // keeps the work per lookup close to n / 2^bits.
        var ones = [Int](repeating: 0, count: 256)
        let sampleStep = max(1, n / 20_000)
        var sampled = 0
        for i in stride(from: 0, to: n, by: sampleStep) {
            for w in 0..<4 {
                var word = words[4 * i + w]
                while word != 0 {
                    let b = word.trailingZeroBitCount
                    ones[w * 64 + b] += 1
                    word &= word - 1
                }
            }
            sampled += 1
        }
        let half = Double(max(1, sampled)) / 2
        var order = Array(0..<256)
        order.sort { l, r in
            let dl = abs(Double(ones[l]) - half), dr = abs(Double(ones[r]) - half)
            return dl != dr ? dl < dr : l < r
        }
        var rng = SplitMix64(seed: seed)
        var pool = Array(order.prefix(min(256, tables * bits)))
        for i in stride(from: pool.count - 1, to: 0, by: -1) {
            pool.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        var positions: [[Int]] = []
        for t in 0..<tables {
            var chosen: [Int] = []
            var k = t * bits
            while chosen.count < bits {
                let p = pool[k % pool.count]
                if !chosen.contains(p) { chosen.append(p) } else { k += 1; continue }
                k += 1
            }
            positions.append(chosen)
        }
        self.positions = positions
        var starts: [[UInt32]] = []
        var entries: [[UInt32]] = []
        let buckets = 1 << bits
        var keys = [UInt32](repeating: 0, count: n)
        for t in 0..<tables {
            var counts = [UInt32](repeating: 0, count: buckets + 1)
            words.withUnsafeBufferPointer { w in
                for i in 0..<n {
                    let k = Self.key(w, i, positions[t])
                    keys[i] = k
                    counts[Int(k) + 1] += 1
                }
            }
            for b in 0..<buckets { counts[b + 1] += counts[b] }
            var fill = counts
            var list = [UInt32](repeating: 0, count: n)
            for i in 0..<n {
                let k = Int(keys[i])
                list[Int(fill[k])] = UInt32(i)
                fill[k] += 1
            }
            starts.append(counts)
            entries.append(list)
        }
        self.starts = starts
        self.entries = entries
    }

    /// Average descriptors per bucket the key length is chosen for.
    public static let targetBucketLoad = 8

    /// The average number of entries scanned per table when looking up an indexed descriptor
    /// (sum of squared bucket sizes over entries): a measure of how even the buckets are.
    public var meanScannedPerTable: Double {
        var total = 0.0
        for t in 0..<tableCount {
            var squares = 0.0
            for b in 0..<(starts[t].count - 1) {
                let c = Double(starts[t][b + 1] - starts[t][b])
                squares += c * c
            }
            total += squares / Double(max(1, entries[t].count))
        }
        return total / Double(max(1, tableCount))
    }

    @inline(__always)
    static func key(_ words: UnsafeBufferPointer<UInt64>, _ index: Int, _ positions: [Int]) -> UInt32 {
        var k: UInt32 = 0
        let base = index * 4
        for (j, p) in positions.enumerated() {
            k |= UInt32(truncatingIfNeeded: (words[base + (p >> 6)] >> UInt64(p & 63)) & 1) << UInt32(j)
        }
        return k
    }

    /// The nearest indexed descriptor to descriptor `queryIndex` of `queries` among those sharing a
    /// bucket with it in any table, or nil when every bucket is empty.
    ///
    /// - Parameter references: the same descriptor words the index was built from.
    public func nearest(
        to queries: [UInt64], _ queryIndex: Int, references: [UInt64]
    ) -> (index: Int, distance: Int)? {
        precondition(queryIndex >= 0 && 4 * queryIndex + 4 <= queries.count, "query index out of range")
        var bestIndex: Int32 = -1
        var bestDistance: UInt32 = 257
        queries.withUnsafeBufferPointer { q in
            references.withUnsafeBufferPointer { r in
                guard let qb = q.baseAddress, let rb = r.baseAddress else { return }
                for t in 0..<tableCount {
                    let k = Int(Self.key(q, queryIndex, positions[t]))
                    let lo = Int(starts[t][k]), hi = Int(starts[t][k + 1])
                    if hi == lo { continue }
                    entries[t].withUnsafeBufferPointer { e in
                        // Fenced: entries are descriptor indices < references.count / 4 by construction.
                        var index: Int32 = -1
                        var best: UInt32 = 257, second: UInt32 = 257
                        glimpse_hamming_best2_indexed(
                            qb + 4 * queryIndex, rb, e.baseAddress! + lo, hi - lo, &index, &best, &second)
                        if best < bestDistance {
                            bestDistance = best
                            bestIndex = index
                        }
                    }
                }
            }
        }
        return bestIndex < 0 ? nil : (Int(bestIndex), Int(bestDistance))
    }

    /// Bytes held by the tables (offsets and entries).
    public var memoryBytes: Int {
        starts.reduce(0) { $0 + $1.count * 4 } + entries.reduce(0) { $0 + $1.count * 4 }
    }
}
