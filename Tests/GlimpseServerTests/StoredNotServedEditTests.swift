import GlimpseCatalog
import GlimpseEngine
import GlimpseFiles
import GlimpseImage
import GlimpseServer
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseWire
import Synchronization
import Testing

/// The daemon's edit service on an edit the store committed but the daemon cannot serve yet: the
/// outcome is not served (the route answers 202), carries why, and the entity as the store holds it.
@Suite("stored edits not served yet")
struct StoredNotServedEditTests {
    @Test func aCommittedCollectionNotServedYetIsAnsweredAsStored() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = EngineConfiguration(catalogDirectory: catalogDirectory)
        configuration.featurePrintModel = .off
        configuration.labelModel = .off
        let models = try EngineModels.load(configuration)
        let inner = try SQLiteCatalogStore.open(path: directory.file("catalog.sqlite"), create: true)
        _ = try await StoreSeeding.seed(inner, from: catalogDirectory, refresh: false, models: models, featureCache: nil)
        let store = ChangeLogFailingStore(inner)
        let live = try await LiveCatalog.open(
            store: store, photoFolder: PhotoFolder(path: inner.photoFolder), configuration: configuration, models: models)
        let service = LiveCatalogEditService(
            live: live, storeKind: "sqlite", limits: DecodingLimits(maxInputBytes: 1 << 20, maxPixels: 1 << 20))
        let place = try #require(live.engine.catalog.places.first).id
        let before = live.engine.current.snapshot.id

        // Another writer's edit, then this daemon's, whose catch-up cannot read the change log.
        let labels = await live.labels.labels
        _ = try await inner.apply(.setLabels(labels + ["written-elsewhere"], precondition: .none))
        store.readsFail.withLock { $0 = true }
        let outcome = try await service.putCollection(
            id: "quay", CollectionEditJSON(name: "Quay", summary: "by the water", places: [place]), condition: .none)
        #expect(!outcome.served)
        let pending = try #require(outcome.result.pending)
        #expect(pending.contains("not served yet") && !pending.contains("/"))
        #expect(outcome.result.snapshot == before && outcome.result.changed)
        #expect(outcome.result.collection?.id == "quay" && outcome.result.collection?.name == "Quay")
        #expect(outcome.revision == outcome.result.sequence)
        #expect(await service.storeProblem() != nil)

        // Once the log can be read, the next catch-up serves it.
        store.readsFail.withLock { $0 = false }
        _ = try await live.catchUp()
        #expect(await live.collection(id: "quay") != nil)
        await live.close()
    }
}
