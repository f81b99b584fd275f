import GlimpseEvaluation
@testable import GlimpseLabels
import Testing

@Suite("Paired bootstrap of a micro-F1 gain")
struct PairedBootstrapTests {
    static func counts(_ tp: Int, _ fp: Int, _ fn: Int) -> PhotoLabelCounts {
        PhotoLabelCounts(truePositives: tp, falsePositives: fp, falseNegatives: fn)
    }

    @Test("per-photo counts compare label sets")
    func photoCounts() {
        let c = PhotoLabelCounts(predicted: ["sky", "tree", "sky"], truth: ["sky", "water"])
        #expect(c == Self.counts(1, 1, 1))
    }

    @Test("identical methods gain nothing, in every resample")
    func identical() throws {
        let photos = (0..<50).map { Self.counts($0 % 3, $0 % 2, 1) }
        let gain = try #require(PairedBootstrap.microF1Gain(method: photos, baseline: photos,
                                                            group: Array(photos.indices)))
        #expect(gain.gain == 0 && gain.low == 0 && gain.high == 0)
        #expect(gain.shareAbove == 0)
        #expect(!gain.isClear)
    }

    @Test("a method right on every photo where the baseline errs is clearly better")
    func clearGain() throws {
        let method = (0..<60).map { _ in Self.counts(3, 0, 0) }
        let baseline = (0..<60).map { $0 % 2 == 0 ? Self.counts(3, 0, 0) : Self.counts(1, 2, 2) }
        let gain = try #require(PairedBootstrap.microF1Gain(method: method, baseline: baseline,
                                                            group: Array(method.indices)))
        // method F1 1; baseline tp 120, fp 60, fn 60 → F1 240 / 360
        #expect(abs(gain.gain - (1 - 240.0 / 360)) < 1e-12)
        #expect(gain.low > 0.2 && gain.high < 0.5 && gain.low <= gain.gain && gain.gain <= gain.high)
        #expect(gain.shareAbove == 1)
        #expect(gain.isClear)
    }

    @Test("a gain on one photo out of many is not clear")
    func noiseIsNotClear() throws {
        let baseline = (0..<80).map { $0 % 2 == 0 ? Self.counts(2, 1, 1) : Self.counts(1, 1, 2) }
        var method = baseline
        method[0] = Self.counts(3, 0, 0)
        // the method loses on two other photos by as much as it won on the first
        method[1] = Self.counts(0, 2, 3)
        let gain = try #require(PairedBootstrap.microF1Gain(method: method, baseline: baseline,
                                                            group: Array(method.indices)))
        #expect(gain.low < 0 && gain.high > 0)
        #expect(!gain.isClear)
    }

    @Test("items of one group are drawn together")
    func groupsDrawTogether() throws {
        // Two groups: in one the method is perfect, in the other the baseline. With 40 items in each
        // group but only two groups, the interval must span both outcomes.
        let method = (0..<80).map { $0 < 40 ? Self.counts(2, 0, 0) : Self.counts(0, 2, 2) }
        let baseline = (0..<80).map { $0 < 40 ? Self.counts(0, 2, 2) : Self.counts(2, 0, 0) }
        let grouped = try #require(PairedBootstrap.microF1Gain(method: method, baseline: baseline,
                                                               group: (0..<80).map { $0 < 40 ? 0 : 1 }))
        #expect(grouped.groups == 2)
        #expect(grouped.low <= -0.99 && grouped.high >= 0.99)
        let ungrouped = try #require(PairedBootstrap.microF1Gain(method: method, baseline: baseline,
                                                                 group: Array(method.indices)))
        #expect(ungrouped.groups == 80)
        #expect(ungrouped.high - ungrouped.low < grouped.high - grouped.low)
    }

    @Test("same seed, same interval; mismatched inputs give nil")
    func determinismAndRefusals() {
        let a = (0..<30).map { Self.counts($0 % 4, 1, $0 % 3) }
        let b = (0..<30).map { Self.counts($0 % 3, $0 % 2, 1) }
        let g = Array(a.indices)
        #expect(PairedBootstrap.microF1Gain(method: a, baseline: b, group: g, seed: 9)
            == PairedBootstrap.microF1Gain(method: a, baseline: b, group: g, seed: 9))
        #expect(PairedBootstrap.microF1Gain(method: a, baseline: Array(b.prefix(29)), group: g) == nil)
        #expect(PairedBootstrap.microF1Gain(method: [], baseline: [], group: []) == nil)
    }
}
