import GlimpseFeaturePrint
import Foundation
public import GlimpseImage

/// Finds which reference photo a query image shows, or that it shows none.
///
/// Built once from the features of every reference; immutable afterwards, so one matcher can
/// serve concurrent queries from many tasks. A query runs these stages: feature extraction,
/// a shortlist of ``VisionConfiguration/shortlistSize`` references by nearest-neighbour voting
/// through an ``LSHIndex`` over all reference descriptors, and geometric verification (ratio-test
/// matching and similarity RANSAC) of the shortlisted references. When no candidate is decisive
/// (``VisionConfiguration/decisiveScore``) and the matcher has a feature printer, the query's feature
/// print is computed and the references with the nearest prints
/// (``VisionConfiguration/printShortlistSize``) are verified too; in a large catalog (past
/// ``VisionConfiguration/printCodeLine``), where most of a keypoint shortlist is chance votes, the print's
/// references are verified before the rest of that shortlist, which waits until they leave the picture
/// unaccepted. Every candidate gets a confidence
/// from its verified score and its print similarity (``MatchDecision``); the best is accepted when
/// its confidence reaches ``MatchDecision/acceptLine``. Otherwise, with the mirror cascade on, the
/// mirror image of the query is tried too.
///
/// Once a candidate is accepted, the places the picture shows are located (``MatchReport/places``):
/// the accepted photo's outline in the query from its verified similarity, then, with the query
/// keypoints its inliers explain set aside, further candidates verified on what is left, up to
/// ``maxPlaces``.
public final class VisualMatcher: Sendable {
    /// The configuration the matcher and its references use.
    public let configuration: VisionConfiguration
    /// Computes query feature prints; `nil` when the matcher runs on keypoints alone.
    public let printer: (any FeaturePrinting)?
    /// Values per feature print (0 without a printer).
    public let printDimension: Int
    /// The reference blocks, each with its own shortlist index; references are numbered across them
    /// in order (see ``VisualMatcher+Updates``).
    let segments: [ReferenceSegment]
    /// The number of references before each segment, and the total last.
    let segmentStarts: [Int]
    /// Whether each reference still counts: a removed reference stays in its segment, muted, until the
    /// matcher is compacted.
    let live: [Bool]
    /// The identifier of each group: references registered under one id (a place's several photos)
    /// form one group and are reported as one candidate.
    let groupIDs: LayeredNames
    /// The position of each group id in ``groupIDs``.
    let groupIndex: LayeredIndex
    /// The reference each key names.
    let keyIndex: LayeredIndex
    /// Prints of photos of no catalog place made by ``printer``'s network, that the print-alone accept
    /// line is measured with (``PrintCalibration``); `nil` when there are none.
    public let nullPrints: NullPrints?
    /// The calibration in force, replaced in the background after an edit.
    let calibrationState: PrintCalibrationState
    /// Shared by this matcher and every version updated or compacted from it: which recalibration is newest.
    let recalibrations: RecalibrationLine
    /// The leading segments an edit keeps as they are (the first, and the additions folded by
    /// ``foldedAdditions()``); the ones after them are rebuilt with each edit's references.
    let settledSegments: Int

    /// Builds a matcher over `references` (features must have been extracted with the same
    /// extraction settings as `configuration`). References that share an id are one group: several
    /// photos of one place, each verified on its own, reported as one candidate under that id. Each
    /// reference's key is `id#n` for its `n`th photo of the id.
    ///
    /// With a `printer`, every reference should carry a feature print made by it (see
    /// ``ReferenceLoader``); a reference without one, or with one of another length, is never
    /// shortlisted by print and counts as dissimilar. With `nullPrints` (made by the printer's network),
    /// the print-alone accept line is measured for these references before the initialiser returns.
    public convenience init(
        references: [(id: String, features: ImageFeatures)], configuration: VisionConfiguration = .default,
        printer: (any FeaturePrinting)? = nil, nullPrints: NullPrints? = nil
    ) {
        var seen: [String: Int] = [:]
        let keyed = references.map { reference in
            let n = seen[reference.id, default: 0]
            seen[reference.id] = n + 1
            return MatcherReference(id: reference.id, key: "\(reference.id)#\(n)", features: reference.features)
        }
        self.init(keyedReferences: keyed, configuration: configuration, printer: printer, nullPrints: nullPrints)
    }

    /// Builds a matcher over `references`, each with its own key (unique; a later duplicate key is
    /// ignored). References that share an id form one group, as in ``init(references:configuration:printer:nullPrints:)``.
    ///
    /// With `keypointSlots`, the references' full keypoint sets are written there and read back by
    /// verification, and memory keeps only what the shortlist indexes
    /// (``VisionConfiguration/indexedKeypointLimit``): the answers are the same, the memory smaller.
    /// References added later (``updated(adding:removingKeys:)``) are held in memory.
    public convenience init(
        keyedReferences references: [MatcherReference], configuration: VisionConfiguration = .default,
        printer: (any FeaturePrinting)? = nil, nullPrints: NullPrints? = nil, keypointSlots: KeypointSlots? = nil
    ) {
        var builder = VisualMatcherBuilder(
            configuration: configuration, printer: printer, nullPrints: nullPrints, keypointSlots: keypointSlots)
        builder.add(references)
        let built = builder.build()
        self.init(
            configuration: configuration, printer: printer, printDimension: built.printDimension,
            segments: built.segments, live: built.live, groupIDs: built.groupIDs, groupIndex: built.groupIndex,
            keyIndex: built.keyIndex, nullPrints: nullPrints, calibration: PrintCalibrationState(built.printCalibration))
    }

    /// A matcher from its parts (``VisualMatcher+Updates`` builds new versions this way). Without a
    /// `calibration` to keep, the print-alone line is measured now from `nullPrints`.
    init(
        configuration: VisionConfiguration, printer: (any FeaturePrinting)?, printDimension: Int,
        segments: [ReferenceSegment], live: [Bool], groupIDs: LayeredNames, groupIndex: LayeredIndex,
        keyIndex: LayeredIndex, nullPrints: NullPrints?, calibration: PrintCalibrationState?,
        recalibrations: RecalibrationLine = RecalibrationLine(), settledSegments: Int = 1
    ) {
        self.recalibrations = recalibrations
        self.settledSegments = settledSegments
        self.configuration = configuration
        self.printer = printer
        self.printDimension = printDimension
        self.segments = segments
        var starts = [0]
        for segment in segments { starts.append((starts.last ?? 0) + segment.count) }
        self.segmentStarts = starts
        self.live = live
        self.groupIDs = groupIDs
        self.groupIndex = groupIndex
        self.keyIndex = keyIndex
        self.nullPrints = nullPrints.flatMap { $0.dimension == printDimension && printDimension > 0 ? $0 : nil }
        self.calibrationState = calibration ?? PrintCalibrationState(nil)
        if calibration == nil, self.nullPrints != nil { calibrationState.set(measureCalibration()) }
    }

    /// The total number of reference slots, removed ones included: the size of per-reference arrays.
    var slotCount: Int { segmentStarts.last ?? 0 }

    /// The segment holding reference `reference`, and its position there.
    @inline(__always)
    func locate(_ reference: Int) -> (segment: Int, local: Int) {
        var s = segments.count - 1
        while s > 0 && segmentStarts[s] > reference { s -= 1 }
        return (s, reference - segmentStarts[s])
    }

    /// The group id of reference `reference`.
    @inline(__always)
    func groupID(of reference: Int) -> String {
        let (s, r) = locate(reference)
        return groupIDs[Int(segments[s].groups[r])]
    }

    /// The id of every reference that counts, in registration order (a group's id once per photo).
    public var referenceIDs: [String] {
        (0..<slotCount).filter { live[$0] }.map(groupID(of:))
    }

    /// The number of references that count.
    public var referenceCount: Int { live.reduce(0) { $1 ? $0 + 1 : $0 } }
    /// The number of groups (places) with at least one reference that counts.
    public var groupCount: Int {
        var seen = Set<Int32>()
        for reference in 0..<slotCount where live[reference] {
            let (s, r) = locate(reference)
            seen.insert(segments[s].groups[r])
        }
        return seen.count
    }
    /// The number of reference descriptors held in memory, removed references' included until compaction
    /// (with keypoint slots, only the ones the shortlist indexes: the rest are on disk).
    public var descriptorCount: Int { segments.reduce(0) { $0 + $1.owners.count } }
    /// Key bits per LSH table of the largest segment's index.
    public var lshBits: Int { segments.first?.lsh.bits ?? 0 }
    /// The number of reference feature prints that count (one per view of each reference).
    public var printCount: Int {
        var count = 0
        for (s, segment) in segments.enumerated() {
            for owner in segment.printOwners where live[segmentStarts[s] + Int(owner)] { count += 1 }
        }
        return count
    }
    /// Bytes held by the references' descriptors, positions, prints and indexes.
    public var memoryBytes: Int { segments.reduce(0) { $0 + $1.memoryBytes } }

    /// Matches a decoded image (any size; it is resampled for extraction), with the mirror cascade
    /// and, when the matcher has a printer and keypoints alone are not decisive, the feature print.
    ///
    /// - Parameter limit: the most candidates to return.
    public func match(_ image: PixelBuffer, limit: Int = 5) -> MatchReport {
        let start = StageInstant.now()
        let prepared = FeatureExtractor.prepare(image, configuration: configuration, query: true)
        return match(prepared: prepared, limit: limit, preparedSince: start, image: image, stop: { false })
            ?? report([], similarity: nil, limit: limit, timings: StageTimings(), keypoints: 0, usedMirror: false)
    }

    /// ``match(_:limit:)`` that stops between its stages (preparation, features, shortlist and
    /// verification, the feature print, the mirrored pass) once the current task is cancelled.
    ///
    /// - Throws: `CancellationError` when the task was cancelled before the match finished.
    public func matchUnlessCancelled(_ image: PixelBuffer, limit: Int = 5) throws(CancellationError) -> MatchReport {
        let start = StageInstant.now()
        let prepared = FeatureExtractor.prepare(image, configuration: configuration, query: true)
        guard !Task.isCancelled,
              let report = match(prepared: prepared, limit: limit, preparedSince: start, image: image,
                                 stop: { Task.isCancelled })
        else { throw CancellationError() }
        return report
    }

    /// Matches an image already at extraction size (see ``FeatureExtractor/prepare(_:configuration:query:)``),
    /// with the mirror cascade.
    public func match(prepared: GrayImage, limit: Int = 5) -> MatchReport {
        match(prepared: prepared, limit: limit, preparedSince: .now(), stop: { false })
            ?? report([], similarity: nil, limit: limit, timings: StageTimings(), keypoints: 0, usedMirror: false)
    }

    /// The match itself; `nil` when `stop` said so between two stages.
    func match(
        prepared: GrayImage, limit: Int, preparedSince start: StageInstant, image: PixelBuffer? = nil,
        stop: () -> Bool
    ) -> MatchReport? {
        var timings = StageTimings()
        let (features, mirrorSource) = FeatureExtractor.extractWithMirror(fromPrepared: prepared, configuration: configuration)
        timings.addFeatures(since: start)
        if stop() { return nil }
        var shortlisted: [(reference: Int, votes: Int)] = []
        var verified: [Int: Verification] = [:]
        let decisive = Double(configuration.decisiveScore)
        let printing = image != nil && printer != nil && printDimension > 0
        // With the mirror probe ahead, only the first shortlisted reference is verified before it: a mirrored
        // picture is then decided without verifying the rest of a shortlist that cannot hold its place.
        let probing = printing && configuration.mirrorCascade && configuration.mirrorProbeSize > 0
        // With print codes (a large catalog) the rest of the keypoint shortlist waits for the print: there
        // most of it is distractors that drew a few chance votes, and the print names the place first in
        // most queries it finds (`Benchmarks/results/2026-11-29-print-before-the-shortlist.md`).
        let shortlistAfterPrint = probing && printsCoded
        var votes: [Int32] = [], otherVotes: [Int32] = []
        var found = run(features, mirrored: false, timings: &timings, shortlisted: &shortlisted, verified: &verified,
                        votes: &votes, tables: printing ? configuration.printedShortlistTables : nil, verifying: probing ? 1 : nil)
        if stop() { return nil }
        // The mirror image, when it is looked at: its features, quick shortlist and verifications so far.
        var mirrored: ImageFeatures?
        var flippedShortlist: [(reference: Int, votes: Int)] = []
        var flippedVerified: [Int: Verification] = [:]
        var flipped: [MatchCandidate] = []
        var usedMirror = false
        if probing, (found.first?.score ?? 0) < decisive {
            // The mirror probe: before the network runs, a quick keypoint look at the mirror image, which
            // decides a mirrored picture of a catalog place as the first pass decides an unmirrored one.
            usedMirror = true
            let probed = Self.mirroredFeatures(of: mirrorSource, kept: &mirrored, timings: &timings)
            flipped = run(
                probed, mirrored: true, timings: &timings, shortlisted: &flippedShortlist, verified: &flippedVerified,
                votes: &otherVotes, size: configuration.mirrorProbeSize, tables: configuration.mirrorProbeTables)
            if stop() { return nil }
            if (flipped.first?.score ?? 0) < decisive, !shortlistAfterPrint {
                found = verifyDeferred(
                    features, mirrored: false, shortlisted: shortlisted, into: found, verified: &verified, timings: &timings)
            }
        }
        var similarity: PrintComparison?
        var queryPrint: FeaturePrint?
        var byPrint: [Int] = []
        if printing, let image, (found.first?.score ?? 0) < decisive, (flipped.first?.score ?? 0) < decisive,
           let printed = printSimilarities(of: image, timings: &timings) {
            queryPrint = printed.print
            similarity = printed.similarity
            if stop() { return nil }
            if let similarity {
                let t = StageInstant.now()
                byPrint = nearestByPrint(similarity, excluding: found, votes: votes)
                found = verifyExtra(features, byPrint, into: found, mirrored: false, verified: &verified)
                if ranksPrintByAgreement, (found.first?.score ?? 0) < decisive, (flipped.first?.score ?? 0) < decisive,
                   !accepts(best(merge(found, flipped), similarity: similarity), similarity: similarity) {
                    let agreed = agreedByPrint(similarity, features: features, excluding: found)
                    byPrint += agreed
                    found = verifyExtra(features, agreed, into: found, mirrored: false, verified: &verified)
                }
                timings.addVerification(since: t)
            }
        }
        if shortlistAfterPrint, (found.first?.score ?? 0) < decisive, (flipped.first?.score ?? 0) < decisive,
           !accepts(best(merge(found, flipped), similarity: similarity), similarity: similarity) {
            if stop() { return nil }
            found = verifyDeferred(
                features, mirrored: false, shortlisted: shortlisted, into: found, verified: &verified, timings: &timings)
        }
        var passes = [OrientationPass(
            features: features, mirrored: false, shortlisted: shortlisted, byPrint: byPrint, verified: verified)]
        var flippedByPrint: [Int] = []
        if configuration.mirrorCascade,
           !accepts(best(merge(found, flipped), similarity: similarity), similarity: similarity) {
            if stop() { return nil }
            usedMirror = true
            let mirroredFeatures = Self.mirroredFeatures(of: mirrorSource, kept: &mirrored, timings: &timings)
            if stop() { return nil }
            if let similarity {
                // The print does not see mirroring (every reference keeps the print of its mirror image), so
                // it has already named the references a mirrored picture may show: the mirrored keypoints
                // are verified against those (less any the probe verified), with no further keypoint shortlist.
                // The probe's votes, when it ran, are the mirror image's own: where they meet the print (a large
                // catalog's), they name the mirrored picture's place as the first pass's votes name an unmirrored one.
                let v = StageInstant.now()
                flippedByPrint = nearestByPrint(
                    similarity, excluding: [], count: configuration.mirrorShortlistSize, votes: otherVotes)
                let unverified = flippedByPrint.filter { flippedVerified[$0] == nil }
                flipped = verifyExtra(mirroredFeatures, unverified, into: flipped, mirrored: true, verified: &flippedVerified)
                if ranksPrintByAgreement,
                   !accepts(best(merge(found, flipped), similarity: similarity), similarity: similarity) {
                    let agreed = agreedByPrint(similarity, features: mirroredFeatures, excluding: flipped)
                    flippedByPrint += agreed
                    flipped = verifyExtra(mirroredFeatures, agreed, into: flipped, mirrored: true, verified: &flippedVerified)
                }
                timings.addVerification(since: v)
            } else {
                flipped = run(
                    mirroredFeatures, mirrored: true, timings: &timings, shortlisted: &flippedShortlist,
                    verified: &flippedVerified, votes: &otherVotes)
            }
        }
        if let mirrored {
            passes.append(OrientationPass(
                features: mirrored, mirrored: true, shortlisted: flippedShortlist, byPrint: flippedByPrint,
                verified: flippedVerified))
            found = merge(found, flipped)
        }
        if let comparison = similarity, let queryPrint {
            // A found place the print's inverted file did not bring up is judged by its own print all the same.
            similarity = completing(comparison, withGroups: found.compactMap { groupIndex[$0.referenceID] }, query: queryPrint.values)
        }
        let decided = report(found, similarity: similarity, limit: limit, timings: timings, keypoints: features.count,
                             usedMirror: usedMirror, featurePrint: queryPrint)
        if stop() { return nil }
        return locatePlaces(in: decided, found: found, passes: passes, similarity: similarity, limit: limit)
    }

    /// The mirror image's features: `kept` when the probe derived them already, else derived now (timed as
    /// the mirror image's features) and kept.
    private static func mirroredFeatures(
        of source: MirrorSource, kept: inout ImageFeatures?, timings: inout StageTimings
    ) -> ImageFeatures {
        if let kept { return kept }
        let t = StageInstant.now()
        let features = source.mirroredFeatures()
        timings.addMirrorFeatures(since: t)
        kept = features
        return features
    }

    /// Matches precomputed query features in their given orientation only (no mirror cascade).
    public func match(features: ImageFeatures, limit: Int = 5) -> MatchReport {
        var timings = StageTimings()
        var shortlisted: [(reference: Int, votes: Int)] = []
        var verified: [Int: Verification] = [:]
        var votes: [Int32] = []
        let found = run(features, mirrored: false, timings: &timings, shortlisted: &shortlisted, verified: &verified,
                        votes: &votes)
        let decided = report(
            found, similarity: nil, limit: limit, timings: timings, keypoints: features.count, usedMirror: false)
        let pass = OrientationPass(
            features: features, mirrored: false, shortlisted: shortlisted, byPrint: [], verified: verified)
        return locatePlaces(in: decided, found: found, passes: [pass], similarity: nil, limit: limit)
    }
}
