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
    /// A real SQLite store whose reads of the change log fail while told to, as a database that
    /// went away between an edit's commit and the catch-up does.
    final class FlakyStore: CatalogStore {
        let inner: SQLiteCatalogStore
        let readsFail = Mutex(false)

        init(_ inner: SQLiteCatalogStore) { self.inner = inner }

        func read(featuresKey: String?) async throws(StoreError) -> StoredCatalog { try await inner.read(featuresKey: featuresKey) }
        func photoBytes(sha256: String) async throws(StoreError) -> [UInt8] { try await inner.photoBytes(sha256: sha256) }
        func apply(_ edit: CatalogEdit) async throws(StoreError) -> AppliedEdit { try await inner.apply(edit) }
        func storeFeatures(_ features: EncodedFeatures, sha256: String, featuresKey: String) async throws(StoreError) {
            try await inner.storeFeatures(features, sha256: sha256, featuresKey: featuresKey)
        }
        func changes(after sequence: Int64) async throws(StoreError) -> [CatalogChange] {
            if readsFail.withLock({ $0 }) { throw .unavailable(reason: "the database went away") }
            return try await inner.changes(after: sequence)
        }
        func delta(after sequence: Int64, featuresKey: String?) async throws(StoreError) -> CatalogDelta {
            if readsFail.withLock({ $0 }) { throw .unavailable(reason: "the database went away") }
            return try await inner.delta(after: sequence, featuresKey: featuresKey)
        }
        func changeSignals() -> AsyncStream<StoreSignal>? { nil }
        func close() async { await inner.close() }
    }

    @Test func aCommittedCollectionNotServedYetIsAnsweredAsStored() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = EngineConfiguration(catalogDirectory: catalogDirectory)
        configuration.featurePrintModel = .off
        configuration.labelModel = .off
        let models = try EngineModels.load(configuration)
        let inner = try SQLiteCatalogStore.open(path: directory.file("catalog.sqlite"), create: true)
        _ = try await StoreSeeding.seed(inner, from: catalogDirectory, refresh: false, models: models, featureCache: nil)
        let store = FlakyStore(inner)
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
