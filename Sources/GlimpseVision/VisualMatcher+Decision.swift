import GlimpseFeaturePrint
import Foundation
import GlimpseImage

/// Which candidate wins, whether it is accepted, with what confidence, and the report.
extension VisualMatcher {
    /// Best first: verified before unverified, then by score, votes and reference identifier.
    func sortCandidates(_ list: [MatchCandidate]) -> [MatchCandidate] {
        list.sorted(by: Self.outranks)
    }

    /// Whether `l` ranks before `r` on the evidence alone: verified first, then score, votes and, for a
    /// total order, the reference identifier (`merge` hands its candidates over in dictionary order,
    /// which differs between two matchers holding the same references).
    static func outranks(_ l: MatchCandidate, _ r: MatchCandidate) -> Bool {
        if l.verified != r.verified { return l.verified }
        if l.score != r.score { return l.score > r.score }
        if l.votes != r.votes { return l.votes > r.votes }
        return l.referenceID < r.referenceID
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
        guard let similarity, let group = groupIndex[id] else { return nil }
        return (Double(similarity.value(ofGroup: group)), Double(similarity.rival(of: group)))
    }

    /// The candidate with the highest confidence.
    func best(_ found: [MatchCandidate], similarity: PrintComparison?) -> MatchCandidate? {
        found.max { confidence($0, similarity: similarity) < confidence($1, similarity: similarity) }
    }

    /// Whether `candidate` is accepted as the place shown: verified with a confidence at the line, or
    /// over the calibrated print-alone line.
    func accepts(_ candidate: MatchCandidate?, similarity: PrintComparison?) -> Bool {
        guard let candidate else { return false }
        if candidate.verified && confidence(candidate, similarity: similarity) >= MatchDecision.acceptLine { return true }
        return printConfidence(candidate, similarity: similarity) >= MatchDecision.acceptLine
    }

    /// The candidate's confidence: the larger of the model's (keypoint score and print) and the print's alone.
    func confidence(_ candidate: MatchCandidate, similarity: PrintComparison?) -> Double {
        let printed = self.similarity(of: candidate.referenceID, in: similarity)
        let model = configuration.decision.confidence(
            score: candidate.verified ? candidate.score : 0, similarity: printed?.similarity, rival: printed?.rival ?? 0,
            acceptScore: configuration.acceptScore)
        return max(model, printConfidence(candidate, similarity: similarity))
    }

    /// The confidence the print alone gives the candidate against its place's calibrated line (0 without a
    /// calibration or a print).
    func printConfidence(_ candidate: MatchCandidate, similarity: PrintComparison?) -> Double {
        guard let calibration = printCalibration,
              let printed = self.similarity(of: candidate.referenceID, in: similarity) else { return 0 }
        return configuration.decision.printConfidence(
            similarity: printed.similarity, rival: printed.rival, line: calibration.line(for: candidate.referenceID))
    }

    /// The look-alike place whose raised line alone kept `candidate` from being accepted on its print:
    /// its print evidence passes the catalog's line but not its place's own.
    func heldBackBy(_ candidate: MatchCandidate, similarity: PrintComparison?) -> String? {
        guard let calibration = printCalibration, let lookAlike = calibration.lookAlikes[candidate.referenceID],
              lookAlike.line > calibration.threshold,
              let printed = self.similarity(of: candidate.referenceID, in: similarity) else { return nil }
        let evidence = configuration.decision.printEvidence(similarity: printed.similarity, rival: printed.rival)
        return evidence > calibration.threshold && evidence <= lookAlike.line ? lookAlike.place : nil
    }

    /// The print evidence of the candidate (similarity, margin over the next place), when prints were compared.
    func printEvidence(of id: String, in similarity: PrintComparison?) -> (similarity: Double, margin: Double)? {
        guard let printed = self.similarity(of: id, in: similarity) else { return nil }
        return (printed.similarity, printed.similarity - printed.rival)
    }

    func report(
        _ found: [MatchCandidate], similarity: PrintComparison?, limit: Int, timings: StageTimings, keypoints: Int,
        usedMirror: Bool, featurePrint: FeaturePrint? = nil
    ) -> MatchReport {
        var ranked = found
        if let similarity {
            // References close by print that were never verified still rank, by print alone.
            let present = Set(found.map(\.referenceID))
            for group in similarity.top(max(0, limit)) where !present.contains(groupIDs[group]) {
                ranked.append(MatchCandidate(
                    referenceID: groupIDs[group], votes: 0, verified: false, inliers: 0, score: 0, mirrored: false))
            }
        }
        let scored = ranked.map { candidate in
            let evidence = printEvidence(of: candidate.referenceID, in: similarity)
            return candidate.with(similarity: evidence?.similarity, margin: evidence?.margin,
                                  confidence: confidence(candidate, similarity: similarity))
        }
        .sorted { l, r in
            l.confidence != r.confidence ? l.confidence > r.confidence : Self.outranks(l, r)
        }
        let accepted = scored.first.flatMap { accepts($0, similarity: similarity) ? $0 : nil }
        let top = scored.prefix(max(0, limit)).map { candidate in
            candidate.referenceID == accepted?.referenceID ? candidate : candidate.with(
                similarity: candidate.similarity, margin: candidate.margin, confidence: candidate.confidence,
                heldBackBy: heldBackBy(candidate, similarity: similarity))
        }
        return MatchReport(
            candidates: top, accepted: accepted, timings: timings, queryKeypoints: keypoints, usedMirror: usedMirror,
            featurePrint: featurePrint)
    }
}
