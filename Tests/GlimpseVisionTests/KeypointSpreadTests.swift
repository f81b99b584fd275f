@testable import GlimpseVision
import Testing

/// How a reference photo's keypoint budget is spread over its area (`FASTDetector.spread`,
/// `VisionConfiguration.referenceKeypointGrid`), and that queries keep the strongest.
@Suite struct KeypointSpreadTests {
    typealias Corner = FASTDetector.Corner

    @Test func oneCellIsTheStrongestPrefix() {
        let ranked = (0..<50).map { Corner(x: Int32($0), y: Int32($0), response: Float(100 - $0)) }
        for count in [0, 1, 10, 50, 80] {
            let spread = FASTDetector.spread(ranked, count: count, width: 64, height: 64, cells: 1)
            #expect(spread.map(\.x) == ranked.prefix(count).map(\.x), "count \(count)")
        }
    }

    @Test func aCrowdedCellGivesWayToTheOthersUpToItsCap() {
        // 2 × 2 cells of a 100 × 100 level. Ten strong corners crowd the top-left cell; the other cells
        // hold weaker ones. A budget of 8 caps each cell at 2 × 8 / 4 = 4 corners.
        var ranked: [Corner] = (0..<10).map { Corner(x: Int32(5 + $0), y: 5, response: Float(1000 - $0)) }
        ranked += [Corner(x: 80, y: 10, response: 50), Corner(x: 10, y: 80, response: 40),
                   Corner(x: 80, y: 80, response: 30), Corner(x: 90, y: 90, response: 20)]
        let spread = FASTDetector.spread(ranked, count: 8, width: 100, height: 100, cells: 2)
        // The four strongest of the crowded cell, then every other cell's: strongest first throughout.
        #expect(spread.map(\.response) == [1000, 999, 998, 997, 50, 40, 30, 20])
    }

    @Test func passedOverCornersFillWhatTheCellsLeave() {
        // Everything in one cell of four: the cap (2 × 6 / 4 = 3) is reached, and the strongest of the
        // rest fill the budget, so the answer is the strongest six after all.
        let ranked = (0..<12).map { Corner(x: Int32($0), y: 1, response: Float(100 - $0)) }
        let spread = FASTDetector.spread(ranked, count: 6, width: 100, height: 100, cells: 2)
        #expect(spread.map(\.response) == [100, 99, 98, 97, 96, 95])
        #expect(FASTDetector.spread([], count: 4, width: 10, height: 10, cells: 4).isEmpty)
    }

    @Test func referenceKeypointsCoverMoreOfThePhotoThanTheStrongestAlone() throws {
        let photo = try Fixtures.decode(Fixtures.photos[7])
        var strongestOnly = VisionConfiguration.default
        strongestOnly.referenceKeypointGrid = 1
        let spread = FeatureExtractor.extract(from: photo)
        let plain = FeatureExtractor.extract(from: photo, configuration: strongestOnly)
        #expect(spread.count == plain.count)
        #expect(spread != plain)
        // Keypoints per cell of level 0, on the grid the spread used there.
        func cellCounts(_ f: ImageFeatures) -> [Int: Int] {
            var counts: [Int: Int] = [:]
            for k in f.keypoints where k.level == 0 {
                counts[Int(k.y) * 16 / f.height * 16 + Int(k.x) * 16 / f.width, default: 0] += 1
            }
            return counts
        }
        let (a, b) = (cellCounts(spread), cellCounts(plain))
        #expect(a.count > b.count, "occupied cells: spread \(a.count), strongest alone \(b.count)")
        #expect((a.values.max() ?? 0) < (b.values.max() ?? 0),
                "most crowded cell: spread \(a.values.max() ?? 0), strongest alone \(b.values.max() ?? 0)")
    }

    @Test func queriesKeepTheStrongestWhateverTheGrid() throws {
        let photo = try Fixtures.decode(Fixtures.photos[7])
        var strongestOnly = VisionConfiguration.default
        strongestOnly.referenceKeypointGrid = 1
        #expect(FeatureExtractor.extract(from: photo, query: true)
            == FeatureExtractor.extract(from: photo, configuration: strongestOnly, query: true))
    }

    @Test func theGridIsPartOfTheFeatureCacheKeyAndChecked() {
        var other = VisionConfiguration.default
        other.referenceKeypointGrid = 8
        #expect(other.extractionFingerprint != VisionConfiguration.default.extractionFingerprint)
        other.referenceKeypointGrid = 0
        #expect(throws: VisionError.self) { try other.validate() }
    }
}
