import GlimpseImage
import Testing
@testable import GlimpseVision

/// `VisionConfiguration.indexedKeypointCentre`: a large catalog indexes the keypoints in the middle of each
/// reference, where another picture of the place most often finds them.
@Suite struct CentralIndexedKeypointsTests {
    /// How far keypoint `i` of `features` lies from the centre, as a share of the half side.
    static func reach(_ features: ImageFeatures, _ i: Int) -> Double {
        let k = features.keypoints[i]
        return max(abs(Double(k.x) / Double(features.width) - 0.5), abs(Double(k.y) / Double(features.height) - 0.5)) * 2
    }

    @Test func theWholePictureIsTheSpreadOfBefore() {
        let features = MatcherUpdateTests.photos[0].features
        #expect(CompactFeatures.centralIndices(features, limit: 128, cells: 16, central: 1)
                == CompactFeatures.keptIndices(features, limit: 128, cells: 16))
        // No more keypoints than the limit: every one, wherever it lies.
        #expect(CompactFeatures.centralIndices(features, limit: features.count, cells: 16, central: 0.4)
                == Array(0..<features.count))
    }

    @Test func theIndexedKeypointsComeFromTheMiddleBox() throws {
        for photo in MatcherUpdateTests.photos.prefix(4) {
            let features = photo.features
            let inside = features.keypoints.indices.filter { Self.reach(features, $0) <= 0.4 }
            try #require(inside.count >= 128, "the test needs photos with 128 keypoints in the middle")
            let chosen = CompactFeatures.centralIndices(features, limit: 128, cells: 16, central: 0.4)
            #expect(chosen.count == 128)
            #expect(Set(chosen).count == 128)
            #expect(chosen.allSatisfy { Self.reach(features, $0) <= 0.4 })
            // Chosen within the box as the spread chooses over the whole picture: the same rule on fewer.
            let box = features.keeping(inside)
            #expect(chosen == CompactFeatures.keptIndices(box, limit: 128, cells: 16).map { inside[$0] })
        }
    }

    @Test func aBoxWithTooFewKeypointsGrowsUntilItHoldsEnough() throws {
        let features = MatcherUpdateTests.photos[1].features
        let tiny = 0.05
        let few = features.keypoints.indices.filter { Self.reach(features, $0) <= tiny }.count
        try #require(few < 128)
        let chosen = CompactFeatures.centralIndices(features, limit: 128, cells: 16, central: tiny)
        #expect(chosen.count == 128)
        // The smallest grown box (a tenth of a side at a time) that holds 128 keypoints holds every chosen one.
        var side = tiny
        while features.keypoints.indices.filter({ Self.reach(features, $0) <= side }).count < 128 { side += 0.1 }
        #expect(chosen.allSatisfy { Self.reach(features, $0) <= side + 1e-9 })
        #expect(chosen.contains { Self.reach(features, $0) > tiny })
    }

    @Test func aCompactMatcherIndexesTheMiddleAndStillFindsItsPlaces() throws {
        var configuration = VisionConfiguration.default
        configuration.indexedKeypointLimit = 128
        try configuration.validate()
        let references = (0..<4).map { MatcherUpdateTests.reference($0) }
        let matcher = VisualMatcher(keyedReferences: references, configuration: configuration)
        let segment = try #require(matcher.segments.first)
        let indexed = try #require(segment.lshDescriptors)
        for (r, reference) in references.enumerated() {
            let lo = segment.descriptorStarts[r]
            let expected = CompactFeatures.centralIndices(
                reference.features, limit: 128, cells: configuration.referenceKeypointGrid, central: 0.4).sorted()
            let mine = indexed.filter { Int($0) >= lo && Int($0) < segment.descriptorStarts[r + 1] }.map { Int($0) - lo }
            #expect(mine == expected)
        }
        for photo in MatcherUpdateTests.photos.prefix(4) {
            #expect(matcher.match(photo.query).accepted?.referenceID == photo.id)
        }
    }

    @Test func theShareIsCheckedAndNamedInTheIndexTag() {
        var configuration = VisionConfiguration.default
        for bad in [0.0, -0.2, 1.5, .nan] {
            configuration.indexedKeypointCentre = bad
            #expect(throws: VisionError.self) { try configuration.validate() }
        }
        configuration.indexedKeypointCentre = 1
        #expect(MatcherIndexFile.tag(configuration: .default, printer: nil, source: "s")
                != MatcherIndexFile.tag(configuration: configuration, printer: nil, source: "s"))
    }
}
