import GlimpseIndex
import GlimpseFeaturePrint
import Foundation
import GlimpseImage

/// The matcher's second signal: the query's feature print against every group's, and the groups it
/// brings to verification that the keypoint shortlist missed.
extension VisualMatcher {
    /// The cosine similarity of `image`'s feature print to every group's (its best reference view), in
    /// group order, or `nil` when the print cannot be computed (the query then runs on keypoints alone).
    func printSimilarities(of image: PixelBuffer, timings: inout StageTimings) -> (print: FeaturePrint, similarity: PrintComparison)? {
        guard let printer, printDimension > 0 else { return nil }
        let t = StageInstant.now()
        defer { timings.addFeaturePrint(since: t) }
        guard let query = try? printer.featurePrint(of: image), query.dimension == printDimension else { return nil }
        return (query, groupComparison(of: query.values))
    }

    /// The similarity of the print `query` to every group with prints: per group, the best similarity of its
    /// live references' views (at least 0), and which reference it came from. Costs the prints alone, however
    /// many groups have none.
    ///
    /// A segment that keeps its views as codes (``PrintCodes``) contributes only the groups of the views its
    /// inverted file finds nearest, with estimated similarities; ``completing(_:withGroups:query:)`` adds
    /// others by name.
    func groupComparison(of query: [Float]) -> PrintComparison {
        var best = GroupBest()
        for (s, segment) in segments.enumerated() where !segment.printOwners.isEmpty {
            let base = segmentStarts[s]
            if let codes = segment.printCodes {
                let prepared = codes.prepare(query)
                let search = PrintCodes.Search(probe: configuration.printCodeProbe, shortlist: configuration.printCodeShortlist)
                for (row, similarity) in codes.nearestRows(prepared, search: search) {
                    let owner = Int(segment.printOwners[row])
                    best.offer(group: Int(segment.groups[owner]), reference: base + owner, similarity: similarity, live: live)
                }
                continue
            }
            let rows = PrintSimilarity.cosines(query, against: segment.prints, dimension: printDimension)
            for (similarity, owner) in zip(rows, segment.printOwners) {
                best.offer(group: Int(segment.groups[Int(owner)]), reference: base + Int(owner), similarity: similarity, live: live)
            }
        }
        return best.comparison
    }

    /// `comparison` with the groups of `groups` it lacks added from the segments that keep codes (their
    /// views estimated one by one): so that a place the keypoints found is judged by its own print even when
    /// the inverted file did not bring it up. Unchanged when no segment keeps codes.
    func completing(_ comparison: PrintComparison, withGroups wanted: [Int], query: [Float]) -> PrintComparison {
        let missing = Set(wanted.filter { comparison.reference(ofGroup: $0) < 0 })
        guard !missing.isEmpty, printsCoded else { return comparison }
        var best = GroupBest(comparison)
        for (s, segment) in segments.enumerated() {
            guard let codes = segment.printCodes else { continue }
            let prepared = codes.prepare(query)
            for group in missing {
                for owner in segment.references(ofGroup: Int32(group)) {
                    for row in segment.printRows(of: Int(owner)) {
                        best.offer(group: group, reference: segmentStarts[s] + Int(owner),
                                   similarity: codes.estimate(prepared, row: row), live: live)
                    }
                }
            }
        }
        return best.comparison
    }

    /// Whether any reference block keeps its prints as codes in an inverted file: the large-catalog regime
    /// (``VisionConfiguration/printCodeLine``), where many references lie near any print.
    var printsCoded: Bool { segments.contains { $0.printCodes != nil } }

    /// The `count` references most similar by print (default ``VisionConfiguration/printShortlistSize``)
    /// whose groups were not verified already (each group's most similar reference), most similar first.
    ///
    /// With print codes (a large catalog, where many groups lie near any print) and the keypoint `votes` of
    /// every reference, as many again follow: of the ``VisionConfiguration/printVoteDepth`` groups nearest
    /// by print, the references with the most votes (at least one) not already named. A place whose print
    /// ranks behind distractors and whose votes were too few for the keypoint shortlist is found where
    /// the two signals meet, for no more verifications than the print's own.
    func nearestByPrint(
        _ similarity: PrintComparison, excluding found: [MatchCandidate], count: Int? = nil, votes: [Int32] = []
    ) -> [Int] {
        let count = count ?? configuration.printShortlistSize
        let seen = Set(found.filter(\.verified).map(\.referenceID))
        func references(_ groups: [Int]) -> [Int] { unverifiedReferences(of: groups, in: similarity, seen: seen) }
        let nearest = Array(references(similarity.top(count + seen.count)).prefix(count))
        guard count > 0, !votes.isEmpty, configuration.printVoteDepth > 0,
              printsCoded else { return nearest }
        let named = Set(nearest)
        let voted = references(similarity.top(configuration.printVoteDepth + seen.count))
            .filter { !named.contains($0) && $0 < votes.count && votes[$0] > 0 }
            .enumerated().sorted { votes[$0.element] != votes[$1.element] ? votes[$0.element] > votes[$1.element] : $0.offset < $1.offset }
            .map(\.element)
        return nearest + voted.prefix(count)
    }

    /// With print codes: of the ``VisionConfiguration/printAgreementDepth`` groups nearest by print whose
    /// groups were not verified already, the ``VisionConfiguration/printShortlistSize`` references whose
    /// in-memory keypoints agree most with `features` (at least ``leastAgreement``), most first (ties: nearer
    /// by print first). Empty below the print-code line, outside the compact regime (no
    /// ``VisionConfiguration/indexedKeypointLimit``: there memory holds every descriptor, the scan would cost
    /// a verification's, and the votes are not crowded out), or when turned off.
    ///
    /// Past the line the keypoint votes are crowded out: a distractor descriptor lies nearer than the true
    /// match to most query descriptors. Agreement counts, for these few references alone, the query
    /// descriptors whose nearest in the reference passes the ratio test, whatever lies nearer elsewhere.
    func agreedByPrint(_ similarity: PrintComparison, features: ImageFeatures, excluding found: [MatchCandidate]) -> [Int] {
        let depth = configuration.printAgreementDepth, count = configuration.printShortlistSize
        guard ranksPrintByAgreement, count > 0, features.count > 0 else { return [] }
        let seen = Set(found.filter(\.verified).map(\.referenceID))
        let pool = unverifiedReferences(of: similarity.top(depth + seen.count), in: similarity, seen: seen).prefix(depth)
        var ranked: [(order: Int, reference: Int, agreed: Int)] = []
        for (order, reference) in pool.enumerated() {
            let agreed = agreement(features, reference: reference)
            if agreed >= Self.leastAgreement { ranked.append((order, reference, agreed)) }
        }
        ranked.sort { $0.agreed != $1.agreed ? $0.agreed > $1.agreed : $0.order < $1.order }
        return ranked.prefix(count).map(\.reference)
    }

    /// The reference each of `groups` is compared by in `similarity` (its most similar), in order, leaving out
    /// the groups named in `seen` (verified already) and any without one.
    private func unverifiedReferences(of groups: [Int], in similarity: PrintComparison, seen: Set<String>) -> [Int] {
        groups.filter { !seen.contains(groupIDs[$0]) }.compactMap { group in
            let reference = similarity.reference(ofGroup: group)
            return reference >= 0 ? reference : nil
        }
    }

    /// Whether ``agreedByPrint(_:features:excluding:)`` names anything: past the print-code line, in the
    /// compact regime, with a depth.
    var ranksPrintByAgreement: Bool {
        configuration.printAgreementDepth > 0 && configuration.indexedKeypointLimit != nil && printsCoded
    }

    /// The fewest agreeing descriptors that bring a reference to verification in ``agreedByPrint(_:features:excluding:)``.
    static let leastAgreement = 2

    /// How many of the query's descriptors have their nearest among `reference`'s in-memory descriptors
    /// (with keypoint slots, the indexed ones) within ``VisionConfiguration/matchMaxDistance`` and passing the
    /// ratio test: the first half of verification, without reading the reference's slot.
    func agreement(_ features: ImageFeatures, reference: Int) -> Int {
        guard reference >= 0, reference < slotCount, features.count > 0 else { return 0 }
        let (s, local) = locate(reference)
        let segment = segments[s]
        let lo = segment.descriptorStarts[local], hi = segment.descriptorStarts[local + 1]
        guard hi - lo >= 2 else { return 0 }
        let nearest = Hamming.nearestTwoOfEach(queries: features.descriptorWords, in: segment.words, start: lo, count: hi - lo)
        var agreed = 0
        for i in 0..<features.count where nearest.index[i] >= 0
            && passesMatchTest(distance: Int(nearest.distance[i]), second: Int(nearest.second[i])) {
            agreed += 1
        }
        return agreed
    }

    /// `found` with verified candidates for `references` in place of any unverified entries of the same
    /// references.
    func verifyExtra(
        _ features: ImageFeatures, _ references: [Int], into found: [MatchCandidate], mirrored: Bool,
        verified: inout [Int: Verification]
    ) -> [MatchCandidate] {
        guard !references.isEmpty else { return found }
        let added = Set(references.map(groupID(of:)))
        var out = found.filter { !added.contains($0.referenceID) }
        for ref in references {
            let id = groupID(of: ref)
            let votes = found.first { $0.referenceID == id }?.votes ?? 0
            out.append(verifiedCandidate(features, reference: ref, votes: votes, mirrored: mirrored, verified: &verified))
        }
        return sortCandidates(out)
    }
}

/// Each group's best similarity so far and the reference it came from: how a ``PrintComparison`` is gathered.
struct GroupBest {
    private var position: [Int: Int] = [:]
    private var groups: [Int] = [], values: [Float] = [], references: [Int] = []

    init() {}

    /// Starting from what `comparison` holds.
    init(_ comparison: PrintComparison) {
        groups = comparison.groups
        values = comparison.values
        references = comparison.references
        for (i, group) in groups.enumerated() { position[group] = i }
    }

    /// Keeps `similarity` as `group`'s when `reference` is live and it is the group's best so far.
    mutating func offer(group: Int, reference: Int, similarity: Float, live: [Bool]) {
        guard live[reference] else { return }
        if let at = position[group] {
            guard similarity > values[at] else { return }
            values[at] = similarity
            references[at] = reference
        } else {
            position[group] = groups.count
            groups.append(group)
            values.append(similarity)
            references.append(reference)
        }
    }

    /// The comparison over the groups offered, ascending, each at least 0.
    var comparison: PrintComparison {
        let order = groups.indices.sorted { groups[$0] < groups[$1] }
        return PrintComparison(
            groups: order.map { groups[$0] }, values: order.map { max(0, values[$0]) }, references: order.map { references[$0] })
    }
}
