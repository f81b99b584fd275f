import GlimpseBasics
@testable import GlimpseVision
import Testing

/// Pins everything the vision module draws from its seeded generator to values measured before it
/// switched from a private SplitMix64 copy to GlimpseIndex's `SeededGenerator`: the raw stream,
/// `unit()` and `gaussianPair()`, the BRIEF pattern, the LSH tables, RANSAC sampling and the
/// synthetic references. A change here changes every descriptor and so every feature cache.
@Suite struct SeededStreamTests {
    /// FNV-1a 64 over the little-endian bytes of `words`.
    static func fingerprint(_ words: some Sequence<UInt64>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for word in words {
            for i in 0..<8 { h = (h ^ ((word >> (8 * UInt64(i))) & 0xFF)) &* 0x0000_0100_0000_01B3 }
        }
        return h
    }

    static func descriptors(_ n: Int, seed: UInt64) -> [UInt64] {
        var rng = TestRandom(state: seed)
        // Skewed bits (AND of two draws) so the greedy LSH bit choice has something to prefer.
        return (0..<(4 * n)).map { i in i % 3 == 0 ? rng.next() & rng.next() : rng.next() }
    }

    @Test func generatorStreamIsUnchanged() {
        var rng = SeededGenerator(seed: 0x5EED)
        let raw = (0..<4).map { _ in rng.next() }
        let units = (0..<4).map { _ in rng.unit().bitPattern }
        let gaussians = (0..<3).flatMap { _ -> [UInt64] in
            let (a, b) = rng.gaussianPair()
            return [a.bitPattern, b.bitPattern]
        }
        #expect(raw == [0x09f1_fd9d_03f0_a9b4, 0x5532_7416_1bbf_8475, 0x5d5b_ca46_96b3_43b3, 0x70d2_9b6c_7d22_528d])
        #expect(units == [0x3fa7_e56e_2df3_22a8, 0x3fd7_adfe_4ae5_4e1f, 0x3fc4_b668_7961_0ebe, 0x3fb2_89a6_9805_c124])
        #expect(gaussians == [
            0x3f90_bb7a_6b7a_aeef, 0x3fe1_f7cf_bc33_8236, 0xbff2_681a_0b68_6307,
            0x3fec_93e8_331d_0a6d, 0x3fec_8701_0917_741c, 0x3ffc_a292_1a03_d06f,
        ])
    }

    @Test func briefPatternIsUnchanged() {
        func fingerprint(_ pattern: BRIEFPattern) -> UInt64 {
            Self.fingerprint(pattern.offsets.map { UInt64(UInt8(bitPattern: $0)) })
        }
        #expect(fingerprint(BRIEFPattern(seed: VisionConfiguration.default.patternSeed)) == 0x5235_1ad7_4c86_aa65)
        #expect(fingerprint(BRIEFPattern(seed: 7)) == 0x55cd_6bd0_4585_87a5)
    }

    @Test func lshTablesAreUnchanged() {
        // More descriptors than the 8192-descriptor sample, so sampling draws from the generator too.
        let words = Self.descriptors(9000, seed: 21)
        let index = LSHIndex(words: words, tables: 3, minimumBits: 8)
        #expect(index.bits == 10)
        #expect(Self.fingerprint(index.positions.map { UInt64($0) }) == 0xec25_7350_e9c4_e48a)
        #expect(Self.fingerprint(index.starts.map { UInt64($0) }) == 0x247b_5197_9c30_cd7a)
        #expect(Self.fingerprint(index.entries.map { UInt64($0) }) == 0xc4d0_6638_1ca6_24d1)
        let small = LSHIndex.chooseBits(words: Array(words.prefix(400)), count: 100, tables: 2, bits: 6, seed: 99)
        #expect(small == [[227, 205, 188, 108, 200, 207], [164, 63, 11, 166, 158, 195]])
    }

    @Test func ransacSamplesAreUnchanged() throws {
        // Unrelated points and a generous threshold: which model wins depends only on the pairs sampled.
        var rng = TestRandom(state: 77)
        let from = (0..<40).map { _ in (rng.unit() * 200, rng.unit() * 200) }
        let to = (0..<40).map { _ in (rng.unit() * 200, rng.unit() * 200) }
        let result = try #require(SimilarityRANSAC.estimate(
            from: from, to: to, threshold: 25, scaleRange: 0.1...10, iterations: 6, seed: 0x1234))
        let t = result.transform
        #expect([t.a, t.b, t.tx, t.ty].map(\.bitPattern)
            == [0x3fe4_58df_ba09_74b4, 0xbfd1_cb62_1083_7a78, 0xc03d_0dd0_466f_b2ca, 0x405c_7b7a_458a_831a])
        #expect(result.inliers == [3, 7, 12, 39])
    }

    @Test func syntheticReferencesAreUnchanged() {
        let words = Self.descriptors(50, seed: 5)
        let keypoints = (0..<50).map { Keypoint(x: Float($0), y: Float($0), scale: 1, angle: 0, response: 0, level: 0) }
        let real = [("real", ImageFeatures(width: 320, height: 240, keypoints: keypoints, descriptorWords: words))]
        let made = SyntheticReferences.make(from: real, count: 3, keypointsPerReference: 20)
        let all = made.flatMap { reference in
            reference.features.descriptorWords
                + reference.features.keypoints.flatMap { [UInt64($0.x.bitPattern), UInt64($0.y.bitPattern)] }
        }
        #expect(made.map(\.id) == ["synthetic-0", "synthetic-1", "synthetic-2"])
        #expect(Self.fingerprint(all) == 0xd8f1_b391_b1aa_de24)
    }
}
