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

    @Test func aCommittedEditThatCannotBeServedYetIsStoredNotFailed() async throws {
        let fixture = try await Fixture.make()
        let target = try #require(fixture.live.engine.catalog.places.first).id
        let labels = await fixture.live.labels.labels
        await fixture.live.close()
        let store = ChangeLogFailingStore(try SQLiteCatalogStore.open(path: fixture.storePath))
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
