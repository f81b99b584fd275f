import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseVision
import GlimpseWire
import Testing

@Suite(.timeLimit(.minutes(5))) struct StoreTransferTests {
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
