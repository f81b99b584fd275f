import GlimpseBasics

/// Extra, made-up references for measuring how query time grows with the size of the index.
///
/// They carry no feature prints, so the print stage never sees them. ``Distractors`` makes references
/// with prints and keypoints from real photos, for measuring a print-first search at scale; it takes
/// over from these once the matcher searches prints through an index rather than by a scan of them all.
public enum SyntheticReferences {
    /// `count` references whose descriptors are descriptors of randomly chosen real references
    /// with about one bit in eight flipped (≈ 32 of 256 bits, the distance of a typical true
    /// match), placed at random positions so that no geometry agrees with any query. They look
    /// like real photos to the shortlist (same descriptor statistics, crowding the same LSH
    /// buckets) while never being a right answer.
    ///
    /// - Parameters:
    ///   - keypointsPerReference: descriptors per synthetic reference (default: the first real reference's count).
    ///   - seed: makes the set reproducible.
    public static func make(
        from references: [(id: String, features: ImageFeatures)], count: Int, keypointsPerReference: Int? = nil,
        seed: UInt64 = 0x5359_4e54
    ) -> [(id: String, features: ImageFeatures)] {
        guard count > 0, let first = references.first(where: { $0.features.count > 0 }) else { return [] }
        let pool = references.filter { $0.features.count > 0 }
        let k = max(1, keypointsPerReference ?? first.features.count)
        var rng = SeededGenerator(seed: seed)
        var out: [(id: String, features: ImageFeatures)] = []
        out.reserveCapacity(count)
        for n in 0..<count {
            var words = [UInt64](repeating: 0, count: 4 * k)
            var keypoints: [Keypoint] = []
            keypoints.reserveCapacity(k)
            let width = first.features.width, height = first.features.height
            for i in 0..<k {
                let source = pool[Int(rng.next() % UInt64(pool.count))].features
                let j = Int(rng.next() % UInt64(source.count))
                for w in 0..<4 {
                    let flips = rng.next() & rng.next() & rng.next()  // each bit set with probability 1/8
                    words[4 * i + w] = source.descriptorWords[4 * j + w] ^ flips
                }
                let x = Float(Double(rng.next() % 1_000_000) / 1_000_000 * Double(width - 1))
                let y = Float(Double(rng.next() % 1_000_000) / 1_000_000 * Double(height - 1))
                keypoints.append(Keypoint(x: x, y: y, scale: 1, angle: 0, response: 0, level: 0))
            }
            out.append(("synthetic-\(n)", ImageFeatures(width: width, height: height, keypoints: keypoints, descriptorWords: words)))
        }
        return out
    }
}
