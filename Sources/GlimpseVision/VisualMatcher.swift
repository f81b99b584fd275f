import GlimpseFeaturePrint
import Foundation
import GlimpseImage

/// Finds which reference photo a query image shows, or that it shows none.
///
/// Built once from the features of every reference; immutable afterwards, so one matcher can
/// serve concurrent queries from many tasks. A query runs these stages: feature extraction,
/// a shortlist of ``VisionConfiguration/shortlistSize`` references by nearest-neighbour voting
/// through an ``LSHIndex`` over all reference descriptors, and geometric verification (ratio-test
/// matching and similarity RANSAC) of the shortlisted references. When no candidate is decisive
/// (``VisionConfiguration/decisiveScore``) and the matcher has a feature printer, the query's feature
/// print is computed and the references with the nearest prints
/// (``VisionConfiguration/printShortlistSize``) are verified too. Every candidate gets a confidence
/// from its verified score and its print similarity (``MatchDecision``); the best is accepted when
/// its confidence reaches ``MatchDecision/acceptLine``. Otherwise, with the mirror cascade on, the
/// mirror image of the query is tried too.
public final class VisualMatcher: Sendable {
    /// The configuration the matcher and its references use.
    public let configuration: VisionConfiguration
    /// Reference identifiers in registration order.
    public let referenceIDs: [String]
    /// Long side in pixels of each reference's extraction image.
    let referenceLongSides: [Double]
    /// Descriptor range of reference `r`: `descriptorStarts[r] ..< descriptorStarts[r + 1]`.
    let descriptorStarts: [Int]
    /// Descriptors of every reference, contiguous, four words each.
    let words: [UInt64]
    /// Keypoint positions, `x, y` interleaved, one pair per descriptor.
    let points: [Float]
    /// The reference that owns each descriptor.
    let owners: [UInt32]
    /// The shortlist index over `words`.
    public let lsh: LSHIndex
    /// Computes query feature prints; `nil` when the matcher runs on keypoints alone.
    public let printer: (any FeaturePrinting)?
    /// The references' feature prints (several views each), `printDimension` values each; empty without a printer.
    let prints: [Float]
    /// The reference each row of `prints` belongs to.
    let printOwners: [Int32]
    /// Values per feature print (0 without a printer).
    public let printDimension: Int
    /// The number of reference feature prints held (one per view of each reference).
    public var printCount: Int { printOwners.count }
    /// The position of each reference id in ``referenceIDs``.
    let referenceIndex: [String: Int]

    /// Builds a matcher over `references` (identifiers should be unique; features must have been
    /// extracted with the same extraction settings as `configuration`).
    ///
    /// With a `printer`, every reference should carry a feature print made by it (see
    /// ``ReferenceLoader``); a reference without one, or with one of another length, is never
    /// shortlisted by print and counts as dissimilar.
    public init(
        references: [(id: String, features: ImageFeatures)], configuration: VisionConfiguration = .default,
        printer: (any FeaturePrinting)? = nil
    ) {
        self.configuration = configuration
        self.printer = printer
        let dimension = printer?.featurePrintDimension ?? 0
        printDimension = dimension
        var prints: [Float] = []
        var printOwners: [Int32] = []
        if dimension > 0 {
            for (r, ref) in references.enumerated() {
                for print in ref.features.featurePrints where print.dimension == dimension {
                    prints.append(contentsOf: print.values)
                    printOwners.append(Int32(r))
                }
            }
        }
        self.prints = prints
        self.printOwners = printOwners
        referenceIDs = references.map(\.id)
        referenceIndex = Dictionary(references.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        referenceLongSides = references.map { Double(max($0.features.width, $0.features.height)) }
        var starts = [0]
        var words: [UInt64] = []
        var points: [Float] = []
        var owners: [UInt32] = []
        let total = references.reduce(0) { $0 + $1.features.count }
        words.reserveCapacity(total * 4)
        points.reserveCapacity(total * 2)
        owners.reserveCapacity(total)
        for (r, ref) in references.enumerated() {
            words.append(contentsOf: ref.features.descriptorWords)
            for k in ref.features.keypoints {
                points.append(k.x)
                points.append(k.y)
            }
            owners.append(contentsOf: repeatElement(UInt32(r), count: ref.features.count))
            starts.append(words.count / 4)
        }
        self.descriptorStarts = starts
        self.words = words
        self.points = points
        self.owners = owners
        self.lsh = LSHIndex(words: words, tables: configuration.lshTables, minimumBits: configuration.lshBits)
    }

    /// The number of references.
    public var referenceCount: Int { referenceIDs.count }
    /// The number of reference descriptors held.
    public var descriptorCount: Int { owners.count }
    /// Key bits per LSH table chosen for this index size.
    public var lshBits: Int { lsh.bits }

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
        let features = FeatureExtractor.extract(fromPrepared: prepared, configuration: configuration)
        timings.addFeatures(since: start)
        if stop() { return nil }
        var found = run(features, mirrored: false, timings: &timings)
        if stop() { return nil }
        var similarity: PrintComparison?
        var queryPrint: FeaturePrint?
        if let image, printer != nil, (found.first?.score ?? 0) < Double(configuration.decisiveScore),
           let printed = printSimilarities(of: image, timings: &timings) {
            queryPrint = printed.print
            similarity = printed.similarity
            if stop() { return nil }
            if let similarity {
                let t = StageInstant.now()
                found = verifyExtra(features, nearestByPrint(similarity, excluding: found), into: found, mirrored: false)
                timings.addVerification(since: t)
            }
        }
        var usedMirror = false
        if configuration.mirrorCascade, !accepts(best(found, similarity: similarity), similarity: similarity) {
            if stop() { return nil }
            usedMirror = true
            let t = StageInstant.now()
            let mirrored = FeatureExtractor.extract(fromPrepared: prepared.mirrored(), configuration: configuration)
            timings.addFeatures(since: t)
            if stop() { return nil }
            var flipped = run(mirrored, mirrored: true, timings: &timings)
            if let similarity {
                let v = StageInstant.now()
                flipped = verifyExtra(mirrored, nearestByPrint(similarity, excluding: flipped), into: flipped, mirrored: true)
                timings.addVerification(since: v)
            }
            found = merge(found, flipped)
        }
        return report(found, similarity: similarity, limit: limit, timings: timings, keypoints: features.count,
                      usedMirror: usedMirror, featurePrint: queryPrint)
    }

    /// Matches precomputed query features in their given orientation only (no mirror cascade).
    public func match(features: ImageFeatures, limit: Int = 5) -> MatchReport {
        var timings = StageTimings()
        let found = run(features, mirrored: false, timings: &timings)
        return report(found, similarity: nil, limit: limit, timings: timings, keypoints: features.count, usedMirror: false)
    }

    // MARK: - Stages

    /// Shortlist and verification of one orientation; candidates sorted best first.
    func run(_ features: ImageFeatures, mirrored: Bool, timings: inout StageTimings) -> [MatchCandidate] {
        var t = StageInstant.now()
        let shortlist = self.shortlist(
            features, size: mirrored ? configuration.mirrorShortlistSize : configuration.shortlistSize)
        timings.addShortlist(since: t)
        t = StageInstant.now()
        var out: [MatchCandidate] = []
        var decided = false
        for (ref, votes) in shortlist {
            if decided {
                out.append(MatchCandidate(
                    referenceID: referenceIDs[ref], votes: votes, verified: false, inliers: 0, score: 0,
                    mirrored: mirrored))
                continue
            }
            let v = verify(features, reference: ref)
            out.append(MatchCandidate(
                referenceID: referenceIDs[ref], votes: votes, verified: true, inliers: v.inliers,
                score: Double(v.score), mirrored: mirrored))
            if v.score >= configuration.decisiveScore { decided = true }
        }
        timings.addVerification(since: t)
        return sortCandidates(out)
    }

    /// The `size` references (default: the configured shortlist size) with the most
    /// nearest-neighbour votes, most first, with their votes.
    public func shortlist(_ features: ImageFeatures, size: Int? = nil) -> [(reference: Int, votes: Int)] {
        guard referenceCount > 0, features.count > 0 else { return [] }
        var votes = [Int32](repeating: 0, count: referenceCount)
        let nearest = lsh.nearest(
            queries: features.descriptorWords, references: words, bucketCap: configuration.lshBucketCap)
        for nn in nearest where nn.index >= 0 && Int(nn.distance) <= configuration.voteMaxDistance {
            votes[Int(owners[Int(nn.index)])] += 1
        }
        // Partial selection of the top K by votes (ties: lower index first).
        let k = min(size ?? configuration.shortlistSize, referenceCount)
        var top: [(reference: Int, votes: Int)] = []
        top.reserveCapacity(k + 1)
        for (r, v) in votes.enumerated() where v > 0 {
            if top.count == k, let last = top.last, Int(v) <= last.votes { continue }
            var pos = top.count
            while pos > 0 && top[pos - 1].votes < Int(v) { pos -= 1 }
            top.insert((r, Int(v)), at: pos)
            if top.count > k { top.removeLast() }
        }
        return top
    }

    /// Ratio-test matches of the query against one reference, then similarity RANSAC.
    ///
    /// - Returns: the inlier count and the score (distinct reference keypoints among the inliers).
    public func verify(_ features: ImageFeatures, reference: Int) -> (inliers: Int, score: Int) {
        let lo = descriptorStarts[reference], hi = descriptorStarts[reference + 1]
        guard hi - lo >= 2, features.count >= 2 else { return (0, 0) }
        var from: [(Double, Double)] = []
        var to: [(Double, Double)] = []
        var refIndex: [Int] = []
        from.reserveCapacity(256)
        to.reserveCapacity(256)
        let ratio = configuration.ratio
        let q = features.descriptorWords
        for i in 0..<features.count {
            let nn = Hamming.nearestTwo(query: q, i, in: words, start: lo, count: hi - lo)
            guard nn.index >= 0, nn.distance <= configuration.matchMaxDistance,
                  Double(nn.distance) < ratio * Double(nn.second) else { continue }
            let j = lo + nn.index
            let kp = features.keypoints[i]
            from.append((Double(kp.x), Double(kp.y)))
            to.append((Double(points[2 * j]), Double(points[2 * j + 1])))
            refIndex.append(j)
        }
        guard from.count >= 2 else { return (0, 0) }
        let threshold = configuration.ransacThresholdFraction * referenceLongSides[reference]
        guard let result = SimilarityRANSAC.estimate(
            from: from, to: to, threshold: threshold, scaleRange: configuration.ransacScaleRange,
            iterations: configuration.ransacIterations)
        else { return (0, 0) }
        let distinct = Set(result.inliers.map { refIndex[$0] }).count
        return (result.inliers.count, distinct)
    }

    // MARK: - Feature print

    /// The cosine similarity of `image`'s feature print to every reference's, in reference order, or
    /// `nil` when the print cannot be computed (the query then runs on keypoints alone).
    func printSimilarities(of image: PixelBuffer, timings: inout StageTimings) -> (print: FeaturePrint, similarity: PrintComparison)? {
        guard let printer, printDimension > 0 else { return nil }
        let t = StageInstant.now()
        defer { timings.addFeaturePrint(since: t) }
        guard let query = try? printer.featurePrint(of: image), query.dimension == printDimension else { return nil }
        let rows = PrintSimilarity.cosines(query.values, against: prints, dimension: printDimension)
        return (query, PrintComparison(PrintSimilarity.best(rows, owners: printOwners, count: referenceCount)))
    }

    /// The ``VisionConfiguration/printShortlistSize`` references most similar by print that were not
    /// verified already, most similar first.
    func nearestByPrint(_ similarity: PrintComparison, excluding found: [MatchCandidate]) -> [Int] {
        let seen = Set(found.filter(\.verified).map(\.referenceID))
        let order = PrintSimilarity.top(similarity.values, count: configuration.printShortlistSize + seen.count)
        return Array(order.filter { !seen.contains(referenceIDs[$0]) }.prefix(configuration.printShortlistSize))
    }

    /// `found` with verified candidates for `references` in place of any unverified entries of the same
    /// references.
    func verifyExtra(_ features: ImageFeatures, _ references: [Int], into found: [MatchCandidate], mirrored: Bool) -> [MatchCandidate] {
        guard !references.isEmpty else { return found }
        let added = Set(references.map { referenceIDs[$0] })
        var out = found.filter { !added.contains($0.referenceID) }
        for ref in references {
            let v = verify(features, reference: ref)
            let votes = found.first { $0.referenceID == referenceIDs[ref] }?.votes ?? 0
            out.append(MatchCandidate(
                referenceID: referenceIDs[ref], votes: votes, verified: true, inliers: v.inliers,
                score: Double(v.score), mirrored: mirrored))
        }
        return sortCandidates(out)
    }

    // MARK: - Decision and assembly

    func sortCandidates(_ list: [MatchCandidate]) -> [MatchCandidate] {
        list.sorted { l, r in
            if l.verified != r.verified { return l.verified }
            if l.score != r.score { return l.score > r.score }
            return l.votes > r.votes
        }
    }

    /// Per reference, keeps the better of the two orientations' candidates.
    func merge(_ a: [MatchCandidate], _ b: [MatchCandidate]) -> [MatchCandidate] {
        var best: [String: MatchCandidate] = [:]
        for c in a + b {
            if let old = best[c.referenceID] {
                let better = sortCandidates([old, c]).first ?? old
                best[c.referenceID] = better
            } else {
                best[c.referenceID] = c
            }
        }
        return sortCandidates(Array(best.values))
    }

    /// The print similarity of the reference named `id`, and that of the most similar other reference,
    /// when prints were compared.
    func similarity(of id: String, in similarity: PrintComparison?) -> (similarity: Double, rival: Double)? {
        guard let similarity, let index = referenceIndex[id], index < similarity.values.count else { return nil }
        return (Double(similarity.values[index]), Double(similarity.rival(of: index)))
    }

    /// The candidate with the highest confidence.
    func best(_ found: [MatchCandidate], similarity: PrintComparison?) -> MatchCandidate? {
        found.max { confidence($0, similarity: similarity) < confidence($1, similarity: similarity) }
    }

    /// Whether `candidate` is accepted as the place shown.
    func accepts(_ candidate: MatchCandidate?, similarity: PrintComparison?) -> Bool {
        guard let candidate, candidate.verified else { return false }
        return confidence(candidate, similarity: similarity) >= MatchDecision.acceptLine
    }

    func confidence(_ candidate: MatchCandidate, similarity: PrintComparison?) -> Double {
        let printed = self.similarity(of: candidate.referenceID, in: similarity)
        return configuration.decision.confidence(
            score: candidate.verified ? candidate.score : 0, similarity: printed?.similarity, rival: printed?.rival ?? 0,
            acceptScore: configuration.acceptScore)
    }

    func report(
        _ found: [MatchCandidate], similarity: PrintComparison?, limit: Int, timings: StageTimings, keypoints: Int,
        usedMirror: Bool, featurePrint: FeaturePrint? = nil
    ) -> MatchReport {
        var ranked = found
        if let similarity {
            // References close by print that were never verified still rank, by print alone.
            let present = Set(found.map(\.referenceID))
            for ref in PrintSimilarity.top(similarity.values, count: max(0, limit)) where !present.contains(referenceIDs[ref]) {
                ranked.append(MatchCandidate(
                    referenceID: referenceIDs[ref], votes: 0, verified: false, inliers: 0, score: 0, mirrored: false))
            }
        }
        let scored = ranked.map { candidate in
            candidate.with(similarity: self.similarity(of: candidate.referenceID, in: similarity)?.similarity,
                           confidence: confidence(candidate, similarity: similarity))
        }
        .sorted { l, r in
            if l.confidence != r.confidence { return l.confidence > r.confidence }
            if l.verified != r.verified { return l.verified }
            if l.score != r.score { return l.score > r.score }
            return l.votes > r.votes
        }
        let top = Array(scored.prefix(max(0, limit)))
        let accepted = scored.first.flatMap { $0.verified && $0.confidence >= MatchDecision.acceptLine ? $0 : nil }
        return MatchReport(
            candidates: top, accepted: accepted, timings: timings, queryKeypoints: keypoints, usedMirror: usedMirror,
            featurePrint: featurePrint)
    }
}
