import GlimpseBasics
import GlimpseFeaturePrint
@testable import GlimpseVision
import Testing

/// Distractor references made from real photos' features (`Distractors`).
@Suite struct DistractorTests {
    /// `count` photos with 3 views of 64-value non-negative prints and 40 keypoints each.
    static func pool(count: Int, seed: UInt64) -> [ImageFeatures] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { p in
            var keypoints: [Keypoint] = []
            for k in 0..<40 {
                let x = Float(k * 7 % 300), y = Float(k * 11 % 200)
                keypoints.append(Keypoint(x: x, y: y, scale: 1, angle: 0, response: Float(40 - k), level: Int32(k % 3)))
            }
            let words = (0..<160).map { _ in generator.next() }
            let prints = (0..<3).map { _ in FeaturePrint(normalizing: (0..<64).map { _ in generator.nextUnitFloat() }) }
            return ImageFeatures(width: 320 + p, height: 240, keypoints: keypoints, descriptorWords: words, featurePrints: prints)
        }
    }

    @Test func aDistractorDependsOnlyOnThePoolTheSeedAndItsNumber() throws {
        let pool = Self.pool(count: 12, seed: 1)
        let one = try Distractors(pool: pool, seed: 42), again = try Distractors(pool: pool, seed: 42)
        let whole = one.make(0..<10)
        #expect(whole.map(\.id) == (0..<10).map { "distractor-\($0)" })
        #expect(whole.map(\.features) == again.make(0..<5).map(\.features) + again.make(5..<10).map(\.features))
        #expect(one.distractor(7) == whole[7].features)
        // Made on several threads, the same set in the same order.
        let threaded = one.make(3..<300, threads: 3)
        #expect(threaded.map(\.id) == (3..<300).map { "distractor-\($0)" })
        #expect(threaded.map(\.features) == again.make(3..<300).map(\.features))
        #expect(try Distractors(pool: pool, seed: 43).distractor(7) != one.distractor(7))
        #expect(one.distractor(7) != one.distractor(8))
    }

    @Test func aDistractorHasARealLayoutAndDescriptorsNearRealOnes() throws {
        let pool = Self.pool(count: 12, seed: 2)
        let distractors = try Distractors(pool: pool, seed: 5)
        var distances: [Int] = []
        for i in 0..<20 {
            let d = distractors.distractor(i)
            let layout = try #require(pool.first { $0.width == d.width })
            #expect(d.keypoints == layout.keypoints && d.featurePrints.count == 3)
            for k in 0..<d.count {
                let word = d.descriptorWords[(4 * k)..<(4 * k + 4)]
                var nearest = 256
                for source in pool {
                    for j in 0..<source.count {
                        var distance = 0
                        for w in 0..<4 { distance += (word[word.startIndex + w] ^ source.descriptorWords[4 * j + w]).nonzeroBitCount }
                        nearest = min(nearest, distance)
                    }
                }
                distances.append(nearest)
            }
        }
        // One bit in eight flipped: about 32 of 256 bits from its source, where unrelated descriptors lie near 128.
        let mean = Double(distances.reduce(0, +)) / Double(distances.count)
        #expect(mean > 26 && mean < 38, "mean distance to the nearest real descriptor \(mean)")
    }

    @Test func aPrintLiesAtTheTargetSimilarityToItsSource() {
        var generator = SeededGenerator(seed: 9)
        // Sparse non-negative prints, like the network's: most values near 0, a few large.
        func sparse() -> [Float] {
            FeaturePrint(normalizing: (0..<256).map { _ in
                let u = generator.nextUnitFloat()
                return u > 0.8 ? u : u * 0.05
            }).values
        }
        for t: Float in [0.5, 0.7, 0.9, 0.99] {
            let a = sparse(), b = sparse()
            let p = Distractors.print(near: a, leaning: b, similarity: t, generator: &generator)
            let norm = p.values.reduce(0) { $0 + $1 * $1 }
            #expect(abs(norm - 1) < 1e-4 && p.values.allSatisfy { $0 >= 0 })
            let similarity = zip(p.values, a).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            #expect(abs(similarity - t) < 1e-3, "target \(t), got \(similarity)")
        }
        // A target below what the other photo alone reaches gives that photo's print, with its noise.
        let a = sparse()
        let low = Distractors.print(near: a, leaning: a, similarity: 0.1, generator: &generator)
        #expect(zip(low.values, a).reduce(Float(0)) { $0 + $1.0 * $1.1 } > 0.95)
    }

    @Test func targetsAreEachPoolPhotosNearestOther() throws {
        let pool = Self.pool(count: 5, seed: 3)
        let distractors = try Distractors(pool: pool, seed: 1)
        for i in 0..<5 {
            let others = (0..<5).filter { $0 != i }.map { pool[i].featurePrints[0].dot(pool[$0].featurePrints[0]) }
            #expect(distractors.targets[i] == others.max())
        }
    }

    @Test func aPoolNeedsThreePhotosWithPrintsAndKeypoints() {
        var pool = Self.pool(count: 2, seed: 4)
        pool.append(ImageFeatures(width: 10, height: 10, keypoints: [], descriptorWords: []))
        #expect(throws: Distractors.PoolError.tooFewSources(usable: 2)) { try Distractors(pool: pool, seed: 1) }
    }

    @Test func kolmogorovSmirnovMeasuresHowFarTwoSamplesLie() {
        #expect(Distractors.kolmogorovSmirnov([1, 2, 3], [1, 2, 3]) == 0)
        #expect(Distractors.kolmogorovSmirnov([1, 2, 3], [4, 5]) == 1)
        #expect(abs(Distractors.kolmogorovSmirnov([1, 2, 3, 4], [3, 4, 5, 6]) - 0.5) < 1e-9)
        #expect(Distractors.kolmogorovSmirnov([], [1]) == 0)
        let probe = FeaturePrint(normalizing: [1, 0])
        let near = ImageFeatures(width: 1, height: 1, keypoints: [], descriptorWords: [],
                                 featurePrints: [FeaturePrint(normalizing: [0, 1]), FeaturePrint(normalizing: [1, 1])])
        #expect(abs(Distractors.bestSimilarities(of: [probe], to: [near])[0] - Float(0.5).squareRoot()) < 1e-6)
    }
}
