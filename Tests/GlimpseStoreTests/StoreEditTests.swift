import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseVision
import GlimpseWire
import Testing

/// The edits' semantics, the same on every backend.
@Suite(.hangGuard) struct StoreEditTests {
    typealias F = StoreFixtures

    @Test(arguments: Backend.allCases) func putPlaceCreatesReplacesAndRepeatsAsNoOp(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let before = try await store.read(featuresKey: F.key)
        #expect(before.places.map(\.definition.id) == ["a", "b"])
        #expect(try before.places[0].photos[0].features?.decoded() == F.features(3))
        #expect(before.places[0].definition.photos == [PhotoDefinition(image: "photos/a1.jpg", credit: F.photo("a1").credit)])

        var a = F.place("a", labels: ["stone", "water"], collections: ["old"])
        let changed = try await store.apply(.putPlace(a, photos: nil, precondition: .revision(before.places[0].revision)))
        #expect(changed.changed && changed.sequence == before.sequence + 1)
        let newA = try #require(changed.places["a"] ?? nil)
        #expect(newA.revision == changed.sequence && newA.definition.labels == ["stone", "water"])
        #expect(newA.photos.map(\.sha256) == before.places[0].photos.map(\.sha256))

        // The same put again changes nothing: no revision bump, no change-log entry.
        let repeated = try await store.apply(.putPlace(a, photos: nil, precondition: .none))
        #expect(!repeated.changed && repeated.sequence == changed.sequence && repeated.places.isEmpty)

        // Replacing the photos: exactly these, in order; the old content is gone.
        a.labels = ["stone"]
        let replaced = try await store.apply(.putPlace(a, photos: [F.photo("a2"), F.photo("a3")], precondition: .none))
        #expect((replaced.places["a"] ?? nil)?.photos.map(\.name) == ["photos/a2.jpg", "photos/a3.jpg"])
        await #expect(throws: StoreError.notFound(type: "photo", id: F.photo("a1").sha256)) {
            try await store.photoBytes(sha256: F.photo("a1").sha256)
        }
        #expect(try await store.photoBytes(sha256: F.photo("a2").sha256) == F.photo("a2").bytes)
    }

    @Test(arguments: Backend.allCases) func preconditions(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let current = try await store.read(featuresKey: nil).places[0].revision
        await #expect(throws: StoreError.preconditionFailed(type: "place", id: "a", current: current)) {
            try await store.apply(.putPlace(F.place("a"), photos: nil, precondition: .revision(current - 1)))
        }
        await #expect(throws: StoreError.preconditionFailed(type: "place", id: "a", current: current)) {
            try await store.apply(.putPlace(F.place("a"), photos: nil, precondition: .mustNotExist))
        }
        await #expect(throws: StoreError.preconditionFailed(type: "place", id: "zz", current: nil)) {
            try await store.apply(.putPlace(F.place("zz"), photos: [F.photo("z")], precondition: .mustExist))
        }
        await #expect(throws: StoreError.preconditionFailed(type: "collection", id: "nope", current: nil)) {
            try await store.apply(.deleteCollection(id: "nope", precondition: .revision(3)))
        }
        await #expect(throws: StoreError.notFound(type: "place", id: "nope")) {
            try await store.apply(.deletePlace(id: "nope", precondition: .none))
        }
        let created = try await store.apply(.putPlace(F.place("c"), photos: [F.photo("c1")], precondition: .mustNotExist))
        #expect(created.changed)
    }

    @Test(arguments: Backend.allCases) func validationRefusals(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        await #expect(throws: StoreError.invalidCatalog(.unknownLabel(placeID: "c", label: "lava"))) {
            try await store.apply(.putPlace(F.place("c", labels: ["lava"]), photos: [F.photo("c1")], precondition: .none))
        }
        await #expect(throws: StoreError.invalidCatalog(.danglingCollection(placeID: "c", collectionID: "new"))) {
            try await store.apply(.putPlace(F.place("c", collections: ["new"]), photos: [F.photo("c1")], precondition: .none))
        }
        await #expect(throws: StoreError.self) {
            try await store.apply(.putPlace(F.place("c"), photos: nil, precondition: .none))
        }
        await #expect(throws: StoreError.self) {
            try await store.apply(.putPlace(F.place(""), photos: [F.photo("c1")], precondition: .none))
        }
        await #expect(throws: StoreError.self) {
            try await store.apply(.putPlace(F.place("c"), photos: [F.photo("c1", name: "../escape.jpg")], precondition: .none))
        }
        // Another place's photo name for other bytes.
        await #expect(throws: StoreError.self) {
            try await store.apply(.putPlace(F.place("c"), photos: [F.photo("c1", name: "photos/a1.jpg")], precondition: .none))
        }
        await #expect(throws: StoreError.self) {
            try await store.apply(.putCollection(CollectionDefinition(id: "new", name: "New", summary: ""),
                                                 members: ["a", "ghost"], precondition: .none))
        }
        await #expect(throws: StoreError.self) {
            try await store.apply(.setLabels(["water"], precondition: .none))  // 'stone' is used by a
        }
        await #expect(throws: StoreError.invalidCatalog(.duplicateLabel(label: "water"))) {
            try await store.apply(.setLabels(["water", "stone", "water"], precondition: .none))
        }
        // Nothing of the refused edits was stored.
        let after = try await store.read(featuresKey: nil)
        #expect(after.sequence == 4 && after.places.count == 2 && after.collections.count == 1)
    }

    @Test(arguments: Backend.allCases) func photosAddRemoveAndTheLastOne(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let added = try await store.apply(.addPhoto(placeID: "b", photo: F.photo("b2"), precondition: .none))
        let b = try #require(added.places["b"] ?? nil)
        #expect(b.photos.map(\.name) == ["photos/b1.jpg", "photos/b2.jpg"] && b.revision == added.sequence)
        #expect(try b.photos[1].features?.decoded() == F.features(3) && b.photos[1].byteCount == F.photo("b2").bytes.count)
        #expect(b.photos[1].featuresKey == F.key)
        let again = try await store.apply(.addPhoto(placeID: "b", photo: F.photo("b2"), precondition: .none))
        #expect(!again.changed && again.sequence == added.sequence)

        let removed = try await store.apply(.removePhoto(placeID: "b", sha256: F.photo("b1").sha256,
                                                         precondition: .revision(b.revision)))
        #expect((removed.places["b"] ?? nil)?.photos.map(\.name) == ["photos/b2.jpg"])
        await #expect(throws: StoreError.self) {
            try await store.apply(.removePhoto(placeID: "b", sha256: F.photo("b2").sha256, precondition: .none))
        }
        await #expect(throws: StoreError.notFound(type: "photo of place 'b'", id: "feed")) {
            try await store.apply(.removePhoto(placeID: "b", sha256: "feed", precondition: .none))
        }
        let deleted = try await store.apply(.deletePlace(id: "b", precondition: .mustExist))
        #expect(deleted.places.keys.sorted() == ["b"] && deleted.places["b"]! == nil)
        await #expect(throws: StoreError.self) { try await store.photoBytes(sha256: F.photo("b2").sha256) }
    }

    @Test(arguments: Backend.allCases) func collectionsMembersAndDeletion(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let put = try await store.apply(.putCollection(
            CollectionDefinition(id: "old", name: "Old ones", summary: "Older."), members: ["b"], precondition: .none))
        #expect(Set(put.places.keys) == ["a", "b"])
        let stored = try await store.read(featuresKey: nil)
        #expect(stored.places.map(\.definition.collections) == [[], ["old"]])
        #expect(stored.collections.map(\.definition.name) == ["Old ones"])
        #expect(stored.places.allSatisfy { $0.revision == put.sequence })

        let deleted = try await store.apply(.deleteCollection(id: "old", precondition: .revision(put.sequence)))
        #expect(deleted.collections.keys.sorted() == ["old"] && deleted.collections["old"]! == nil)
        let b = try #require(deleted.places["b"] ?? nil)
        #expect(b.definition.collections.isEmpty && b.revision == deleted.sequence)
        #expect(deleted.places["a"] == nil)  // a did not list it any more
    }

    @Test(arguments: Backend.allCases) func labelsAndTheChangeLog(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let labels = try await store.apply(.setLabels(["water", "stone", "sand"], precondition: .none))
        #expect(labels.labels == ["water", "stone", "sand"])
        #expect(try await store.read(featuresKey: nil).labelsRevision == labels.sequence)
        let log = try await store.changes(after: 0)
        #expect(log.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(log.map(\.kind) == ["setLabels", "putCollection", "putPlace", "putPlace", "setLabels"])
        #expect(log.map(\.entityID) == ["", "old", "a", "b", ""])
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.sequence < $1.sequence && $0.at <= $1.at })
        #expect(try await store.changes(after: 3).map(\.sequence) == [4, 5])
    }

    @Test(arguments: Backend.allCases) func featuresRoundTripAndReExtraction(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let sha = F.photo("a1").sha256
        let other = F.features(7, seed: 2).with(featurePrints: [])
        try await store.storeFeatures(EncodedFeatures(other), sha256: sha, featuresKey: "other-key")
        let withOld = try await store.read(featuresKey: F.key)
        #expect(try withOld.places[0].photos[0].features == nil && withOld.places[1].photos[0].features?.decoded() == F.features(3))
        let withNew = try await store.read(featuresKey: "other-key")
        #expect(try withNew.places[0].photos[0].features?.decoded() == other && withNew.places[0].photos[0].featuresKey == "other-key")
        #expect(withOld.places[0].photos[0].featuresKey == nil)
        #expect(withNew.sequence == withOld.sequence)
    }

    @Test func theCatalogsPhotoPathsAreTheStoresOwnFiles() async throws {
        let (folder, store) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let (stored, catalog) = try await store.loadCatalog(featuresKey: nil)
        let file = store.photoFolder + "/" + stored.places[0].photos[0].fileName
        #expect(catalog.place(id: "a")?.photoPath == file)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(F.photo("a1").bytes))
        #expect(catalog.contents == Array("\(store.storeID):\(stored.sequence)".utf8))
        #expect(catalog.collection(id: "old")?.places == ["a"])
        // Nothing to materialise: the files are already the store's.
        #expect(try await PhotoFolder(path: store.photoFolder).materialize(stored.places, from: store) == 0)
        #expect(try await store.check(featuresKey: F.key).isEmpty)
        #expect(try await store.check(featuresKey: "other").count == 2)
    }
}
