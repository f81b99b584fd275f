import Foundation

/// Measuring a catalog's print calibration (``PrintCalibration``): the null prints less the copies of
/// catalog photos, and the catalog's own views against the other places (in-domain nulls), which set the
/// line together and give each place its closest look-alike.
extension VisualMatcher {
    /// A null print at least this similar to a catalog view is a copy of that photo, not a photo of no
    /// place. Unrelated photos print far below it (the shipped nulls' best similarity on `Images/` is
    /// 0.83 at the 99th percentile); the same photo re-encoded or resized prints above 0.97.
    static let copySimilarity: Float = 0.95
    /// A null print whose best place has a copy among the nulls, and at least this similar to it, is a
    /// camera-like copy of the same photo (cropped, tilted, recoloured: the shipped pool holds each photo
    /// as it is and as two such copies, which print 0.63–0.96 to the place) and is left out too.
    static let copyFamilySimilarity: Float = 0.7
    /// The most catalog views measured against the other places; beyond it whole places are sampled
    /// at an even stride (by group number).
    static let lookAlikeViewLimit = 4_096

    /// Measures this matcher's calibration: the null prints against its live references (a matrix
    /// product of the nulls with every reference view), less those that are copies of its photos, and its
    /// own views against the other places (the in-domain nulls). The line is set over both kinds of null
    /// together, so a catalog whose places look alike has a higher line than one whose places are far
    /// apart; each place's line is then raised above its closest look-alike's evidence where that passes
    /// it. `nil` without null prints of the printer's dimension or with fewer than two places.
    public func measureCalibration() -> PrintCalibration? {
        guard let nulls = nullPrints, printDimension > 0, nulls.dimension == printDimension, nulls.count > 0 else {
            return nil
        }
        let decision = configuration.decision
        var bests: [(group: Int, similarity: Float, second: Float)] = []
        bests.reserveCapacity(nulls.count)
        var places = 0
        for row in 0..<nulls.count {
            let comparison = groupComparison(of: Self.row(row, of: nulls))
            places = comparison.groups.count
            bests.append((comparison.bestIndex, comparison.best, comparison.second))
        }
        guard places > 1 else { return nil }
        let copies = Self.copiesOfCatalogPhotos(bests.map { ($0.group, $0.similarity) })
        var evidence: [Double] = []
        evidence.reserveCapacity(nulls.count)
        for (row, best) in bests.enumerated() where best.group >= 0 && !copies.contains(row) {
            evidence.append(decision.printEvidence(similarity: Double(best.similarity), rival: Double(best.second)))
        }
        let (measured, inDomain, reached) = lookAlikeEvidence()
        guard let line = PrintCalibration.line(
            over: evidence, inDomain: inDomain, rate: decision.falseMatchRate, places: places) else { return nil }
        var lookAlikes: [String: PrintCalibration.LookAlike] = [:]
        for (group, strongest) in reached {
            lookAlikes[groupIDs[group]] = PrintCalibration.LookAlike(
                line: max(line.threshold, strongest.evidence + 1e-6), place: groupIDs[strongest.from],
                evidence: strongest.evidence)
        }
        return line.with(nullsLeftOut: copies.count, catalogViewsMeasured: measured, lookAlikes: lookAlikes)
    }

    /// Print `index` of `nulls`.
    static func row(_ index: Int, of nulls: NullPrints) -> [Float] {
        Array(nulls.values[(index * nulls.dimension)..<((index + 1) * nulls.dimension)])
    }

    /// The nulls that are copies of catalog photos, from each null's best place and similarity: those at
    /// least ``copySimilarity`` similar to a catalog view, and those at least ``copyFamilySimilarity``
    /// similar to a place that has such a copy (its camera-like copies).
    static func copiesOfCatalogPhotos(_ bests: [(group: Int, similarity: Float)]) -> Set<Int> {
        let copied = Set(bests.filter { $0.group >= 0 && $0.similarity >= copySimilarity }.map(\.group))
        return Set(bests.indices.filter { row in
            copied.contains(bests[row].group) && bests[row].similarity >= copyFamilySimilarity
        })
    }

    /// The catalog's own views as photos of no place for the other places (leave one place out): for
    /// each measured view, the evidence of its best place among the others, against the next one. Per
    /// place reached, the strongest such evidence and the place whose view reached it. Views kept as
    /// codes (``PrintCodes``) are measured as their codes read back (``PrintCodes/reading(row:)``).
    ///
    /// - Returns: the number of views measured; the evidence of each, less those at least
    ///   ``copySimilarity`` similar to their best other place (the same photo under two places); and per
    ///   group the strongest evidence and its source group.
    func lookAlikeEvidence() -> (measured: Int, evidence: [Double], reached: [Int: (evidence: Double, from: Int)]) {
        let decision = configuration.decision
        let views = segments.reduce(0) { $0 + $1.printOwners.count }
        guard printDimension > 0, views > 0 else { return (0, [], [:]) }
        let stride = max(1, (views + Self.lookAlikeViewLimit - 1) / Self.lookAlikeViewLimit)
        var all: [Double] = []
        var measured = 0
        var reached: [Int: (evidence: Double, from: Int)] = [:]
        forEachSampledView(stride: stride) { group, view in
            measured += 1
            guard let other = Self.bestOther(than: group, in: groupComparison(of: view)) else { return }
            let evidence = decision.printEvidence(similarity: Double(other.similarity), rival: Double(other.rival))
            // A view of the same photo under another place is a duplicate, not a look-alike object: it
            // raises that place's line below, but says nothing of where photos of no place land.
            if other.similarity < Self.copySimilarity { all.append(evidence) }
            if evidence > reached[other.group]?.evidence ?? -.infinity {
                reached[other.group] = (evidence, group)
            }
        }
        return (measured, all, reached)
    }

    /// Calls `body` with the group and print of every live view of the groups whose number is a multiple
    /// of `stride`: float views as they are, coded views as read back.
    private func forEachSampledView(stride: Int, _ body: (Int, [Float]) -> Void) {
        let dimension = printDimension
        for (s, segment) in segments.enumerated() {
            for reference in 0..<segment.count {
                let group = Int(segment.groups[reference])
                guard group % stride == 0, live[segmentStarts[s] + reference] else { continue }
                for row in segment.printRows(of: reference) {
                    if let codes = segment.printCodes {
                        body(group, codes.reading(row: row))
                    } else {
                        body(group, Array(segment.prints[(row * dimension)..<((row + 1) * dimension)]))
                    }
                }
            }
        }
    }

    /// The most similar group in `comparison` other than `excluded`, and the similarity of the next one
    /// (0 when there is none): what a photo of `excluded`'s place would be matched to without it.
    static func bestOther(than excluded: Int, in comparison: PrintComparison) -> (group: Int, similarity: Float, rival: Float)? {
        var best = -1
        var bestValue: Float = 0, rival: Float = 0
        for (group, value) in zip(comparison.groups, comparison.values) where group != excluded {
            if best < 0 || value > bestValue {
                if best >= 0 { rival = max(rival, bestValue) }
                best = group
                bestValue = value
            } else if value > rival {
                rival = value
            }
        }
        return best < 0 ? nil : (best, bestValue, rival)
    }
}
