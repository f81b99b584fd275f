import GlimpseImage
import Testing
@testable import GlimpseVision

/// A matcher updated while it serves (references added, removed, several photos per place) answers as
/// one built from scratch over the same references, and never changes under a query that holds it.
@Suite(.serialized) struct MatcherUpdateTests {
    static let picks = [3, 12, 27, 41, 58, 70, 86]

    /// Features and a rotated query picture for each pick.
    static let photos: [(id: String, features: ImageFeatures, query: PixelBuffer)] = {
        picks.compactMap { i in
            guard let buffer = try? Fixtures.decode(Fixtures.photos[i]),
                  let query = try? Fixtures.buffer(Fixtures.rotated(GrayImage(luminanceOf: buffer), degrees: 11))
            else { return nil }
            return ("place-\(i)", FeatureExtractor.extract(from: buffer), query)
        }
    }()

    static func reference(_ n: Int, as id: String? = nil) -> MatcherReference {
        let photo = photos[n]
        return MatcherReference(id: id ?? photo.id, key: "\(id ?? photo.id)/\(n)", features: photo.features)
    }

    @Test func addedReferencesAreFoundAndRemovedOnesAreNot() throws {
        try #require(Self.photos.count == Self.picks.count)
        let base = VisualMatcher(keyedReferences: (0..<4).map { Self.reference($0) })
        #expect(base.match(Self.photos[5].query).accepted == nil)

        let grown = base.updated(adding: [Self.reference(4), Self.reference(5)], removingKeys: [])
        #expect(grown.segmentCount == 2)
        #expect(grown.referenceCount == 6)
        #expect(grown.match(Self.photos[5].query).accepted?.referenceID == Self.photos[5].id)
        #expect(grown.match(Self.photos[1].query).accepted?.referenceID == Self.photos[1].id)

        let shrunk = grown.updated(adding: [], removingKeys: [Self.reference(1).key, Self.reference(4).key])
        #expect(shrunk.referenceCount == 4)
        #expect(shrunk.match(Self.photos[1].query).accepted?.referenceID != Self.photos[1].id)
        #expect(shrunk.match(Self.photos[4].query).accepted?.referenceID != Self.photos[4].id)
        #expect(shrunk.match(Self.photos[5].query).accepted?.referenceID == Self.photos[5].id)
        #expect(!shrunk.contains(key: Self.reference(1).key) && shrunk.contains(key: Self.reference(5).key))

        // The matchers a query held before each update answer as they did.
        #expect(base.referenceCount == 4 && grown.referenceCount == 6)
        #expect(grown.match(Self.photos[4].query).accepted?.referenceID == Self.photos[4].id)
    }

    @Test func anUpdatedMatcherAnswersAsOneBuiltFromScratch() throws {
        try #require(Self.photos.count == Self.picks.count)
        let updated = VisualMatcher(keyedReferences: (0..<3).map { Self.reference($0) })
            .updated(adding: (3..<7).map { Self.reference($0) }, removingKeys: [Self.reference(2).key])
        let scratch = VisualMatcher(keyedReferences: [0, 1, 3, 4, 5, 6].map { Self.reference($0) })
        let compacted = updated.compacted()
        #expect(compacted.segmentCount == 1)
        #expect(compacted.referenceIDs == scratch.referenceIDs)
        for n in [0, 1, 3, 6] {
            let expected = scratch.match(Self.photos[n].query).accepted
            #expect(expected?.referenceID == Self.photos[n].id)
            #expect(updated.match(Self.photos[n].query).accepted?.referenceID == expected?.referenceID)
            // Compaction rebuilds the same index as a scratch build, so its answer is the same to the score.
            #expect(compacted.match(Self.photos[n].query).accepted == expected)
        }
    }

    /// Folding the additions keeps the first segment and merges the rest, dropping their removed references;
    /// edits after it rebuild only what comes after, and every version answers as a scratch build does.
    @Test func foldedAdditionsAnswerAsAScratchBuildAndLaterEditsKeepThem() throws {
        try #require(Self.photos.count == Self.picks.count)
        let grown = VisualMatcher(keyedReferences: (0..<2).map { Self.reference($0) })
            .updated(adding: [Self.reference(2), Self.reference(3)], removingKeys: [])
            .updated(adding: [Self.reference(4)], removingKeys: [Self.reference(3).key, Self.reference(0).key])
        let folded = grown.foldedAdditions()
        #expect(grown.segmentCount == 2 && folded.segmentCount == 2 && folded.referenceCount == 3)
        #expect(folded.hasChanges && folded.referenceKeys.sorted() == [1, 2, 4].map { Self.reference($0).key }.sorted())
        let later = folded.updated(adding: [Self.reference(5), Self.reference(6)], removingKeys: [Self.reference(2).key])
        #expect(later.segmentCount == 3 && later.referenceCount == 4)
        let again = later.updated(adding: [], removingKeys: [Self.reference(6).key])
        #expect(again.segmentCount == 3 && again.referenceCount == 3)
        let scratch = VisualMatcher(keyedReferences: [1, 4, 5].map { Self.reference($0) })
        for n in 0..<7 {
            let expected = scratch.match(Self.photos[n].query).accepted?.referenceID
            #expect(again.match(Self.photos[n].query).accepted?.referenceID == expected, "photo \(n)")
        }
        #expect(again.match(Self.photos[5].query).accepted?.referenceID == Self.photos[5].id)
        #expect(again.compacted().segmentCount == 1 && again.compacted().referenceCount == 3)
    }

    @Test func aPlaceWithTwoPhotosIsFoundByEitherAndReportedOnce() throws {
        try #require(Self.photos.count == Self.picks.count)
        // Photos 2 and 6 are two views of one place "two-views"; the others are places of their own.
        let matcher = VisualMatcher(keyedReferences: [
            Self.reference(0), Self.reference(2, as: "two-views"), Self.reference(1), Self.reference(6, as: "two-views"),
        ])
        #expect(matcher.referenceCount == 4 && matcher.groupCount == 3)
        for n in [2, 6] {
            let report = matcher.match(Self.photos[n].query)
            #expect(report.accepted?.referenceID == "two-views")
            #expect(report.candidates.filter { $0.referenceID == "two-views" }.count == 1)
        }
        // Removing one view leaves the place found by the other.
        let oneView = matcher.updated(adding: [], removingKeys: [Self.reference(2, as: "two-views").key])
        #expect(oneView.match(Self.photos[6].query).accepted?.referenceID == "two-views")
        #expect(oneView.match(Self.photos[2].query).accepted?.referenceID != "two-views")
        #expect(oneView.groupCount == 3)
    }

    @Test func addingAKeyAgainReplacesItsReference() throws {
        try #require(Self.photos.count == Self.picks.count)
        let matcher = VisualMatcher(keyedReferences: [Self.reference(0), Self.reference(1)])
        // The key of photo 1 now holds photo 3's features.
        let replaced = matcher.updated(
            adding: [MatcherReference(id: Self.photos[1].id, key: Self.reference(1).key, features: Self.photos[3].features)],
            removingKeys: [])
        #expect(replaced.referenceCount == 2)
        #expect(replaced.match(Self.photos[3].query).accepted?.referenceID == Self.photos[1].id)
        #expect(replaced.match(Self.photos[1].query).accepted?.referenceID != Self.photos[1].id)
    }

    @Test func compactionIsAskedForOnceTheAddedSegmentOrTheRemovedGrowLarge() throws {
        try #require(Self.photos.count == Self.picks.count)
        let base = VisualMatcher(keyedReferences: [Self.reference(0)])
        let many = (0..<300).map { MatcherReference(id: "copy-\($0)", key: "copy-\($0)", features: Self.photos[$0 % 7].features) }
        let grown = base.updated(adding: many, removingKeys: [])
        #expect(grown.needsCompaction)
        let compacted = grown.compacted()
        #expect(!compacted.needsCompaction && compacted.referenceCount == 301)
        let emptied = compacted.updated(adding: [], removingKeys: Set(many.map(\.key)))
        #expect(emptied.needsCompaction && emptied.referenceCount == 1)
        #expect(emptied.compacted().descriptorCount == Self.photos[0].features.count)
    }
}
