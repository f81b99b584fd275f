import GlimpseBasics
public import GlimpseLabels

/// How much better one method's micro F1 is than another's on the same test photos, with a
/// confidence interval from a paired bootstrap.
public struct MicroF1Gain: Sendable, Hashable, Codable {
    /// Micro F1 of the method minus micro F1 of the baseline, on the test photos as they are.
    public let gain: Double
    /// Lower end of the 95 % interval: the 2.5th percentile of the resampled gains, nearest rank
    /// (``LatencySummary/percentile(_:_:)``, the package's one percentile).
    public let low: Double
    /// Upper end of the 95 % interval (97.5th percentile).
    public let high: Double
    /// Share of resamples in which the method scored higher than the baseline.
    public let shareAbove: Double
    /// Number of resamples.
    public let resamples: Int
    /// Number of groups resampled (photos, or the source photos of distorted queries).
    public let groups: Int

    /// Whether the whole 95 % interval lies above zero.
    public var isClear: Bool { low > 0 }
}

/// The paired bootstrap of a micro-F1 difference.
///
/// Test photos are drawn with replacement, by group (a distorted query goes with the other
/// queries made from the same photo, since they are not independent), and both methods are
/// scored on the same draw, so the interval reflects the difference rather than each method's
/// own spread.
public enum PairedBootstrap {
    /// The gain of `method` over `baseline`: `method[i]` and `baseline[i]` are the counts of test
    /// item `i` under each, and `group[i]` the group it is drawn with. `nil` when the inputs differ
    /// in length or are empty.
    public static func microF1Gain(
        method: [PhotoLabelCounts], baseline: [PhotoLabelCounts], group: [Int], resamples: Int = 2000,
        seed: UInt64 = 1
    ) -> MicroF1Gain? {
        guard !method.isEmpty, method.count == baseline.count, method.count == group.count, resamples > 0 else {
            return nil
        }
        var index: [Int: Int] = [:]
        var methodSums: [PhotoLabelCounts] = []
        var baselineSums: [PhotoLabelCounts] = []
        for i in method.indices {
            let slot: Int
            if let found = index[group[i]] {
                slot = found
            } else {
                slot = methodSums.count
                index[group[i]] = slot
                methodSums.append(.zero)
                baselineSums.append(.zero)
            }
            methodSums[slot] = methodSums[slot] + method[i]
            baselineSums[slot] = baselineSums[slot] + baseline[i]
        }
        let observed = methodSums.reduce(.zero, +).microF1 - baselineSums.reduce(.zero, +).microF1
        var generator = SeededGenerator(seed: seed)
        var gains: [Double] = []
        gains.reserveCapacity(resamples)
        var above = 0
        let groups = methodSums.count
        for _ in 0..<resamples {
            var m = PhotoLabelCounts.zero
            var b = PhotoLabelCounts.zero
            for _ in 0..<groups {
                let pick = Int(generator.next() % UInt64(groups))
                m = m + methodSums[pick]
                b = b + baselineSums[pick]
            }
            let gain = m.microF1 - b.microF1
            if gain > 0 { above += 1 }
            gains.append(gain)
        }
        gains.sort()
        return MicroF1Gain(gain: observed, low: LatencySummary.percentile(gains, 0.025),
                           high: LatencySummary.percentile(gains, 0.975),
                           shareAbove: Double(above) / Double(resamples), resamples: resamples, groups: groups)
    }
}
