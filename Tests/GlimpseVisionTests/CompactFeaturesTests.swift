import Foundation
import GlimpseFeaturePrint
@testable import GlimpseVision
import Testing

/// Reducing a reference's keypoints to a smaller budget (`CompactFeatures.reduced`,
/// `VisionConfiguration.referenceKeypointLimit`).
@Suite struct CompactFeaturesTests {
    /// Features of a 400 × 300 image with `perLevel[l]` keypoints on level `l` (scale 1.2^l), each
    /// level's responses falling in order, every descriptor naming its keypoint's index.
    static func synthetic(perLevel: [Int]) -> ImageFeatures {
        var keypoints: [Keypoint] = []
        var words: [UInt64] = []
        for (level, count) in perLevel.enumerated() {
            let scale = Float(pow(1.2, Double(level)))
            for i in 0..<count {
                let x = Float((i * 37) % 330) * scale, y = Float((i * 53) % 250) * scale
                keypoints.append(Keypoint(x: x, y: y, scale: scale, angle: 0, response: Float(10_000 - i), level: Int32(level)))
                let index = UInt64(keypoints.count - 1)
                words.append(contentsOf: [index, ~index, index &* 3, UInt64(level)])
            }
        }
        return ImageFeatures(width: 400, height: 300, keypoints: keypoints, descriptorWords: words,
                             featurePrints: [FeaturePrint(normalizing: [3, 4])])
    }

    @Test func eachLevelKeepsItsShareAndEveryKeptKeypointItsDescriptor() {
        let full = Self.synthetic(perLevel: [600, 300, 100])
        let reduced = CompactFeatures.reduced(full, to: 500, cells: 16)
        #expect(reduced.count == 500)
        #expect((0..<3).map { level in reduced.keypoints.filter { $0.level == level }.count } == [300, 150, 50])
        // Levels in order, and every keypoint with the descriptor it had.
        #expect(reduced.keypoints.map(\.level) == reduced.keypoints.map(\.level).sorted())
        for (k, keypoint) in reduced.keypoints.enumerated() {
            let original = Int(reduced.descriptorWords[4 * k])
            #expect(full.keypoints[original] == keypoint)
            #expect(Array(reduced.descriptorWords[(4 * k)..<(4 * k + 4)]) == Array(full.descriptorWords[(4 * original)..<(4 * original + 4)]))
        }
        #expect(reduced.featurePrints == full.featurePrints)
        #expect(reduced.width == 400 && reduced.height == 300)
        #expect(CompactFeatures.reduced(full, to: 500, cells: 16) == reduced)
    }

    @Test func featuresWithinTheLimitAreKeptAsTheyAre() {
        let full = Self.synthetic(perLevel: [40, 20])
        #expect(CompactFeatures.reduced(full, to: 60, cells: 16) == full)
        #expect(CompactFeatures.reduced(full, to: 1_000, cells: 16) == full)
        #expect(CompactFeatures.reduced(full, to: 0, cells: 16).count == 0)
    }

    @Test func aLevelsKeypointsAreSpreadOverItsGrid() {
        // Level 0 only: the 40 strongest crowd the top-left corner, 40 weaker ones lie elsewhere.
        var keypoints: [Keypoint] = []
        for i in 0..<40 { keypoints.append(Keypoint(x: Float(2 + i % 8), y: Float(2 + i / 8), scale: 1, angle: 0, response: Float(1_000 - i), level: 0)) }
        for i in 0..<40 { keypoints.append(Keypoint(x: Float(60 + (i % 8) * 5), y: Float(60 + (i / 8) * 5), scale: 1, angle: 0, response: Float(100 - i), level: 0)) }
        let full = ImageFeatures(width: 100, height: 100, keypoints: keypoints, descriptorWords: [UInt64](repeating: 0, count: 320))
        // Two cells a side, a budget of 20: a cell keeps at most 2 × 20 / 4 = 10.
        let spread = CompactFeatures.reduced(full, to: 20, cells: 2)
        #expect(spread.keypoints.filter { $0.x < 50 && $0.y < 50 }.count == 10)
        #expect(spread.keypoints.filter { $0.x >= 50 && $0.y >= 50 }.count == 10)
        let strongest = CompactFeatures.reduced(full, to: 20, cells: 1)
        #expect(strongest.keypoints.allSatisfy { $0.x < 50 && $0.y < 50 })
    }

    @Test func positionsThatAreNotFiniteDoNotStopTheReduction() {
        var keypoints = Self.synthetic(perLevel: [30]).keypoints
        keypoints[3].x = .nan
        keypoints[4].y = .infinity
        keypoints[5].x = -.infinity
        keypoints[6].x = 1e30
        let features = ImageFeatures(width: 400, height: 300, keypoints: keypoints, descriptorWords: [UInt64](repeating: 0, count: 120))
        #expect(CompactFeatures.reduced(features, to: 10, cells: 4).count == 10)
        #expect(CompactFeatures.levelCoordinate(.nan, 1) == 0 && CompactFeatures.levelCoordinate(12.7, 1.2) == 10)
    }

    /// A level's size comes from its first keypoint's scale, which stored features can hold as anything:
    /// a scale that is not a positive finite number, or so small that the level would be wider than any
    /// integer, used to stop the process.
    @Test(arguments: [Float.nan, 0, -1, 1e-30, .infinity, -.infinity, .leastNonzeroMagnitude])
    func scalesThatAreNotUsableDoNotStopTheReduction(scale: Float) {
        var keypoints = Self.synthetic(perLevel: [30, 20]).keypoints
        for i in keypoints.indices where keypoints[i].level == keypoints[0].level { keypoints[i].scale = scale }
        let features = ImageFeatures(width: 400, height: 300, keypoints: keypoints, descriptorWords: [UInt64](repeating: 0, count: 200))
        #expect(CompactFeatures.reduced(features, to: 10, cells: 4).count == 10)
        #expect(CompactFeatures.keptIndices(features, limit: 10, cells: 4).count == 10)
        #expect(CompactFeatures.levelSize(400, scale) >= 1)
    }

    @Test func levelSizesRoundAndStayAtLeastOne() {
        #expect(CompactFeatures.levelSize(400, 1) == 400 && CompactFeatures.levelSize(400, 1.5) == 267)
        #expect(CompactFeatures.levelSize(1, 8) == 1 && CompactFeatures.levelSize(0, 1) == 1)
        #expect(CompactFeatures.levelSize(400, 1e-30) == Int(Int32.max - 127))
    }

    @Test func sharesAreProportionalAndSumToTheTotal() {
        #expect(CompactFeatures.shares(of: 500, over: [600, 300, 100]) == [300, 150, 50])
        #expect(CompactFeatures.shares(of: 10, over: [1, 1, 1]) == [1, 1, 1])
        #expect(CompactFeatures.shares(of: 2, over: [1, 1, 1]) == [1, 1, 0])
        #expect(CompactFeatures.shares(of: 7, over: [5, 5]) == [4, 3])
        #expect(CompactFeatures.shares(of: 0, over: [5, 5]) == [0, 0])
        let uneven = CompactFeatures.shares(of: 512, over: [587, 281, 132])
        #expect(uneven.reduce(0, +) == 512 && zip(uneven, [587, 281, 132]).allSatisfy { $0 <= $1 })
    }

    @Test func aRealPhotosReductionKeepsItsLevelsAndSpread() throws {
        let full = FeatureExtractor.extract(from: try Fixtures.decode(Fixtures.photos[7]))
        let reduced = CompactFeatures.reduced(full, to: 512, cells: VisionConfiguration.default.referenceKeypointGrid)
        #expect(full.count > 512 && reduced.count == 512)
        let originals = Set(full.keypoints.map { [$0.x, $0.y, $0.scale] })
        #expect(reduced.keypoints.allSatisfy { originals.contains([$0.x, $0.y, $0.scale]) })
        let levels = Set(full.keypoints.map(\.level))
        #expect(Set(reduced.keypoints.map(\.level)) == levels)
    }

    @Test func aMatcherWithALimitHoldsFewerKeypointsAndStillFindsThePhoto() throws {
        var limited = VisionConfiguration.default
        limited.referenceKeypointLimit = 256
        try limited.validate()
        let picks = [2, 17, 33]
        let buffers = try picks.map { try Fixtures.decode(Fixtures.photos[$0]) }
        let references = zip(picks, buffers).map { (id: "place-\($0)", features: FeatureExtractor.extract(from: $1)) }
        let full = VisualMatcher(references: references)
        let compact = VisualMatcher(references: references, configuration: limited)
        #expect(compact.memoryBytes < full.memoryBytes)
        for (pick, buffer) in zip(picks, buffers) {
            let gray = GrayImage(luminanceOf: buffer)
            let report = compact.match(try Fixtures.buffer(Fixtures.rotated(gray, degrees: 12)))
            #expect(report.accepted?.referenceID == "place-\(pick)")
        }
        var tooFew = VisionConfiguration.default
        tooFew.referenceKeypointLimit = 4
        #expect(throws: VisionError.self) { try tooFew.validate() }
        tooFew.referenceKeypointLimit = tooFew.maxKeypoints + 1
        #expect(throws: VisionError.self) { try tooFew.validate() }
    }
}
