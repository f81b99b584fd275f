import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
@testable import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseWire
import GRDB
import Testing

/// A SQLite store keeps each photo's bytes once, as a file of its photo folder: written before the
/// edit commits, gone when the edit does not, removed with the last photo using it, swept when a crash
/// left it behind, and moved there from the database when a version-1 store opens.
@Suite(.hangGuard) struct StorePhotoFilesTests {
    private typealias F = StoreFixtures

    /// The names of the entries of `folder`.
    static func files(in folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    /// Runs `body` on a connection of its own to the store's database, as a hand-made SQL edit would.
    static func withDatabase<T: Sendable>(_ store: SQLiteCatalogStore, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let queue = try DatabaseQueue(path: store.path)
        let result = try await queue.writeWithoutTransaction(body)
        try queue.close()
        return result
    }

    @Test func eachPhotoTakesItsSizeOnceOnDisk() async throws {
        let (folder, store) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let a1 = F.photo("a1"), b1 = F.photo("b1")
        #expect(Self.files(in: store.photoFolder) == [a1.sha256 + ".jpg", b1.sha256 + ".jpg"])
        let folderBytes = Self.files(in: store.photoFolder).compactMap { AtomicFile.size(of: store.photoFolder + "/" + $0) }
        #expect(folderBytes.reduce(0, +) == a1.bytes.count + b1.bytes.count)
        let inDatabase = try await Self.withDatabase(store) { db in
            try Int.fetchOne(db, sql: "SELECT SUM(length(bytes)) FROM photo_contents")
        }
        #expect(inDatabase == 0)
        #expect(try await store.photoBytes(sha256: a1.sha256) == a1.bytes)
    }

    @Test func anEditThatDoesNotCommitRemovesTheFilesItWrote() async throws {
        let (folder, store) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let before = Self.files(in: store.photoFolder)
        let refused = F.photo("refused")
        await #expect(throws: StoreError.self) {
            _ = try await store.apply(.addPhoto(placeID: "a", photo: refused, precondition: .revision(999)))
        }
        #expect(Self.files(in: store.photoFolder) == before)

        // Refused by the database after the photo's file was written: the file goes with the transaction.
        try await Self.withDatabase(store) { db in
            try db.execute(sql: "CREATE TRIGGER refuse_photos BEFORE INSERT ON photos BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        await #expect(throws: StoreError.self) {
            _ = try await store.apply(.addPhoto(placeID: "a", photo: refused, precondition: .none))
        }
        #expect(Self.files(in: store.photoFolder) == before)
        try await Self.withDatabase(store) { db in try db.execute(sql: "DROP TRIGGER refuse_photos") }
        _ = try await store.apply(.addPhoto(placeID: "a", photo: refused, precondition: .none))
        #expect(Self.files(in: store.photoFolder) == before.union([refused.sha256 + ".jpg"]))
    }

    @Test func anEditWhosePhotoCannotBeWrittenIsRefusedAndChangesNothing() async throws {
        let (folder, store) = try F.sqliteStore()
        defer { withExtendedLifetime(folder) {} }
        _ = try await store.apply(.setLabels(["water"], precondition: .none))
        // A file where the photo folder should be stands for a full disk or a read-only folder: the
        // folder cannot be made, so the photo cannot be written.
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: store.photoFolder))
        let error = await #expect(throws: StoreError.self) {
            _ = try await store.apply(.putPlace(F.place("a"), photos: [F.photo("a1")], precondition: .none))
        }
        guard case .io = error else {
            Issue.record("expected an I/O error, got \(String(describing: error))")
            return
        }
        let stored = try await store.read(featuresKey: nil)
        #expect(stored.sequence == 1 && stored.places.isEmpty)
        try FileManager.default.removeItem(atPath: store.photoFolder)
        _ = try await store.apply(.putPlace(F.place("a"), photos: [F.photo("a1")], precondition: .none))
        #expect(try await store.photoBytes(sha256: F.photo("a1").sha256) == F.photo("a1").bytes)
    }

    @Test func aFileGoesWithTheLastPhotoUsingIt() async throws {
        let (folder, store) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let a1 = F.photo("a1"), file = F.photo("a1").sha256 + ".jpg"
        _ = try await store.apply(.putPlace(F.place("c"), photos: [F.photo("c1"), a1], precondition: .none))
        _ = try await store.apply(.deletePlace(id: "a", precondition: .none))
        #expect(Self.files(in: store.photoFolder).contains(file))
        _ = try await store.apply(.removePhoto(placeID: "c", sha256: a1.sha256, precondition: .none))
        #expect(!Self.files(in: store.photoFolder).contains(file))
        // Replacing the whole catalog keeps the files of the photos it keeps, and only those.
        let b1 = F.photo("b1")
        let definition = CatalogDefinition(labels: ["water"], places: [
            PlaceDefinition(id: "b", name: "B", kind: "landmark", labels: ["water"], collections: [],
                            photos: [PhotoDefinition(image: b1.name, credit: b1.credit)]),
        ], collections: [])
        _ = try await store.apply(.replaceCatalog(definition, photos: [[b1]], replace: true))
        #expect(Self.files(in: store.photoFolder) == [b1.sha256 + ".jpg"])
        #expect(try await store.check(featuresKey: F.key).isEmpty)
    }

    @Test func filesNoRowNamesAreSweptAtOpenAndOthersLeftAlone() async throws {
        let (folder, store) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let path = store.path, photos = store.photoFolder
        let kept = Self.files(in: photos)
        await store.close()
        let stray = String(repeating: "ab", count: 32) + ".jpg"
        try Data("left by a crash".utf8).write(to: URL(fileURLWithPath: photos + "/" + stray))
        try Data("half written".utf8).write(to: URL(fileURLWithPath: photos + "/." + stray + ".tmp.42.1"))
        try Data("an operator's note".utf8).write(to: URL(fileURLWithPath: photos + "/notes.txt"))
        let reader = try SQLiteCatalogStore.open(path: path, mode: .read)
        #expect(reader.strayPhotoFilesRemoved == 0)
        await reader.close()
        let reopened = try SQLiteCatalogStore.open(path: path)
        #expect(reopened.strayPhotoFilesRemoved == 2)
        #expect(Self.files(in: photos) == kept.union(["notes.txt"]))
        #expect(try await reopened.check(featuresKey: F.key).isEmpty)
    }

    @Test func aPhotoNamedWithAnotherExtensionKeepsItsCopyAcrossOpens() async throws {
        let (folder, store) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let copy = F.photo("a1", name: "photos/c.png")
        _ = try await store.apply(.putPlace(F.place("c"), photos: [copy], precondition: .none))
        #expect(!Self.files(in: store.photoFolder).contains(copy.sha256 + ".png"))
        let stored = try await store.read(featuresKey: nil)
        #expect(try await PhotoFolder(path: store.photoFolder).materialize(stored.places, from: store) == 1)
        let path = store.path
        await store.close()
        let reopened = try SQLiteCatalogStore.open(path: path)
        #expect(reopened.strayPhotoFilesRemoved == 0)
        #expect(Self.files(in: reopened.photoFolder).contains(copy.sha256 + ".png"))
        #expect(try await reopened.check(featuresKey: F.key).isEmpty)
    }

    @Test func aVersionOneStoreMovesItsPhotosToFiles() async throws {
        let (folder, path, photos) = try await Self.seededVersionOneStore()
        defer { withExtendedLifetime(folder) {} }
        #expect(Self.files(in: photos).isEmpty)
        #expect(throws: StoreError.self) { try SQLiteCatalogStore.open(path: path, mode: .read) }

        let migrated = try SQLiteCatalogStore.open(path: path)
        #expect(migrated.photosMovedToFiles == 2 && migrated.schemaVersion == 2)
        #expect(Self.files(in: photos) == [F.photo("a1").sha256 + ".jpg", F.photo("b1").sha256 + ".jpg"])
        #expect(try await migrated.photoBytes(sha256: F.photo("b1").sha256) == F.photo("b1").bytes)
        #expect(try await migrated.check(featuresKey: F.key).isEmpty)
        let inDatabase = try await Self.withDatabase(migrated) { db in
            try Int.fetchOne(db, sql: "SELECT SUM(length(bytes)) FROM photo_contents")
        }
        #expect(inDatabase == 0)
    }

    @Test func aVersionOneStoreWithDamagedBytesIsRefusedAndLeftAsItWas() async throws {
        let (folder, path, _) = try await Self.seededVersionOneStore()
        defer { withExtendedLifetime(folder) {} }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE photo_contents SET bytes = X'00' WHERE sha256 = ?", arguments: [F.photo("b1").sha256])
        }
        try queue.close()
        let error = #expect(throws: StoreError.self) { try SQLiteCatalogStore.open(path: path) }
        guard case .corrupt(_, let reason) = error else {
            Issue.record("expected a damaged-store error, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("do not match its SHA-256"))
        let version = try await DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'schema_version'")
        }
        #expect(version == "1")
    }

    @Test func aLostOrForgedFileIsDamageNeverAPath() async throws {
        let (folder, store) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let a1 = F.photo("a1"), b1 = F.photo("b1")
        try FileManager.default.removeItem(atPath: store.photoFolder + "/" + a1.sha256 + ".jpg")
        let reason = try #require(await Self.damageReason(store, a1.sha256))
        #expect(reason.contains("missing"))
        #expect(try await store.check(featuresKey: F.key).contains { $0.contains(a1.sha256) && $0.contains("missing") })
        await #expect(throws: StoreError.self) { _ = try await store.loadCatalog(featuresKey: F.key) }

        let outside = folder.file("outside.jpg")
        try Data(b1.bytes).write(to: URL(fileURLWithPath: outside))
        try await Self.withDatabase(store) { db in
            try db.execute(sql: "UPDATE photo_contents SET file = ? WHERE sha256 = ?", arguments: ["../outside.jpg", b1.sha256])
        }
        let forgedReason = try #require(await Self.damageReason(store, b1.sha256))
        #expect(forgedReason.contains("not its content address"))
        try await Self.withDatabase(store) { db in
            try db.execute(sql: "UPDATE photo_contents SET file = NULL WHERE sha256 = ?", arguments: [b1.sha256])
        }
        let unnamedReason = try #require(await Self.damageReason(store, b1.sha256))
        #expect(unnamedReason.contains("names no file"))
        #expect(try await store.check(featuresKey: F.key).contains { $0.contains(b1.sha256) && $0.contains("names no file") })
        let path = store.path
        await store.close()
        _ = try SQLiteCatalogStore.open(path: path)
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    @Test func aCheckBesideADaemonDoesNotCallAPhotoItDeletedLost() async throws {
        let (folder, writer) = try await F.seededSQLite()
        defer { withExtendedLifetime(folder) {} }
        let a2 = F.photo("a2")
        _ = try await writer.apply(.addPhoto(placeID: "a", photo: a2, precondition: .none))
        let reader = try SQLiteCatalogStore.open(path: writer.path, mode: .read)
        // The reader's rows still hold a2 while its file is gone, as when the daemon removes the photo
        // between the check's snapshot and its reading the file; the daemon's removal then commits.
        try FileManager.default.removeItem(atPath: writer.photoFolder + "/" + a2.sha256 + ".jpg")
        let problems = try await reader.check(featuresKey: F.key) {
            do { _ = try await writer.apply(.removePhoto(placeID: "a", sha256: a2.sha256, precondition: .none)) } catch {
                Issue.record("the daemon's edit failed: \(error)")
            }
        }
        #expect(problems.isEmpty)
        // A file that is still missing once the photo is still stored is reported.
        try FileManager.default.removeItem(atPath: writer.photoFolder + "/" + F.photo("b1").sha256 + ".jpg")
        #expect(try await reader.check(featuresKey: F.key) { }.contains { $0.contains(F.photo("b1").sha256) && $0.contains("missing") })
        await reader.close()
    }

    /// Why reading the photo `sha256` from `store` is refused as damage; `nil`, with an issue recorded,
    /// when it is not refused so.
    static func damageReason(_ store: SQLiteCatalogStore, _ sha256: String) async -> String? {
        let error = await #expect(throws: StoreError.self) { _ = try await store.photoBytes(sha256: sha256) }
        guard case .corrupt(_, let reason) = error else {
            Issue.record("expected a damaged-store error, got \(String(describing: error))")
            return nil
        }
        return reason
    }

    /// A seeded SQLite store turned back into schema version 1, closed: its folder (kept alive by the
    /// caller), database path and photo folder.
    static func seededVersionOneStore() async throws -> (folder: TemporaryDirectory, path: String, photos: String) {
        let (folder, store) = try await F.seededSQLite()
        let path = store.path, photos = store.photoFolder
        await store.close()
        try await downgradeToVersionOne(path: path, photos: photos)
        return (folder, path, photos)
    }

    /// Turns the store at `path` into one as schema version 1 wrote it: the photos' bytes in the
    /// database, no `file` column, no photo folder.
    static func downgradeToVersionOne(path: String, photos: String) async throws {
        let queue = try DatabaseQueue(path: path)
        try await queue.writeWithoutTransaction { db in
            let rows = try Row.fetchAll(db, sql: "SELECT sha256, file FROM photo_contents")
            for row in rows {
                let file: String = row[1]
                let bytes = try Data(contentsOf: URL(fileURLWithPath: photos + "/" + file))
                try db.execute(sql: "UPDATE photo_contents SET bytes = ? WHERE sha256 = ?", arguments: [bytes, row[0] as String])
            }
            try db.execute(sql: "ALTER TABLE photo_contents DROP COLUMN file")
            try db.execute(sql: "UPDATE store_meta SET value = '1' WHERE key = 'schema_version'")
        }
        try queue.close()
        try FileManager.default.removeItem(atPath: photos)
    }
}
