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
    func groupComparison(of query: [Float]) -> PrintComparison {
        var position: [Int: Int] = [:]
        var groups: [Int] = [], values: [Float] = [], references: [Int] = []
        for (s, segment) in segments.enumerated() where !segment.printOwners.isEmpty {
            let rows = PrintSimilarity.cosines(query, against: segment.prints, dimension: printDimension)
            let base = segmentStarts[s]
            for (similarity, owner) in zip(rows, segment.printOwners) {
                let reference = base + Int(owner)
                guard live[reference] else { continue }
                let group = Int(segment.groups[Int(owner)])
                if let at = position[group] {
                    guard similarity > values[at] else { continue }
                    values[at] = similarity
                    references[at] = reference
                } else {
                    position[group] = groups.count
                    groups.append(group)
                    values.append(similarity)
                    references.append(reference)
                }
            }
        }
        let order = groups.indices.sorted { groups[$0] < groups[$1] }
        return PrintComparison(
            groups: order.map { groups[$0] }, values: order.map { max(0, values[$0]) }, references: order.map { references[$0] })
    }

    /// The `count` references most similar by print (default ``VisionConfiguration/printShortlistSize``)
    /// whose groups were not verified already (each group's most similar reference), most similar first.
    func nearestByPrint(_ similarity: PrintComparison, excluding found: [MatchCandidate], count: Int? = nil) -> [Int] {
        let count = count ?? configuration.printShortlistSize
        let seen = Set(found.filter(\.verified).map(\.referenceID))
        let order = similarity.top(count + seen.count)
        return Array(order.filter { !seen.contains(groupIDs[$0]) }.compactMap { group in
            let reference = similarity.reference(ofGroup: group)
            return reference >= 0 ? reference : nil
        }.prefix(count))
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
