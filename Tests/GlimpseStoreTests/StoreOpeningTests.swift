import Foundation
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GRDB
import Testing

@Suite struct StoreOpeningTests {
    @Test func createsMigratesAndReopens() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("sub/catalog.sqlite")
        var id = ""
        do {
            let store = try SQLiteCatalogStore.open(path: path, create: true)
            #expect(store.schemaVersion == 2)
            let empty = try await store.read(featuresKey: nil)
            #expect(empty.sequence == 0 && empty.places.isEmpty && empty.labels.isEmpty)
            #expect(UUID(uuidString: empty.storeID) != nil)
            _ = try await store.apply(.setLabels(["water"], precondition: .none))
            id = store.storeID
        }
        let again = try SQLiteCatalogStore.open(path: path)
        #expect(again.storeID == id)
        let stored = try await again.read(featuresKey: nil)
        #expect(stored.labels == ["water"] && stored.sequence == 1)
    }

    @Test func missingFileIsAnErrorWithoutCreate() {
        #expect(throws: StoreError.self) { try SQLiteCatalogStore.open(path: "/tmp/glimpse-no-such/x.sqlite") }
    }

    @Test func refusesANewerSchema() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("catalog.sqlite")
        do {
            _ = try SQLiteCatalogStore.open(path: path, create: true)
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "UPDATE store_meta SET value = '99' WHERE key = 'schema_version'") }
        try queue.close()
        #expect(throws: StoreError.schemaTooNew(path: path, found: 99, supported: 2)) {
            try SQLiteCatalogStore.open(path: path)
        }
    }

    @Test func refusesACorruptedFile() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("catalog.sqlite")
        do {
            let store = try SQLiteCatalogStore.open(path: path, create: true)
            _ = try await store.apply(.setLabels((0..<400).map { "label-\($0)" }, precondition: .none))
        }
        var bytes = try AtomicFile.readAll(path)
        #expect(bytes.count >= 3 * 4096)
        // Damage the b-tree pages after the header page (page type bytes and cell pointers).
        for page in 1..<(bytes.count / 4096) {
            for offset in 0..<64 { bytes[page * 4096 + offset] ^= 0xA5 }
        }
        try AtomicFile.replace(path, with: bytes)
        do {
            _ = try SQLiteCatalogStore.open(path: path)
            Issue.record("a damaged store opened")
        } catch {
            guard case .corrupt = error else { Issue.record("expected corrupt, got \(error)"); return }
            #expect(error.description.contains("damaged"))
        }
    }

    @Test func aSecondWriterFailsFastNamingTheHolder() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("catalog.sqlite")
        let first = try SQLiteCatalogStore.open(path: path, create: true)
        let started = ContinuousClock.now
        #expect(throws: StoreError.busy(path: path, holder: getpid())) { try SQLiteCatalogStore.open(path: path) }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(StoreError.busy(path: path, holder: 42).description.contains("--socket"))
        // A reader takes no lock.
        _ = try SQLiteCatalogStore.open(path: path, mode: .read)
        withExtendedLifetime(first) {}
    }

    @Test func defaultPathRule() {
        let folder = "/srv/catalogs/Images"
        #expect(SQLiteCatalogStore.defaultPath(catalogDirectory: folder, environment: ["GLIMPSE_STORE": "/s.sqlite", "HOME": "/h"])
            == "/s.sqlite")
        let xdg = SQLiteCatalogStore.defaultPath(catalogDirectory: folder, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"])
        #expect(xdg.hasPrefix("/d/glimpse/stores/Images-") && xdg.hasSuffix(".sqlite"))
        let home = SQLiteCatalogStore.defaultPath(catalogDirectory: folder, environment: ["HOME": "/h"])
        #expect(home.hasPrefix("/h/.local/share/glimpse/stores/Images-"))
        // One store per folder: another folder of the same name gets another store.
        #expect(SQLiteCatalogStore.defaultPath(catalogDirectory: "/other/Images", environment: ["HOME": "/h"]) != home)
        #expect(SQLiteCatalogStore.defaultPath(catalogDirectory: folder + "/", environment: ["HOME": "/h"]) == home)
    }
}
