import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseTestSupport
import GlimpseVision
import GlimpseWire
import Testing

/// ``CatalogStore/delta(after:featuresKey:)``, the same on every backend.
@Suite(.hangGuard) struct StoreDeltaTests {
    typealias F = StoreFixtures

    @Test(arguments: Backend.allCases) func namesWhatChangedWithItsStateNow(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let start = try await store.read(featuresKey: nil).sequence
        let none = try await store.delta(after: start, featuresKey: nil)
        #expect(none.sequence == start && none.isEmpty)

        let put = try await store.apply(.putPlace(F.place("a", labels: ["water"], collections: ["old"]), photos: nil,
                                                  precondition: .none))
        let one = try await store.delta(after: start, featuresKey: F.key)
        #expect(one.sequence == put.sequence && Array(one.places.keys) == ["a"] && one.collections.isEmpty)
        #expect(one.places["a"] == put.places["a"] && one.labels == nil && one.whole == nil)
        #expect(try (one.places["a"] ?? nil)?.photos.first?.features?.decoded() == F.features(3))
        #expect((try await store.delta(after: start, featuresKey: nil).places["a"] ?? nil)?.photos.first?.features == nil)

        _ = try await store.apply(.deletePlace(id: "b", precondition: .none))
        _ = try await store.apply(.setLabels(["water", "stone", "sand"], precondition: .none))
        let more = try await store.delta(after: start, featuresKey: nil)
        #expect(Set(more.places.keys) == ["a", "b"] && more.places["b"]! == nil)
        #expect(more.labels == ["water", "stone", "sand"] && more.labelsRevision == more.sequence)
        let stored = try await store.read(featuresKey: nil)
        #expect(more.sequence == stored.sequence)
    }

    /// A collection edit names only the collection in the change log, but changes the places listing it.
    @Test(arguments: Backend.allCases) func collectionEditsBringThePlacesTheyTouch(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let start = try await store.read(featuresKey: nil).sequence
        let put = try await store.apply(.putCollection(
            CollectionDefinition(id: "old", name: "Old", summary: "Old places."), members: ["b"], precondition: .none))
        let delta = try await store.delta(after: start, featuresKey: nil)
        #expect(Set(delta.places.keys) == ["a", "b"] && Array(delta.collections.keys) == ["old"])
        #expect((delta.places["a"] ?? nil)?.definition.collections == [] && (delta.places["b"] ?? nil)?.revision == put.sequence)

        let deleted = try await store.apply(.deleteCollection(id: "old", precondition: .none))
        let after = try await store.delta(after: put.sequence, featuresKey: nil)
        #expect(Array(after.places.keys) == ["b"] && after.collections["old"]! == nil)
        #expect((after.places["b"] ?? nil)?.revision == deleted.sequence)
    }

    @Test(arguments: Backend.allCases) func wholeCatalogAfterAReplaceOrFromOutsideTheLog(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let fromStart = try await store.delta(after: 0, featuresKey: nil)
        #expect(fromStart.whole == nil && Set(fromStart.places.keys) == ["a", "b"] && fromStart.labels == ["water", "stone"])
        let start = fromStart.sequence
        let definition = CatalogDefinition(labels: [], places: [
            PlaceDefinition(id: "z", name: "Z", kind: "landmark", labels: [], collections: [],
                            photos: [PhotoDefinition(image: "photos/z1.jpg", credit: nil)]),
        ], collections: [])
        _ = try await store.apply(.replaceCatalog(definition, photos: [[F.photo("z1")]], replace: true))
        let replaced = try await store.delta(after: start, featuresKey: nil)
        let whole = try #require(replaced.whole)
        #expect(replaced.places.isEmpty && replaced.collections.isEmpty)
        #expect(whole == (try await store.read(featuresKey: nil)) && whole.places.map(\.definition.id) == ["z"])
        #expect(try await store.delta(after: replaced.sequence + 5, featuresKey: nil).whole != nil)
    }
}
