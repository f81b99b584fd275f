import GlimpseCatalog
import GlimpseEngine
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseWire
import Synchronization
import Testing

/// An edit the store committed but the daemon could not serve at once (the store went away between the
/// commit and reading the changes back) is an outcome, not an error: it says it is stored but not
/// served, `healthProblem` says why, and the next catch-up serves it.
@Suite(.serialized) struct LiveCatalogNotServedTests {
    typealias Fixture = LiveCatalogTests.Fixture

    /// A real store whose reads of the change log fail, as a database that went away does, while told to.
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
            try checkReads()
            return try await inner.changes(after: sequence)
        }
        func delta(after sequence: Int64, featuresKey: String?) async throws(StoreError) -> CatalogDelta {
            try checkReads()
            return try await inner.delta(after: sequence, featuresKey: featuresKey)
        }
        func changeSignals() -> AsyncStream<StoreSignal>? { nil }
        func close() async { await inner.close() }

        private func checkReads() throws(StoreError) {
            if readsFail.withLock({ $0 }) { throw .unavailable(reason: "the database went away") }
        }
    }

    @Test func aCommittedEditThatCannotBeServedYetIsStoredNotFailed() async throws {
        let fixture = try await Fixture.make()
        let target = try #require(fixture.live.engine.catalog.places.first).id
        let labels = await fixture.live.labels.labels
        await fixture.live.close()
        let store = FlakyStore(try SQLiteCatalogStore.open(path: fixture.storePath))
        let configuration = Fixture.configuration("/nonexistent")
        let live = try await LiveCatalog.open(
            store: store, photoFolder: PhotoFolder(path: store.inner.photoFolder), configuration: configuration)
        let before = live.engine.current.snapshot.id

        // Another writer's edit: this catalog must read the change log to serve its next own edit.
        _ = try await store.inner.apply(.setLabels(labels + ["written-elsewhere"], precondition: .none))
        store.readsFail.withLock { $0 = true }
        let outcome = try await live.apply(.deletePlace(id: target, precondition: .none))
        #expect(outcome.applied.changed && outcome.notServed != nil)
        #expect(outcome.commitToVisible == nil && outcome.snapshotID == before)
        #expect(live.engine.catalog.place(id: target) != nil, "not served yet")
        let problem = try #require(await live.healthProblem)
        #expect(!problem.contains("/"))

        // The store is back: the next catch-up serves both edits.
        store.readsFail.withLock { $0 = false }
        let served = try await live.catchUp()
        #expect(served == outcome.applied.sequence)
        #expect(live.engine.catalog.place(id: target) == nil)
        #expect(live.engine.catalog.labels.contains("written-elsewhere"))
        await live.close()
    }
}
