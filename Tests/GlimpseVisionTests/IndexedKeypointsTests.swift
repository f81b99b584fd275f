import GlimpseImage
import Testing
@testable import GlimpseVision

/// `VisionConfiguration.indexedKeypointLimit`: the shortlist indexes a subset of each reference's
/// keypoints, verification still compares them all, and the subset survives additions and compaction.
@Suite(.serialized) struct IndexedKeypointsTests {
    static let configuration: VisionConfiguration = {
        var configuration = VisionConfiguration.default
        configuration.indexedKeypointLimit = 128
        return configuration
    }()

    @Test func aLimitAboveEveryReferencesCountIndexesWhatTheFullMatcherIndexes() throws {
        let photos = MatcherUpdateTests.photos
        try #require(photos.count >= 4)
        var everything = VisionConfiguration.default
        everything.indexedKeypointLimit = everything.maxKeypoints
        try everything.validate()
        let references = (0..<4).map { MatcherUpdateTests.reference($0) }
        let full = VisualMatcher(keyedReferences: references)
        let limited = VisualMatcher(keyedReferences: references, configuration: everything)
        for photo in photos.prefix(4) {
            let features = FeatureExtractor.extract(from: photo.query)
            #expect(limited.shortlist(features).map { [$0.reference, $0.votes] } == full.shortlist(features).map { [$0.reference, $0.votes] })
        }
    }

    @Test func aSmallIndexStillShortlistsAndVerifiesOnEveryKeypoint() throws {
        let photos = MatcherUpdateTests.photos
        try #require(photos.count >= 6)
        try Self.configuration.validate()
        let references = (0..<4).map { MatcherUpdateTests.reference($0) }
        let limited = VisualMatcher(keyedReferences: references, configuration: Self.configuration)
        let full = VisualMatcher(keyedReferences: references)
        let segment = try #require(limited.segments.first)
        let indexed = try #require(segment.lshDescriptors)
        #expect(indexed.count == references.reduce(0) { $0 + min(128, $1.features.count) })
        #expect(zip(indexed, indexed.dropFirst()).allSatisfy { $0 < $1 })
        #expect(segment.words == full.segments.first?.words, "verification keeps every keypoint")
        for (n, photo) in photos.prefix(4).enumerated() {
            let report = limited.match(photo.query)
            #expect(report.accepted?.referenceID == photo.id, "photo \(n): \(report.candidates)")
            let features = FeatureExtractor.extract(from: photo.query)
            #expect(limited.verify(features, reference: n) == full.verify(features, reference: n))
        }
        // Added references get their own subset; compaction folds both subsets into one.
        let grown = limited.updated(adding: [MatcherUpdateTests.reference(4), MatcherUpdateTests.reference(5)], removingKeys: [])
        #expect(grown.match(photos[5].query).accepted?.referenceID == photos[5].id)
        let folded = grown.updated(adding: [], removingKeys: [MatcherUpdateTests.reference(1).key]).compacted()
        #expect(folded.segments.count == 1)
        let merged = try #require(folded.segments.first?.lshDescriptors)
        let kept = [0, 2, 3, 4, 5].map { MatcherUpdateTests.reference($0) }
        #expect(merged.count == kept.reduce(0) { $0 + min(128, $1.features.count) })
        for n in [0, 2, 5] {
            #expect(folded.match(photos[n].query).accepted?.referenceID == photos[n].id)
        }
        #expect(folded.match(photos[1].query).accepted == nil)
        var tooFew = VisionConfiguration.default
        tooFew.indexedKeypointLimit = 4
        #expect(throws: VisionError.self) { try tooFew.validate() }
    }
}
