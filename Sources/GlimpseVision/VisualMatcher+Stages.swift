import Foundation

/// The matcher's stages for one orientation of a query: the LSH shortlist, and geometric verification
/// (ratio-test matches, then similarity RANSAC) of the shortlisted references.
extension VisualMatcher {
    /// Shortlist and verification of one orientation; candidates sorted best first.
    func run(_ features: ImageFeatures, mirrored: Bool, timings: inout StageTimings) -> [MatchCandidate] {
        var shortlisted: [(reference: Int, votes: Int)] = []
        var verified: [Int: Verification] = [:]
        var votes: [Int32] = []
        return run(features, mirrored: mirrored, timings: &timings, shortlisted: &shortlisted, verified: &verified,
                   votes: &votes)
    }

    /// ``run(_:mirrored:timings:)`` that also hands back the shortlist and each verified reference's
    /// verification with its inlier pairs (what locating the accepted place reuses).
    ///
    /// - Parameters:
    ///   - size: how many shortlisted references are verified (default: the configured shortlist size of
    ///     the orientation).
    ///   - tables: how many LSH tables the shortlist looks in (default: all).
    ///   - verifying: how many shortlisted references are verified now (default: all, until one is
    ///     decisive); the rest are left unverified for ``verifyDeferred(_:mirrored:shortlisted:into:verified:timings:)``.
    ///   - votes: set to every reference's keypoint votes.
    func run(
        _ features: ImageFeatures, mirrored: Bool, timings: inout StageTimings,
        shortlisted: inout [(reference: Int, votes: Int)], verified: inout [Int: Verification], votes: inout [Int32],
        size: Int? = nil, tables: Int? = nil, verifying: Int? = nil
    ) -> [MatchCandidate] {
        var t = StageInstant.now()
        let shortlist = self.shortlist(
            features, size: size ?? (mirrored ? configuration.mirrorShortlistSize : configuration.shortlistSize),
            tables: tables, votes: &votes)
        shortlisted = shortlist
        timings.addShortlist(since: t)
        t = StageInstant.now()
        var out: [MatchCandidate] = []
        var decided = false
        var done = 0
        for (ref, votes) in shortlist {
            if decided {
                out.append(MatchCandidate(
                    referenceID: groupID(of: ref), votes: votes, verified: false, inliers: 0, score: 0,
                    mirrored: mirrored))
                continue
            }
            let candidate = verifiedCandidate(features, reference: ref, votes: votes, mirrored: mirrored, verified: &verified)
            out.append(candidate)
            done += 1
            if candidate.score >= Double(configuration.decisiveScore) || done >= (verifying ?? .max) { decided = true }
        }
        timings.addVerification(since: t)
        return merge(out, [])
    }

    /// `found` with the shortlisted references that ``run(_:mirrored:timings:shortlisted:verified:size:tables:verifying:)``
    /// left unverified now verified, in shortlist order, until one is decisive (nothing when one already is).
    func verifyDeferred(
        _ features: ImageFeatures, mirrored: Bool, shortlisted: [(reference: Int, votes: Int)],
        into found: [MatchCandidate], verified: inout [Int: Verification], timings: inout StageTimings
    ) -> [MatchCandidate] {
        let t = StageInstant.now()
        defer { timings.addVerification(since: t) }
        var out = found
        for (ref, votes) in shortlisted where verified[ref] == nil {
            if out.contains(where: { $0.verified && $0.score >= Double(configuration.decisiveScore) }) { break }
            out = merge(out, [verifiedCandidate(features, reference: ref, votes: votes, mirrored: mirrored, verified: &verified)])
        }
        return out
    }

    /// Verifies `reference` against `features`, keeps the verification (with its inlier pairs) in
    /// `verified`, and returns the verified candidate.
    func verifiedCandidate(
        _ features: ImageFeatures, reference: Int, votes: Int, mirrored: Bool, verified: inout [Int: Verification]
    ) -> MatchCandidate {
        let v = verification(features, reference: reference, keepingPairs: true)
        verified[reference] = v
        return MatchCandidate(
            referenceID: groupID(of: reference), votes: votes, verified: true, inliers: v.inliers,
            score: Double(v.score), mirrored: mirrored)
    }

    /// The `size` references (default: the configured shortlist size) with the most
    /// nearest-neighbour votes, most first, with their votes; with `tables`, the votes come from that many
    /// of the LSH tables only.
    public func shortlist(_ features: ImageFeatures, size: Int? = nil, tables: Int? = nil) -> [(reference: Int, votes: Int)] {
        var votes: [Int32] = []
        return shortlist(features, size: size, tables: tables, votes: &votes)
    }

    /// ``shortlist(_:size:tables:)`` that also hands back every reference's votes (empty when there are none).
    func shortlist(_ features: ImageFeatures, size: Int?, tables: Int?, votes: inout [Int32]) -> [(reference: Int, votes: Int)] {
        votes = []
        guard slotCount > 0, features.count > 0 else { return [] }
        votes = [Int32](repeating: 0, count: slotCount)
        // Each query descriptor votes once, for its nearest live reference descriptor over all segments,
        // as it would in one segment holding every reference.
        var best = [(reference: Int32, distance: UInt32)](repeating: (-1, .max), count: features.count)
        for (s, segment) in segments.enumerated() where segment.lsh.count > 0 {
            let base = segmentStarts[s]
            let nearest = segment.lsh.nearest(
                queries: features.descriptorWords, references: segment.lshWords, bucketCap: configuration.lshBucketCap,
                tables: tables)
            for (i, nn) in nearest.enumerated() where nn.index >= 0 && nn.distance < best[i].distance {
                let descriptor = segment.lshDescriptors.map { Int($0[Int(nn.index)]) } ?? Int(nn.index)
                let reference = base + Int(segment.owners[descriptor])
                if live[reference] { best[i] = (Int32(reference), nn.distance) }
            }
        }
        for nn in best where nn.reference >= 0 && Int(nn.distance) <= configuration.voteMaxDistance {
            votes[Int(nn.reference)] += 1
        }
        // Partial selection of the top K by votes (ties: lower index first).
        let k = min(size ?? configuration.shortlistSize, slotCount)
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

    /// Whether a query descriptor's nearest reference descriptor, `distance` bits away with the second nearest
    /// `second` bits away, is a match: within ``VisionConfiguration/matchMaxDistance`` and passing the ratio test.
    @inline(__always)
    func passesMatchTest(distance: Int, second: Int) -> Bool {
        distance <= configuration.matchMaxDistance && Double(distance) < configuration.ratio * Double(second)
    }

    /// Ratio-test matches of the query against one reference, then similarity RANSAC.
    ///
    /// - Returns: the inlier count and the score (distinct reference keypoints among the inliers).
    public func verify(_ features: ImageFeatures, reference: Int) -> (inliers: Int, score: Int) {
        let v = verification(features, reference: reference)
        return (v.inliers, v.score)
    }

    /// ``verify(_:reference:)`` with its evidence: the transform and, with `keepingPairs`, which query
    /// keypoint matched which reference descriptor. Query keypoints marked in `setAside` are left out
    /// (the second pass of ``locatePlaces``); without it, the result is exactly ``verify(_:reference:)``'s.
    func verification(
        _ features: ImageFeatures, reference: Int, setAside: [Bool]? = nil, keepingPairs: Bool = false
    ) -> Verification {
        guard reference >= 0, reference < slotCount else { return .none }
        let (s, local) = locate(reference)
        let segment = segments[s]
        // From memory, or copied out of the reference's keypoint slot.
        guard let held = segment.verificationKeypoints(of: local) else { return .none }
        let words = held.words, points = held.points
        let lo = held.start, hi = held.start + held.count
        guard hi - lo >= 2, features.count >= 2 else { return .none }
        var from: [(Double, Double)] = []
        var to: [(Double, Double)] = []
        var refIndex: [Int] = []
        var queryIndex: [Int32] = []
        from.reserveCapacity(256)
        to.reserveCapacity(256)
        if keepingPairs { queryIndex.reserveCapacity(256) }
        let q = features.descriptorWords
        let nearest = Hamming.nearestTwoOfEach(queries: q, in: words, start: lo, count: hi - lo)
        for i in 0..<features.count {
            if let setAside, setAside[i] { continue }
            let index = Int(nearest.index[i]), distance = Int(nearest.distance[i])
            guard index >= 0, passesMatchTest(distance: distance, second: Int(nearest.second[i])) else { continue }
            let j = lo + index
            let kp = features.keypoints[i]
            from.append((Double(kp.x), Double(kp.y)))
            to.append((Double(points[2 * j]), Double(points[2 * j + 1])))
            refIndex.append(j)
            if keepingPairs { queryIndex.append(Int32(i)) }
        }
        guard from.count >= 2 else { return .none }
        let threshold = configuration.ransacThresholdFraction * segment.longSides[local]
        guard let result = SimilarityRANSAC.estimate(
            from: from, to: to, threshold: threshold, scaleRange: configuration.ransacScaleRange,
            iterations: configuration.ransacIterations)
        else { return .none }
        let distinct = Set(result.inliers.map { refIndex[$0] }).count
        guard keepingPairs else {
            return Verification(inliers: result.inliers.count, score: distinct, transform: result.transform, pairs: [])
        }
        return Verification(
            inliers: result.inliers.count, score: distinct, transform: result.transform,
            pairs: result.inliers.map { (queryIndex[$0], Int32(refIndex[$0])) })
    }
}
