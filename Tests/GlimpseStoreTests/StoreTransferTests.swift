import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseVision
import GlimpseWire
import Synchronization
import Testing

@Suite(.hangGuard) struct StoreTransferTests {
    /// Stand-in features (extraction is not what this tests): a few keypoints per photo.
    static func fakeFeatures(_ photos: [(placeID: String, path: String)]) -> [EncodedFeatures] {
        photos.indices.map { EncodedFeatures(StoreFixtures.features(2 + $0 % 5, seed: Float($0))) }
    }

    @Test(arguments: Backend.allCases) func importThenExportReproducesTheBundledCatalog(_ backend: Backend) async throws {
        let folder = try TemporaryDirectory()
        let (_, store) = try await StoreFixtures.store(backend)
        let applied = try await CatalogTransfer.importFolder(Repository.images, into: store, featuresKey: "k") { photos in
            Self.fakeFeatures(photos)
        }
        let original = try Catalog.load(directory: Repository.images)
        #expect(applied.sequence == 1 && applied.places.count == original.places.count)
        await #expect(throws: StoreError.self) {
            try await CatalogTransfer.importFolder(Repository.images, into: store, featuresKey: "k") { Self.fakeFeatures($0) }
        }
        let replaced = try await CatalogTransfer.importFolder(Repository.images, into: store, replace: true, featuresKey: "k") {
            Self.fakeFeatures($0)
        }
        #expect(replaced.sequence == 2)

        let out = folder.file("out")
        let written = try await CatalogTransfer.export(from: store, to: out)
        #expect(written.places == original.places.count)
        let exported = try Catalog.load(directory: out)
        #expect(exported.definition == original.definition)
        for place in original.definition.places {
            for photo in place.photos {
                let a = try AtomicFile.readAll(Repository.images + "/" + photo.image)
                let b = try AtomicFile.readAll(out + "/" + photo.image)
                #expect(a == b, "photo \(photo.image) differs")
            }
        }
        let stored = try await store.read(featuresKey: "k")
        let photos = stored.places.flatMap(\.photos)
        #expect(photos.map(\.features) == Self.fakeFeatures(photos.map { _ in (placeID: "", path: "") }))
        if let sqlite = store as? SQLiteCatalogStore { #expect(try await sqlite.check(featuresKey: "k").isEmpty) }
    }
}

/// A store that is edited while an export reads it, as a daemon's edit would: the `trigger`-th time a
/// photo's bytes are asked for, `places` are deleted first (only once).
final class EditedDuringExport: CatalogStore {
    let base: any CatalogStore
    let places: [String]
    let trigger: Int
    private let calls = Mutex(0)

    init(_ base: any CatalogStore, deleting places: [String], atPhoto trigger: Int) {
        self.base = base
        self.places = places
        self.trigger = trigger
    }

    func read(featuresKey: String?) async throws(StoreError) -> StoredCatalog { try await base.read(featuresKey: featuresKey) }

    func photoBytes(sha256: String) async throws(StoreError) -> [UInt8] {
        if calls.withLock({ $0 += 1; return $0 }) == trigger {
            for id in places { _ = try await base.apply(.deletePlace(id: id, precondition: .mustExist)) }
        }
        return try await base.photoBytes(sha256: sha256)
    }

    func apply(_ edit: CatalogEdit) async throws(StoreError) -> AppliedEdit { try await base.apply(edit) }

    func storeFeatures(_ features: EncodedFeatures, sha256: String, featuresKey: String) async throws(StoreError) {
        try await base.storeFeatures(features, sha256: sha256, featuresKey: featuresKey)
    }

    func changes(after sequence: Int64) async throws(StoreError) -> [CatalogChange] { try await base.changes(after: sequence) }

    func delta(after sequence: Int64, featuresKey: String?) async throws(StoreError) -> CatalogDelta {
        try await base.delta(after: sequence, featuresKey: featuresKey)
    }

    func changeSignals() -> AsyncStream<StoreSignal>? { base.changeSignals() }

    func close() async { await base.close() }
}

extension StoreTransferTests {
    /// Places deleted between the export's read of the catalog and its reads of their photos: the export
    /// starts again from a fresh read, and the folder ends as the store's new state, with none of the
    /// photos of the deleted places that the first attempt had already written.
    @Test(arguments: Backend.allCases) func anExportRacingAnEditEndsAsOneStateOfTheStore(_ backend: Backend) async throws {
        let folder = try TemporaryDirectory()
        let (keep, base) = try await StoreFixtures.store(backend)
        _ = keep
        try await CatalogTransfer.importFolder(Repository.images, into: base, featuresKey: "k") { Self.fakeFeatures($0) }
        let before = try await base.read(featuresKey: nil)
        let (first, second) = (before.places[0], before.places[1])
        // Asked for the second place's first photo, the store has just lost both places: the first place's
        // photos are already in the folder.
        let store = EditedDuringExport(base, deleting: [first.definition.id, second.definition.id], atPhoto: first.photos.count + 1)
        let out = folder.file("out")
        let written = try await CatalogTransfer.export(from: store, to: out)
        let after = try await base.read(featuresKey: nil)
        #expect(written.places == before.places.count - 2 && written.places == after.places.count)
        #expect(try Catalog.load(directory: out).definition == after.definition)
        for photo in first.photos + second.photos where !after.places.contains(where: { $0.photos.contains { $0.name == photo.name } }) {
            #expect(!FileManager.default.fileExists(atPath: out + "/" + photo.name), "\(photo.name) of a deleted place is left")
        }
        // A store edited at every read is given up on after the attempts, saying which photo is missing.
        let (keep2, base2) = try await StoreFixtures.store(backend)
        _ = keep2
        try await CatalogTransfer.importFolder(Repository.images, into: base2, featuresKey: "k") { Self.fakeFeatures($0) }
        let places = try await base2.read(featuresKey: nil).places
        let racing = EditedDuringExport(base2, deleting: [places[0].definition.id], atPhoto: 1)
        await #expect(throws: StoreError.self) {
            try await CatalogTransfer.export(from: racing, to: folder.file("out2"), attempts: 1)
        }
    }
}
