import Testing
@testable import GlimpseVision

@Suite struct HammingTests {
    /// The plain definition: count differing bits one at a time.
    static func plainDistance(_ a: [UInt64], _ i: Int, _ b: [UInt64], _ j: Int) -> Int {
        var d = 0
        for w in 0..<4 {
            let x = a[4 * i + w] ^ b[4 * j + w]
            for bit in 0..<64 where (x >> UInt64(bit)) & 1 == 1 { d += 1 }
        }
        return d
    }

    static func randomDescriptors(_ n: Int, seed: UInt64) -> [UInt64] {
        var rng = TestRandom(state: seed)
        return (0..<(4 * n)).map { _ in rng.next() }
    }

    @Test func distanceMatchesPlainCount() {
        let a = Self.randomDescriptors(50, seed: 1), b = Self.randomDescriptors(50, seed: 2)
        for i in 0..<50 { for j in 0..<50 {
            #expect(Hamming.distance(a, i, b, j) == Self.plainDistance(a, i, b, j))
        } }
        #expect(Hamming.distance(a, 3, a, 3) == 0)
        let ones: [UInt64] = [.max, .max, .max, .max], zeros: [UInt64] = [0, 0, 0, 0]
        #expect(Hamming.distance(ones, 0, zeros, 0) == 256)
    }

    @Test func nearestTwoMatchesBruteForce() {
        let refs = Self.randomDescriptors(300, seed: 3), queries = Self.randomDescriptors(20, seed: 4)
        for q in 0..<20 {
            let all = (0..<300).map { Self.plainDistance(queries, q, refs, $0) }
            let sorted = all.sorted()
            let r = Hamming.nearestTwo(query: queries, q, in: refs, start: 0, count: 300)
            #expect(r.distance == sorted[0])
            #expect(r.second == sorted[1])
            #expect(all[r.index] == sorted[0])
            // A sub-range reports indices relative to its start.
            let sub = Hamming.nearestTwo(query: queries, q, in: refs, start: 100, count: 50)
            let subAll = (100..<150).map { Self.plainDistance(queries, q, refs, $0) }
            #expect(sub.distance == subAll.min())
            #expect(subAll[sub.index] == sub.distance)
        }
        let empty = Hamming.nearestTwo(query: queries, 0, in: refs, start: 0, count: 0)
        #expect(empty.index == -1 && empty.distance == 257)
    }

    @Test func nearestTwoKeepsTheFirstOfEqualDistances() {
        // Many exact duplicates: the first one must win, whichever kernel variant runs.
        let one = Self.randomDescriptors(1, seed: 12)
        var refs = Self.randomDescriptors(37, seed: 13)
        for slot in [5, 11, 20, 29] { refs.replaceSubrange((4 * slot)..<(4 * slot + 4), with: one) }
        let r = Hamming.nearestTwo(query: one, 0, in: refs, start: 0, count: 37)
        #expect(r.index == 5 && r.distance == 0 && r.second == 0)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 64, 300, 1001])
    func nearestTwoOfEachAgreesWithOneAtATime(referenceCount: Int) {
        // Near copies among random descriptors, and exact duplicates, so that ties and early
        // second-best updates inside an eight-reference block both occur.
        var refs = Self.randomDescriptors(referenceCount, seed: 21)
        var queries = Self.randomDescriptors(40, seed: 22)
        var rng = TestRandom(state: 23)
        if referenceCount > 0 {
            for q in 0..<20 {
                let r = Int(rng.next() % UInt64(referenceCount))
                var copy = Array(refs[(4 * r)..<(4 * r + 4)])
                for _ in 0..<(q % 6) { let b = Int(rng.next() % 256); copy[b / 64] ^= 1 << UInt64(b % 64) }
                queries.replaceSubrange((4 * q)..<(4 * q + 4), with: copy)
            }
            if referenceCount >= 9 {
                let dup = Array(refs[0..<4])
                refs.replaceSubrange(12..<16, with: dup)
                refs.replaceSubrange((4 * (referenceCount - 1))..<(4 * referenceCount), with: dup)
                queries.replaceSubrange(0..<4, with: dup)
            }
        }
        let start = referenceCount > 8 ? 1 : 0, count = referenceCount - start
        let table = Hamming.nearestTwoOfEach(queries: queries, in: refs, start: start, count: count)
        #expect(table.index.count == 40)
        for q in 0..<40 {
            let one = Hamming.nearestTwo(query: queries, q, in: refs, start: start, count: count)
            #expect(Int(table.index[q]) == one.index)
            #expect(Int(table.distance[q]) == one.distance)
            #expect(Int(table.second[q]) == one.second)
            let all = (start..<(start + count)).map { Self.plainDistance(queries, q, refs, $0) }.sorted()
            #expect(Int(table.distance[q]) == (all.first ?? 257))
            #expect(Int(table.second[q]) == (all.count > 1 ? all[1] : 257))
        }
        #expect(Hamming.nearestTwoOfEach(queries: [], in: refs, start: 0, count: referenceCount).index.isEmpty)
    }

    @Test func distancesListMatchesPlainCount() {
        let refs = Self.randomDescriptors(64, seed: 5), q = Self.randomDescriptors(1, seed: 6)
        let d = Hamming.distances(query: q, 0, to: refs)
        #expect(d.count == 64)
        for j in 0..<64 { #expect(Int(d[j]) == Self.plainDistance(q, 0, refs, j)) }
    }

    @Test func lshFindsExactAndNearCopies() {
        let refs = Self.randomDescriptors(5000, seed: 7)
        let index = LSHIndex(words: refs, tables: 6, minimumBits: 12)
        // Queries: exact copies, and copies with 8 bits flipped.
        var queries: [UInt64] = []
        var rng = TestRandom(state: 8)
        for i in stride(from: 0, to: 5000, by: 50) {
            var d = Array(refs[(4 * i)..<(4 * i + 4)])
            queries.append(contentsOf: d)
            for _ in 0..<8 { let b = Int(rng.next() % 256); d[b / 64] ^= 1 << UInt64(b % 64) }
            queries.append(contentsOf: d)
        }
        let found = index.nearest(queries: queries, references: refs)
        var exact = 0, near = 0
        for k in 0..<100 {
            if found[2 * k].index == Int32(k * 50) && found[2 * k].distance == 0 { exact += 1 }
            if found[2 * k + 1].index == Int32(k * 50) { near += 1 }
            // Whatever is returned, its reported distance is the true one.
            for slot in [2 * k, 2 * k + 1] where found[slot].index >= 0 {
                #expect(Int(found[slot].distance) == Self.plainDistance(queries, slot, refs, Int(found[slot].index)))
            }
        }
        #expect(exact == 100)
        #expect(near >= 90)
        #expect(index.meanScannedPerTable >= 1)
    }

    /// The bucket cap skips a crowded bucket whole, the true match in it too; a cap above its size (or none)
    /// finds it: why a very large catalog, whose buckets crowd, needs a larger cap (`eval --lsh-bucket-cap`).
    @Test func aCrowdedBucketIsSkippedUnderTheCapAndSearchedAboveIt() {
        // 300 copies of one descriptor, each 3 bits away (so most share every table's bucket with it), and
        // the true match, 2 bits away.
        var rng = TestRandom(state: 21)
        let base = Self.randomDescriptors(1, seed: 22)
        var refs = Self.randomDescriptors(4000, seed: 23)
        for _ in 0..<300 {
            var d = base
            var flips = Set<Int>()
            while flips.count < 3 { flips.insert(3 + Int(rng.next() % 253)) }
            for b in flips { d[b / 64] ^= 1 << UInt64(b % 64) }
            refs.append(contentsOf: d)
        }
        var truth = base
        truth[0] ^= 0b101
        refs.append(contentsOf: truth)
        let trueIndex = Int32(refs.count / 4 - 1)
        let index = LSHIndex(words: refs, tables: 4, minimumBits: 8)
        let capped = index.nearest(queries: base, references: refs, bucketCap: 64)
        let roomy = index.nearest(queries: base, references: refs, bucketCap: 1024)
        let uncapped = index.nearest(queries: base, references: refs, bucketCap: 0)
        #expect(roomy[0].index == trueIndex && roomy[0].distance == 2)
        #expect(uncapped[0].index == trueIndex)
        #expect(capped[0].index != trueIndex)
    }

    /// Crowded buckets read from contiguous copies give the very answers of reading them entry by entry, ties
    /// included, under every cap: copied buckets within the copies' range, the rest as before (skipped over
    /// the query's cap, else read entry by entry).
    @Test func crowdedBucketsReadFromTheirCopiesGiveTheSameAnswers() {
        var rng = TestRandom(state: 31)
        var refs = Self.randomDescriptors(3000, seed: 32)
        var centres: [[UInt64]] = []
        // Six clusters of 40 to 540 near copies (3 bits away), each with an exact duplicate for ties.
        for c in 0..<6 {
            let centre = Self.randomDescriptors(1, seed: 40 + UInt64(c))
            centres.append(centre)
            for _ in 0..<(40 + 100 * c) {
                var d = centre
                for _ in 0..<3 { let b = Int(rng.next() % 256); d[b / 64] ^= 1 << UInt64(b % 64) }
                refs.append(contentsOf: d)
                if rng.next() % 16 == 0 { refs.append(contentsOf: d) }
            }
        }
        var queries: [UInt64] = []
        for centre in centres {
            for _ in 0..<20 {
                var d = centre
                for _ in 0..<Int(rng.next() % 12) { let b = Int(rng.next() % 256); d[b / 64] ^= 1 << UInt64(b % 64) }
                queries.append(contentsOf: d)
            }
        }
        queries.append(contentsOf: Self.randomDescriptors(50, seed: 33))
        let plain = LSHIndex(words: refs, tables: 4, minimumBits: 8)
        let copied = plain.copyingCrowdedBuckets(of: refs, over: 32, upTo: 256)
        let copiedEntries = (copied.memoryBytes - plain.memoryBytes - 4 * 4 * (1 << plain.bits)) / 32
        #expect(copiedEntries > 0)
        for cap in [16, 64, 256, 400, 0] {
            let before = plain.nearest(queries: queries, references: refs, bucketCap: cap)
            let after = copied.nearest(queries: queries, references: refs, bucketCap: cap)
            #expect(before.map(\.index) == after.map(\.index), "cap \(cap)")
            #expect(before.map(\.distance) == after.map(\.distance), "cap \(cap)")
        }
        // Nothing is copied without a line, or with a cap not above it.
        #expect(plain.copyingCrowdedBuckets(of: refs, over: 0, upTo: 256).memoryBytes == plain.memoryBytes)
        #expect(plain.copyingCrowdedBuckets(of: refs, over: 64, upTo: 64).memoryBytes == plain.memoryBytes)
    }
}
