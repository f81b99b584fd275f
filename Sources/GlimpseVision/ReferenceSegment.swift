import GlimpseIndex
import GlimpseFeaturePrint
import GlimpseFiles
/// One immutable block of references with its own shortlist index: the unit a ``VisualMatcher`` is
/// built from. A matcher built at once has one segment; references added while it serves go into a
/// small second segment keyed by the first one's bits, so an addition never rebuilds the large one.
struct ReferenceSegment: Sendable {
    /// The place (group) of each reference, an index into the matcher's group ids.
    let groups: [Int32]
    /// Each reference's key, unique within the matcher (what a removal names).
    let keys: [String]
    /// Long side in pixels of each reference's extraction image.
    let longSides: [Double]
    /// Width and height in pixels of each reference's extraction image, interleaved.
    let sizes: [Int32]
    /// Descriptor range of reference `r`: `descriptorStarts[r] ..< descriptorStarts[r + 1]`.
    let descriptorStarts: [Int]
    /// Descriptors of every reference, contiguous, four words each.
    let words: [UInt64]
    /// Keypoint positions, `x, y` interleaved, one pair per descriptor.
    let points: [Float]
    /// The reference (within the segment) that owns each descriptor.
    let owners: [UInt32]
    /// The shortlist index over `lshWords`.
    let lsh: LSHIndex
    /// The descriptors the shortlist indexes: `words` itself, or with
    /// ``VisionConfiguration/indexedKeypointLimit`` a subset of them, four words each.
    let lshWords: [UInt64]
    /// For a subset, the descriptor (an index into `owners` and `points`) of each indexed one, ascending;
    /// `nil` when every descriptor is indexed.
    let lshDescriptors: [UInt32]?
    /// The references' feature prints (several views each), `printDimension` values each.
    let prints: [Float]
    /// The reference (within the segment) each print row (view) belongs to, ascending.
    let printOwners: [Int32]
    /// The views as codes, when the segment holds enough of them (``VisionConfiguration/printCodeLine``);
    /// `prints` is then empty.
    let printCodes: PrintCodes?
    /// With ``printCodes``: the references ordered by group (then by number), so that a group's views are found
    /// without a pass over every reference; empty otherwise.
    let referencesByGroup: [UInt32]
    /// Where the full keypoint sets of the references in ``slotOf`` live, when some live on disk.
    let keypointSlots: KeypointSlots?
    /// For each reference, its slot in ``keypointSlots`` (its descriptors, positions and owners above are
    /// then only the ones the shortlist indexes), or −1 when its whole set is in memory; empty when
    /// every reference's is.
    let slotOf: [Int32]

    /// The number of references.
    var count: Int { groups.count }

    /// A segment over `references`; with `keyedLike`, its index reuses that index's bit positions
    /// (see ``LSHIndex/init(words:sharingBitsOf:)``), otherwise it chooses its own.
    ///
    /// With `keypointSlots`, each reference's full keypoint set is written there and only the part the
    /// shortlist indexes (``VisionConfiguration/indexedKeypointLimit``, all of it when unset) stays in
    /// memory; verification reads the rest from the slot. A reference whose set does not fit a slot, or
    /// cannot be written, stays whole in memory.
    ///
    /// The segment keeps its prints as floats however many there are (an edit's references): codes are
    /// made by a matcher's build alone, so that every coded segment of a matcher shares one model, which a
    /// compaction needs to copy codes it cannot make again without the floats.
    init(
        references: [SegmentReference], printDimension: Int, configuration: VisionConfiguration,
        keyedLike base: LSHIndex? = nil, keypointSlots: KeypointSlots? = nil
    ) {
        var builder = ReferenceSegmentBuilder(
            printDimension: printDimension, configuration: configuration, keypointSlots: keypointSlots, codingPrints: false)
        builder.add(references)
        self = builder.build(keyedLike: base)
    }

    /// The shortlist index over `words`, or over the descriptors `subset` names (then with their words
    /// gathered), keyed like `base` when given.
    static func index(
        _ words: [UInt64], subset: [UInt32]?, configuration: VisionConfiguration, keyedLike base: LSHIndex?
    ) -> ([UInt64], [UInt32]?, LSHIndex) {
        var indexedWords = words
        if let subset {
            indexedWords = []
            indexedWords.reserveCapacity(subset.count * 4)
            for d in subset { indexedWords.append(contentsOf: words[(4 * Int(d))..<(4 * Int(d) + 4)]) }
        }
        let lsh = base.map { LSHIndex(words: indexedWords, sharingBitsOf: $0) }
            ?? LSHIndex(words: indexedWords, tables: configuration.lshTables, minimumBits: configuration.lshBits)
        return (indexedWords, subset, configuration.withCrowdedBucketsCopied(lsh, words: indexedWords))
    }

    /// A segment from its parts (a matcher index file's, checked by its loader to fit together).
    init(
        groups: [Int32], keys: [String], longSides: [Double], sizes: [Int32], descriptorStarts: [Int], words: [UInt64],
        points: [Float], owners: [UInt32], lsh: LSHIndex, lshWords: [UInt64], lshDescriptors: [UInt32]?,
        prints: [Float], printOwners: [Int32], printCodes: PrintCodes?, keypointSlots: KeypointSlots?, slotOf: [Int32]
    ) {
        self.groups = groups
        self.keys = keys
        self.longSides = longSides
        self.sizes = sizes
        self.descriptorStarts = descriptorStarts
        self.words = words
        self.points = points
        self.owners = owners
        self.lsh = lsh
        self.lshWords = lshWords
        self.lshDescriptors = lshDescriptors
        self.prints = prints
        self.printOwners = printOwners
        self.printCodes = printCodes
        self.referencesByGroup = printCodes == nil ? [] : Self.byGroup(groups)
        self.keypointSlots = keypointSlots
        self.slotOf = slotOf
        adviseHugePages()
    }

    /// Asks for the large arrays a query reads at random to be backed by huge pages (``HugePages``); a small
    /// segment's are left alone.
    private func adviseHugePages() {
        HugePages.advise(words)
        HugePages.advise(points)
        HugePages.advise(owners)
        HugePages.advise(lshWords)
        lsh.adviseHugePages()
        printCodes?.adviseHugePages()
    }

    /// The reference numbers ordered by `groups[r]`, then by `r`.
    static func byGroup(_ groups: [Int32]) -> [UInt32] {
        (0..<UInt32(groups.count)).sorted { groups[Int($0)] != groups[Int($1)] ? groups[Int($0)] < groups[Int($1)] : $0 < $1 }
    }

    /// The references of group `group`, from ``referencesByGroup``.
    func references(ofGroup group: Int32) -> ArraySlice<UInt32> {
        var lo = 0, hi = referencesByGroup.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if groups[Int(referencesByGroup[mid])] < group { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < referencesByGroup.count && groups[Int(referencesByGroup[end])] == group { end += 1 }
        return referencesByGroup[lo..<end]
    }

    /// The print rows (views) of reference `r`: ``printOwners`` ascends, so they are one range.
    func printRows(of r: Int) -> Range<Int> {
        var lo = 0, hi = printOwners.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(printOwners[mid]) < r { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < printOwners.count && Int(printOwners[end]) == r { end += 1 }
        return lo..<end
    }

    /// One segment holding the references of `segments` for which `keep(segment, reference)` is true,
    /// in order, with `group(segment, reference)` as their new group: how a matcher is compacted, and
    /// how its small segment of added references is rebuilt. Without `base`, choosing the new index's
    /// bits is the costly part (a sample pass); with it, the work is copying and one bucket pass.
    init(
        merging segments: [ReferenceSegment], configuration: VisionConfiguration, keep: (Int, Int) -> Bool,
        group: (Int, Int) -> Int32, printDimension: Int, keyedLike base: LSHIndex? = nil
    ) {
        var groups: [Int32] = [], keys: [String] = [], longSides: [Double] = [], sizes: [Int32] = []
        var starts = [0], words: [UInt64] = [], points: [Float] = [], owners: [UInt32] = []
        var prints: [Float] = [], printOwners: [Int32] = []
        // Once one source keeps codes, every view is coded with its model: a compaction never needs floats.
        var codes = segments.lazy.compactMap(\.printCodes).first.map { PrintCodesBuilder(model: $0.index.model, levels: $0.levels) }
        let keypointSlots = segments.lazy.compactMap(\.keypointSlots).first
        let slotted = keypointSlots != nil
        var slotOf: [Int32] = []
        // The indexed subset carries over: a source that indexes everything contributes every descriptor.
        let subsetted = segments.contains { $0.lshDescriptors != nil }
        var indexed: [UInt32] = []
        for (s, segment) in segments.enumerated() {
            var next = 0  // the first of the source's indexed descriptors not yet passed (they ascend, as r does)
            var rowsOf: [[Int]] = Array(repeating: [], count: segment.count)
            for (row, owner) in segment.printOwners.enumerated() { rowsOf[Int(owner)].append(row) }
            let sourceLists = segment.printCodes?.entryLists ?? []
            for r in 0..<segment.count where keep(s, r) {
                let local = UInt32(groups.count)
                groups.append(group(s, r))
                keys.append(segment.keys[r])
                longSides.append(segment.longSides[r])
                sizes.append(contentsOf: segment.sizes[(2 * r)..<(2 * r + 2)])
                if slotted { slotOf.append(segment.slotOf.isEmpty ? -1 : segment.slotOf[r]) }
                let lo = segment.descriptorStarts[r], hi = segment.descriptorStarts[r + 1]
                let newStart = words.count / 4
                if subsetted {
                    if let sourceIndexed = segment.lshDescriptors {
                        while next < sourceIndexed.count && Int(sourceIndexed[next]) < lo { next += 1 }
                        while next < sourceIndexed.count && Int(sourceIndexed[next]) < hi {
                            indexed.append(UInt32(newStart + Int(sourceIndexed[next]) - lo))
                            next += 1
                        }
                    } else {
                        indexed.append(contentsOf: (newStart..<(newStart + hi - lo)).map { UInt32($0) })
                    }
                }
                words.append(contentsOf: segment.words[(4 * lo)..<(4 * hi)])
                points.append(contentsOf: segment.points[(2 * lo)..<(2 * hi)])
                owners.append(contentsOf: repeatElement(local, count: hi - lo))
                starts.append(words.count / 4)
                for row in rowsOf[r] {
                    if let source = segment.printCodes, codes != nil {
                        assert(source.index.model == codes?.model, "a matcher's coded segments share one model")
                        let entry = Int(source.rowEntries[row]), w = source.index.model.codeWords
                        codes?.add(list: Int(sourceLists[entry]), code: source.index.codes[(entry * w)..<((entry + 1) * w)],
                                   scale: source.scales[row])
                    } else if codes != nil {
                        codes?.add(views: Array(segment.prints[(row * printDimension)..<((row + 1) * printDimension)]), threads: 1)
                    } else {
                        prints.append(contentsOf: segment.prints[(row * printDimension)..<((row + 1) * printDimension)])
                    }
                    printOwners.append(Int32(local))
                }
            }
        }
        self.groups = groups
        self.keys = keys
        self.longSides = longSides
        self.sizes = sizes
        self.descriptorStarts = starts
        self.words = words
        self.points = points
        self.owners = owners
        self.prints = prints
        self.printOwners = printOwners
        let printCodes = codes?.finish()
        self.printCodes = printCodes
        self.referencesByGroup = printCodes == nil ? [] : Self.byGroup(groups)
        self.keypointSlots = keypointSlots
        self.slotOf = slotOf
        (lshWords, lshDescriptors, lsh) = Self.index(
            words, subset: subsetted ? indexed : nil, configuration: configuration, keyedLike: base)
    }

    /// Bytes held by the descriptors, keypoint positions, prints and the index.
    var memoryBytes: Int {
        words.count * 8 + points.count * 4 + owners.count * 4 + prints.count * 4 + printOwners.count * 4
            + descriptorStarts.count * 8 + sizes.count * 4 + lsh.memoryBytes
            + (lshDescriptors.map { $0.count * 4 + lshWords.count * 8 } ?? 0) + slotOf.count * 4
            + (printCodes?.memoryBytes ?? 0) + referencesByGroup.count * 4
    }

    /// Reference `r`'s full keypoint set for verification: from its slot and its indexed keypoints here when
    /// it has one (then `start` is 0), otherwise the segment's own `words` and `points` with the range that is `r`'s. `nil` when
    /// its slot fails its checks: the failure is recorded as damage (``KeypointSlots/recordDamage(slot:key:error:)``,
    /// which logs, counts and repairs it through its handler), and the reference is not verified by this query.
    func verificationKeypoints(of r: Int) -> (words: [UInt64], points: [Float], start: Int, count: Int)? {
        let lo = descriptorStarts[r], hi = descriptorStarts[r + 1]
        if let keypointSlots, r < slotOf.count, slotOf[r] >= 0 {
            do throws(SlotFileError) {
                let read = try keypointSlots.read(
                    slot: Int(slotOf[r]), key: keys[r], indexed: (words[(4 * lo)..<(4 * hi)], points[(2 * lo)..<(2 * hi)]))
                return (read.words, read.points, 0, read.points.count / 2)
            } catch {
                keypointSlots.recordDamage(slot: Int(slotOf[r]), key: keys[r], error: error)
                return nil
            }
        }
        return (words, points, lo, hi - lo)
    }
}

/// A reference as a segment takes it: its place (group) index, its unique key and its features.
struct SegmentReference {
    let group: Int32
    let key: String
    let features: ImageFeatures
}
