import Foundation
import GlimpseImage
import GlimpseIntents
import GlimpseLabels
import Testing
@testable import GlimpseCatalog

@Suite("Visual search: union results, labels, paging")
struct VisualSearchTests {
    private static func query(
        matcher: (any PlaceMatching)? = nil, labeler: (any LabelDeriving)? = nil, store: SnapshotStore = SnapshotStore()
    ) -> VisualSearchQuery {
        VisualSearchQuery(snapshot: store.publish(Fixtures.catalog), store: store, matcher: matcher, labeler: labeler)
    }

    private static let boats = "rowing-boats-lakeshore-sunset"

    @Test func matchedPlaceComesFirstThenItsCollections() async throws {
        let matcher = FixedMatcher(candidates: [
            PlaceMatchCandidate(placeID: Self.boats, score: 0.8, accepted: true, inliers: 40),
            PlaceMatchCandidate(placeID: "misty-lake-blue-hour", score: 0.1, accepted: false, inliers: 6),
        ])
        let query = Self.query(matcher: matcher)
        let accepted = try await query.search(SemanticContentDescriptor(pixelBuffer: try tinyPicture()))
        // By default only what is over the line: the place and the collections holding it.
        let place = try #require(Fixtures.catalog.place(id: Self.boats))
        #expect(accepted.items.count == 1 + place.collections.count)
        #expect(accepted.items.allSatisfy { $0.score >= 0.5 && $0.reason.accepted })
        let page = try await query.search(SemanticContentDescriptor(pixelBuffer: try tinyPicture()), minimumScore: 0)
        #expect(page.items.first?.result == .place(place))
        #expect(page.items.first?.score == 0.8)
        #expect(page.items.first?.reason.matchedPlaceID == Self.boats)
        #expect(page.items.first?.reason.inliers == 40)
        // The rejected candidate is only a suggestion below the line, with its evidence.
        let misty = try #require(page.items.first { $0.result.entityIdentifierString == "misty-lake-blue-hour" })
        #expect(misty.score == 0.1 && !misty.reason.accepted && misty.reason.inliers == 6)
        #expect(misty.reason.description.hasSuffix("not accepted: below the line 0.5"))
        // Labels came from the matched place, so all its labels vote.
        #expect(page.labelSource == .matchedPlace)
        #expect(page.labels.map(\.label) == place.labels)
        // Its collections follow, ahead of collections that only fit the labels.
        let collections = page.items.dropFirst().map(\.result.entityIdentifierString)
        #expect(Array(collections.prefix(place.collections.count)).sorted() == place.collections.sorted())
        for item in page.items.dropFirst().prefix(place.collections.count) {
            #expect(item.reason.matchedPlaceID == Self.boats)
            #expect(item.score >= 0.8)
        }
        // Then the suggestions, all below the line: never tied with an accepted result.
        for item in page.items.dropFirst(1 + place.collections.count) {
            #expect(item.score < 0.5 && !item.reason.accepted)
            guard case .collection(let collection) = item.result else { continue }
            #expect(!place.collections.contains(collection.id))
            if item.reason.matchedPlaceID == nil {
                #expect(item.reason.labelFit >= 0.2)
                #expect(item.score == VisualSearchRanking.round(0.4999 * item.reason.labelFit))
            }
        }
        #expect(page.items.count <= 10)
    }

    @Test func severalPlacesComeEachWithItsRegionAndItsCollectionsAcrossPages() async throws {
        let left = try ImageRegion(x: 0, y: 0, width: 0.5, height: 1)
        let right = try ImageRegion(x: 0.5, y: 0.1, width: 0.5, height: 0.8)
        let matcher = FixedMatcher(candidates: [
            PlaceMatchCandidate(placeID: "eiffel-tower", score: 0.9, accepted: true, inliers: 80, region: left),
            PlaceMatchCandidate(placeID: Self.boats, score: 0.8, accepted: true, inliers: 40, region: right),
        ])
        let query = Self.query(matcher: matcher)
        // A region of interest: regions are reported in the whole picture.
        let roi = try ImageRegion(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        let first = try await query.search(
            SemanticContentDescriptor(pixelBuffer: try tinyPicture()), limit: 2, region: roi)
        var items = first.items
        var cursor = first.nextCursor
        while let next = cursor {
            let page = try query.page(after: next, limit: 2)
            items += page.items
            cursor = page.nextCursor
        }
        #expect(items.count == first.totalCount)
        let tower = try #require(Fixtures.catalog.place(id: "eiffel-tower"))
        let boats = try #require(Fixtures.catalog.place(id: Self.boats))
        #expect(items.first?.result == .place(tower))
        #expect(items.first?.reason.region == roi.mapping(left))
        // The tower's collections follow it, then the boats and theirs.
        let boatsRank = try #require(items.firstIndex { $0.result == .place(boats) })
        #expect(items[1..<boatsRank].allSatisfy { $0.reason.matchedPlaceID == "eiffel-tower" })
        #expect(Set(items[1..<boatsRank].map(\.result.entityIdentifierString)) == Set(tower.collections))
        let boatsRegion = try #require(items[boatsRank].reason.region)
        let expected = roi.mapping(right)
        for (a, b) in [(boatsRegion.x, expected.x), (boatsRegion.y, expected.y), (boatsRegion.width, expected.width)] {
            #expect(abs(a - b) < 1e-4)
        }
        #expect(items[(boatsRank + 1)...].prefix { $0.reason.matchedPlaceID == Self.boats }.count
                == boats.collections.filter { !tower.collections.contains($0) }.count)
    }

    @Test func labelsOnlyReturnCollectionsThatFit() async throws {
        let page = try await Self.query().search(SemanticContentDescriptor(labels: ["Tower", "building", "unicorn"]))
        #expect(page.labelSource == .given)
        #expect(page.labels.map(\.label) == ["tower", "building"])
        #expect(page.ignoredLabels == ["unicorn"])
        #expect(!page.items.isEmpty)
        #expect(page.items.allSatisfy { if case .collection = $0.result { true } else { false } })
        #expect(page.results.contains { $0.entityIdentifierString == "towers" })
        for item in page.items {
            #expect(item.reason.labelFit >= 0.2)
            #expect(!item.reason.votingLabels.isEmpty)
            #expect(Set(item.reason.votingLabels).isSubset(of: ["tower", "building"]))
        }
        // Scores never increase down the list (no matched places, one tier).
        #expect(zip(page.items, page.items.dropFirst()).allSatisfy { $0.score >= $1.score })
        // A collection none of whose places carries a label never appears.
        #expect(!page.results.contains { $0.entityIdentifierString == "flowers" })
    }

    @Test func labelFitFollowsItsDefinition() async throws {
        let page = try await Self.query().search(SemanticContentDescriptor(labels: ["lake", "water"]), limit: 100)
        let catalog = Fixtures.catalog
        for item in page.items {
            guard case .collection(let collection) = item.result else { continue }
            let members = collection.places.compactMap(catalog.place(id:))
            let share = { (label: String) in
                Double(members.filter { $0.labels.contains(label) }.count) / Double(members.count)
            }
            let weight = { (label: String) in
                log(Double(catalog.places.count + 1)
                    / (Double(catalog.places.filter { $0.labels.contains(label) }.count) + 0.5))
            }
            let fit = (weight("lake") * share("lake") + weight("water") * share("water"))
                / (weight("lake") + weight("water"))
            #expect(abs(item.reason.labelFit - fit) < 0.0001)
        }
    }

    @Test func derivedLabelsAreUsedWhenNoneAreGiven() async throws {
        let labeler = FixedLabeler(labels: [ScoredLabel(label: "flower", score: 0.9), ScoredLabel(label: "plant", score: 0.3)])
        // Nothing is accepted, so the collections the labels fit are suggestions, listed on request.
        let input = SemanticContentDescriptor(pixelBuffer: try tinyPicture())
        #expect(try await Self.query(labeler: labeler).search(input).items.isEmpty)
        let page = try await Self.query(labeler: labeler).search(input, minimumScore: 0)
        #expect(page.labelSource == .derived)
        #expect(page.labels == [ScoredLabel(label: "flower", score: 0.9), ScoredLabel(label: "plant", score: 0.3)])
        #expect(page.results.first?.entityIdentifierString == "flowers")
    }

    @Test func nothingToGoOnReturnsNothing() async throws {
        let page = try await Self.query().search(SemanticContentDescriptor(pixelBuffer: try tinyPicture()))
        #expect(page.items.isEmpty)
        #expect(page.nextCursor == nil)
        #expect(page.labelSource == .none)
    }

    @Test func aCollectionFittingTheLabelsOnlyNeverTiesAMatchedOne() async throws {
        // A place accepted right at the line, and labels that a collection without it fits perfectly.
        let matcher = FixedMatcher(candidates: [PlaceMatchCandidate(placeID: Self.boats, score: 0.5, accepted: true)])
        let boats = try #require(Fixtures.catalog.place(id: Self.boats))
        let other = try #require(Fixtures.catalog.collections.first { !boats.collections.contains($0.id) })
        let labels = Array(Set(other.places.compactMap { Fixtures.catalog.place(id: $0)?.labels.first }))
        let input = SemanticContentDescriptor(labels: labels, pixelBuffer: try tinyPicture())
        let page = try await Self.query(matcher: matcher).search(input, limit: 100, minimumScore: 0)
        let matched = page.items.filter(\.reason.accepted)
        let suggested = page.items.filter { !$0.reason.accepted }
        #expect(matched.count == 1 + boats.collections.count)
        #expect(suggested.contains { $0.result.entityIdentifierString == other.id })
        // Every matched result comes first and scores strictly higher than every suggestion.
        #expect(Array(page.items.prefix(matched.count)) == matched)
        let lowest = try #require(matched.map(\.score).min())
        #expect(suggested.allSatisfy { $0.score < lowest && $0.score < 0.5 })
        #expect(matched.allSatisfy { $0.score >= 0.5 })
        // The default answer is what is accepted alone.
        let answer = try await Self.query(matcher: matcher).search(input, limit: 100)
        #expect(answer.items == matched)
    }

    @Test func aPictureOfNothingAnswersNothingByDefaultAndItsCandidatesOnRequest() async throws {
        let matcher = FixedMatcher(candidates: [
            PlaceMatchCandidate(placeID: "eiffel-tower", score: 0.3, accepted: false, inliers: 4, similarity: 0.61,
                                margin: 0.04),
        ])
        let input = SemanticContentDescriptor(pixelBuffer: try tinyPicture())
        #expect(try await Self.query(matcher: matcher).search(input).items.isEmpty)
        let all = try await Self.query(matcher: matcher).search(input, minimumScore: 0)
        let tower = try #require(all.items.first)
        #expect(tower.result.entityIdentifierString == "eiffel-tower")
        #expect(tower.score == 0.3 && !tower.reason.accepted)
        #expect(tower.reason.printSimilarity == 0.61 && tower.reason.printMargin == 0.04)
        #expect(tower.reason.description
                == "possible match eiffel-tower (0.30, print 0.61, margin 0.04, 4 inliers), not accepted: below the line 0.5")
    }

    @Test func valuesForReturnsTheFirstPage() async throws {
        let query = Self.query()
        let input = SemanticContentDescriptor(labels: ["sky", "cloud", "water"])
        let values = try await query.values(for: input)
        #expect(values == (try await query.search(input)).results)
        #expect(values.count == min(10, (try await query.search(input, limit: 100)).totalCount))
    }

    @Test func pagesJoinBackToTheFullListWithoutRepeats() async throws {
        let matcher = FixedMatcher(candidates: [
            PlaceMatchCandidate(placeID: "eiffel-tower", score: 0.9, accepted: true),
            PlaceMatchCandidate(placeID: "chateau-de-chambord", score: 0.6, accepted: true),
        ])
        let query = Self.query(matcher: matcher)
        let input = SemanticContentDescriptor(labels: ["tower", "sky", "tree", "water"], pixelBuffer: try tinyPicture())
        let full = try await query.search(input, limit: 100, minimumScore: 0)
        #expect(full.nextCursor == nil)
        #expect(full.totalCount == full.items.count)
        #expect(full.totalCount > 7)
        for size in [1, 2, 3, 7] {
            var page = try await query.search(input, limit: size, minimumScore: 0)
            var joined = page.items
            while let cursor = page.nextCursor {
                page = try query.page(after: cursor, limit: size)
                #expect(page.offset == joined.count)
                joined += page.items
            }
            #expect(joined == full.items)
            #expect(Set(joined.map(\.result)).count == joined.count)
        }
    }

    @Test func pagesStayOnTheirSnapshotWhenTheCatalogChanges() async throws {
        let store = SnapshotStore()
        let query = Self.query(store: store)
        let input = SemanticContentDescriptor(labels: ["lake", "water", "sky"])
        let full = try await query.search(input, limit: 100)
        let first = try await query.search(input, limit: 3)

        // Reload a changed catalog: drop every collection's lake photos' "water" label.
        var json = try Fixtures.sampleJSON()
        var places = try #require(json["places"] as? [[String: Any]])
        for index in places.indices {
            places[index]["labels"] = (places[index]["labels"] as? [String])?.filter { $0 != "water" }
        }
        json["places"] = places
        let changed = store.publish(try Catalog.load(directory: try Fixtures.writeCatalog(json).path))
        #expect(changed.id != query.snapshot.id)
        #expect(store.current?.id == changed.id)

        // The next pages, asked of a query over the new snapshot, still come from the old one.
        let newQuery = VisualSearchQuery(snapshot: changed, store: store)
        var joined = first.items
        var cursor = first.nextCursor
        while let next = cursor {
            let page = try newQuery.page(after: next, limit: 3)
            #expect(page.snapshotID == query.snapshot.id)
            joined += page.items
            cursor = page.nextCursor
        }
        #expect(joined == full.items)
        // A fresh search sees the change.
        let fresh = try await newQuery.search(input, limit: 100)
        #expect(fresh.snapshotID == changed.id)
        #expect(fresh.items.map(\.reason) != full.items.map(\.reason))
    }

    @Test func expiredAndForgedCursorsAreClearErrors() async throws {
        let store = SnapshotStore(capacity: 1)
        let query = Self.query(store: store)
        let page = try await query.search(SemanticContentDescriptor(labels: ["sky"]), limit: 1)
        let cursor = try #require(page.nextCursor)
        #expect(throws: VisualSearchError.invalidCursor) { try query.page(after: "x" + cursor) }
        let otherKey = VisualSearchQuery(snapshot: query.snapshot, store: SnapshotStore())
        #expect(throws: VisualSearchError.invalidCursor) { try otherKey.page(after: cursor) }

        var json = try Fixtures.sampleJSON()
        json["labels"] = (json["labels"] as? [String] ?? []) + ["volcano"]
        let changed = store.publish(try Catalog.load(directory: try Fixtures.writeCatalog(json).path))
        let later = VisualSearchQuery(snapshot: changed, store: store)
        #expect(throws: VisualSearchError.expiredCursor(snapshotID: query.snapshot.id)) {
            try later.page(after: cursor)
        }
        // The query still holding the old snapshot can page it.
        #expect(try query.page(after: cursor).offset == 1)
    }

    @Test(arguments: [0, -3, 101])
    func invalidLimits(limit: Int) async throws {
        await #expect(throws: VisualSearchError.invalidLimit(limit, maximum: 100)) {
            try await Self.query().search(SemanticContentDescriptor(labels: ["sky"]), limit: limit)
        }
    }

    @Test func resultsAreDeterministic() async throws {
        let input = SemanticContentDescriptor(labels: ["animal", "grass", "sky"])
        let a = try await Self.query().search(input, limit: 100)
        let b = try await Self.query().search(input, limit: 100)
        #expect(a.items == b.items)
        #expect(a.snapshotID == b.snapshotID)
    }

    @Test func snapshotStoreIsBoundedAndContentAddressed() throws {
        let store = SnapshotStore(capacity: 2)
        let a = store.publish(Fixtures.catalog)
        #expect(store.publish(Fixtures.catalog).id == a.id)
        #expect(store.snapshotIDs == [a.id])
        #expect(a.id.count == 16)
        var json = try Fixtures.sampleJSON()
        json["labels"] = (json["labels"] as? [String] ?? []) + ["volcano"]
        let b = store.publish(try Catalog.load(directory: try Fixtures.writeCatalog(json).path))
        json["labels"] = (json["labels"] as? [String] ?? []) + ["glacier"]
        let c = store.publish(try Catalog.load(directory: try Fixtures.writeCatalog(json).path))
        #expect(store.snapshotIDs == [b.id, c.id])
        #expect(store.snapshot(id: a.id) == nil)
    }
}
