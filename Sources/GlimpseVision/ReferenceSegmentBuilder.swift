import Foundation
import GlimpseFeaturePrint

/// Gathers references into a ``ReferenceSegment``'s arrays a batch at a time, so that a catalog too large
/// to hold whole in memory is built from batches that each go once their keypoints are in their slots:
/// only what the segment keeps is ever held for all references.
///
/// Each reference is reduced to ``VisionConfiguration/referenceKeypointLimit``; with a ``KeypointSlots``
/// file its whole set is written there and the segment keeps only the part the shortlist indexes
/// (``VisionConfiguration/indexedKeypointLimit``). A reference whose set does not fit a slot, or cannot be
/// written, stays whole in memory.
struct ReferenceSegmentBuilder {
    let printDimension: Int
    let configuration: VisionConfiguration
    let keypointSlots: KeypointSlots?
    private var groups: [Int32] = []
    private var keys: [String] = []
    private var longSides: [Double] = []
    private var sizes: [Int32] = []
    private var starts = [0]
    private var words: [UInt64] = []
    private var points: [Float] = []
    private var owners: [UInt32] = []
    private var prints: [Float] = []
    private var printOwners: [Int32] = []
    /// The views coded so far, once the segment holds enough of them for codes (``VisionConfiguration/printCodeLine``):
    /// `prints` then holds only the views of the batch being added.
    private var codes: PrintCodesBuilder?
    /// The number of references the segment will hold, when told (``reserveCapacity(references:)``): the
    /// print codes' lists are sized for all of them, not for the views seen when the codes are trained.
    private var expectedReferences = 0
    private var slotOf: [Int32] = []
    /// The descriptors the shortlist indexes, ascending: every descriptor of a slotted reference (it keeps
    /// only those), the kept subset of one held whole.
    private var indexed: [UInt32] = []

    /// The number of references added so far.
    var count: Int { groups.count }

    /// Whether prints past ``VisionConfiguration/printCodeLine`` are coded (see
    /// ``ReferenceSegment/init(references:printDimension:configuration:keyedLike:keypointSlots:)``).
    let codingPrints: Bool

    /// A builder of an empty segment; with `codingPrints`, one that codes its prints past the line.
    init(printDimension: Int, configuration: VisionConfiguration, keypointSlots: KeypointSlots?, codingPrints: Bool = true) {
        self.codingPrints = codingPrints
        self.printDimension = printDimension
        self.configuration = configuration
        self.keypointSlots = keypointSlots
    }

    /// Makes room for `references` more references, when each keeps a known number of keypoints in memory
    /// (with keypoint slots and an indexed-keypoint limit): the arrays then never grow by copying, which at
    /// 10⁶ references would briefly hold them one and a half times over.
    mutating func reserveCapacity(references n: Int) {
        expectedReferences = max(expectedReferences, count + n)
        guard keypointSlots != nil, let limit = configuration.indexedKeypointLimit, n > 0 else { return }
        let descriptors = owners.count + n * limit, total = count + n
        words.reserveCapacity(descriptors * ImageFeatures.wordsPerDescriptor)
        points.reserveCapacity(descriptors * 2)
        owners.reserveCapacity(descriptors)
        indexed.reserveCapacity(descriptors)
        starts.reserveCapacity(total + 1)
        groups.reserveCapacity(total)
        keys.reserveCapacity(total)
        longSides.reserveCapacity(total)
        sizes.reserveCapacity(2 * total)
        slotOf.reserveCapacity(total)
    }

    /// Adds `references` after those added so far (their slots, with a slot file, are written now and made
    /// durable when the segment is built).
    mutating func add(_ references: [SegmentReference]) {
        let grid = configuration.referenceKeypointGrid
        for reference in references {
            var features = configuration.referenceKeypointLimit.map { limit in
                CompactFeatures.reduced(reference.features, to: limit, cells: grid)
            } ?? reference.features
            let r = groups.count
            let kept = configuration.indexedKeypointLimit.map { limit in
                CompactFeatures.centralIndices(
                    features, limit: limit, cells: grid, central: configuration.indexedKeypointCentre).sorted()
            }
            var slot: Int32 = -1
            if let keypointSlots,
               let written = (try? keypointSlots.append(features, indexed: kept ?? Array(0..<features.count), key: reference.key)) ?? nil,
               let number = Int32(exactly: written) {
                slot = number
                if let kept { features = features.keeping(kept) }
            }
            if keypointSlots != nil { slotOf.append(slot) }
            if printDimension > 0 {
                for print in features.featurePrints where print.dimension == printDimension {
                    prints.append(contentsOf: print.values)
                    printOwners.append(Int32(r))
                }
            }
            groups.append(reference.group)
            keys.append(reference.key)
            longSides.append(Double(max(features.width, features.height)))
            sizes.append(Int32(clamping: features.width))
            sizes.append(Int32(clamping: features.height))
            let first = owners.count
            words.append(contentsOf: features.descriptorWords)
            for k in features.keypoints {
                points.append(k.x)
                points.append(k.y)
            }
            owners.append(contentsOf: repeatElement(UInt32(r), count: features.count))
            starts.append(owners.count)
            if slot < 0, let kept {
                indexed.append(contentsOf: kept.map { UInt32(first + $0) })
            } else {
                indexed.append(contentsOf: (first..<owners.count).map { UInt32($0) })
            }
        }
        codePrints(finishing: false)
    }

    /// Moves the float views into codes: from the batch that brings the segment to the code line and to a
    /// training sample's size (or, `finishing`, to the line alone), and every batch after it.
    private mutating func codePrints(finishing: Bool) {
        guard codingPrints, printDimension > 0, !prints.isEmpty else { return }
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        if codes == nil {
            let views = prints.count / printDimension
            let line = configuration.printCodeLine
            guard views >= line && (finishing || views >= max(line, PrintCodes.trainingViews)) else { return }
            let expected = count > 0 ? views * max(count, expectedReferences) / count : views
            let (model, levels) = PrintCodes.train(
                sample: prints, dimension: printDimension, views: expected, seed: Self.printCodeSeed, threads: threads)
            codes = PrintCodesBuilder(model: model, levels: levels)
        }
        codes?.add(views: prints, threads: threads)
        prints = []
    }

    /// The seed print codes are trained with: a segment's codes depend only on its views.
    static let printCodeSeed: UInt64 = 0x5052_4E54_434F_4445

    /// The segment of every reference added, its slots made durable, with its shortlist index (keyed like
    /// `base` when given).
    consuming func build(keyedLike base: LSHIndex? = nil) -> ReferenceSegment {
        try? keypointSlots?.commit()
        codePrints(finishing: true)
        let subset = indexed.count == owners.count ? nil : indexed
        let (lshWords, lshDescriptors, lsh) = ReferenceSegment.index(
            words, subset: subset, configuration: configuration, keyedLike: base)
        return ReferenceSegment(
            groups: groups, keys: keys, longSides: longSides, sizes: sizes, descriptorStarts: starts, words: words,
            points: points, owners: owners, lsh: lsh, lshWords: lshWords, lshDescriptors: lshDescriptors,
            prints: prints, printOwners: printOwners, printCodes: codes?.finish(), keypointSlots: keypointSlots,
            slotOf: slotOf)
    }
}
