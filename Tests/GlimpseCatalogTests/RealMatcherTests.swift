import Foundation
import GlimpseImage
import GlimpseIntents
import GlimpseVision
import Testing
@testable import GlimpseCatalog

/// Places registered with the test matcher: the three queried and six others of several kinds
/// (a subset keeps debug-build tests fast; `glimpse query` registers the whole catalog).
private let registered: Set<String> = [
    "eiffel-tower", "rowing-boats-lakeshore-sunset", "chichen-itza", "wooden-jetty-calm-lake",
    "misty-lake-blue-hour", "colorful-plastic-cups", "fallen-maple-leaf", "chateau-de-chambord",
    "cite-de-carcassonne",
]

/// The matcher over the registered places, built once for all tests.
private let sharedMatcher = Task { try await Fixtures.catalog.makeVisualMatcher(placeIDs: registered) }

@Suite("Visual search with the real matcher on catalog photos")
struct RealMatcherTests {
    @Test(arguments: ["eiffel-tower", "rowing-boats-lakeshore-sunset", "chichen-itza"])
    func catalogPhotoReturnsItsPlaceThenItsCollections(placeID: String) async throws {
        let matcher = try await sharedMatcher.value
        let store = SnapshotStore()
        let query = VisualSearchQuery(snapshot: store.publish(Fixtures.catalog), store: store, matcher: matcher)
        let place = try #require(Fixtures.catalog.place(id: placeID))
        let picture = try ImageDecoder.decode(contentsOfFile: place.photoPath).pixelBuffer

        let page = try await query.search(SemanticContentDescriptor(pixelBuffer: picture))
        #expect(page.items.first?.result == .place(place))
        let top = try #require(page.items.first)
        #expect(top.score >= 0.5)  // at or above the matcher's accept threshold
        #expect(top.reason.matchedPlaceID == placeID)
        let following = page.items.dropFirst().prefix(place.collections.count).map(\.result)
        #expect(Set(following) == Set(place.collections.compactMap(Fixtures.catalog.collection(id:)).map {
            VisualSearchResult.collection($0)
        }))
        #expect(page.items.count <= 10)
        #expect(page.labelSource == .matchedPlace)
    }

    @Test func matcherReferencesAreThePlaces() async throws {
        let matcher = try await sharedMatcher.value
        #expect(matcher.referenceIDs == Fixtures.catalog.places.map(\.id).filter(registered.contains))
    }
}
