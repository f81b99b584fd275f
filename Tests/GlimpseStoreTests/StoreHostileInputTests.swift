import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseWire
import GRDB
import Testing

/// Hostile edits and hostile rows: text a store would not keep as it was validated, photo names that
/// escape a folder, unbounded lists, and a row whose content address is a path.
@Suite(.hangGuard) struct StoreHostileInputTests {
    typealias F = StoreFixtures

    /// Whether `error` is the refusal of a text field (``CatalogError/invalidText(kind:id:field:reason:)``).
    static func isTextRefusal(_ error: any Error, field: String) -> Bool {
        guard case .invalidCatalog(.invalidText(_, _, let refused, _))? = error as? StoreError else { return false }
        return refused == field
    }

    @Test(arguments: Backend.allCases) func controlCharactersAreRefusedThenANormalEditApplies(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        let before = try await store.read(featuresKey: nil).sequence
        var nulName = F.place("c")
        nulName.name = "\u{0}"
        await #expect { try await store.apply(.putPlace(nulName, photos: [F.photo("c1")], precondition: .none)) }
            throws: { Self.isTextRefusal($0, field: "name") }
        var bidiRegion = F.place("c")
        bidiRegion.region = "Test\u{202E}land"
        await #expect { try await store.apply(.putPlace(bidiRegion, photos: [F.photo("c1")], precondition: .none)) }
            throws: { Self.isTextRefusal($0, field: "region") }
        await #expect {
            try await store.apply(.putCollection(
                CollectionDefinition(id: "nul", name: "\u{0}", summary: "x"), members: nil, precondition: .none))
        } throws: { Self.isTextRefusal($0, field: "name") }
        await #expect { try await store.apply(.setLabels(["water", "stone", "sky\u{0}x"], precondition: .none)) }
            throws: { Self.isTextRefusal($0, field: "text") }
        // A summary may hold line breaks, nothing else of the kind.
        await #expect {
            try await store.apply(.putCollection(
                CollectionDefinition(id: "bell", name: "Bell", summary: "ding\u{7}"), members: nil, precondition: .none))
        } throws: { Self.isTextRefusal($0, field: "summary") }
        #expect(try await store.read(featuresKey: nil).sequence == before)

        _ = try await store.apply(.putCollection(
            CollectionDefinition(id: "lines", name: "Lines", summary: "one\ntwo"), members: nil, precondition: .none))
        let applied = try await store.apply(.putPlace(F.place("c"), photos: [F.photo("c1")], precondition: .none))
        #expect(applied.changed)
        // What was stored loads as a daemon loads it.
        let stored = try await store.read(featuresKey: nil)
        _ = try stored.catalog(photoFolder: "/nonexistent")
        #expect(stored.places.map(\.definition.id) == ["a", "b", "c"])
    }

    @Test(arguments: Backend.allCases) func photoNamesAreSafeRelativeFileNames(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        for name in ["photos/a\u{0}.jpg", "photos/new\nline.jpg", "photos/\u{202E}gpj.exe", "photos\\a.jpg", "~/a.jpg",
                     "photos/ ", "photos/ a.jpg", "-rf.jpg", "photos/../../a.jpg", "/etc/a.jpg", "photos//a.jpg"] {
            await #expect(throws: StoreError.self, "name \(name.debugDescription)") {
                try await store.apply(.putPlace(F.place("c"), photos: [F.photo("c1", name: name)], precondition: .none))
            }
            await #expect(throws: StoreError.self, "name \(name.debugDescription)") {
                try await store.apply(.addPhoto(placeID: "a", photo: F.photo("a9", name: name), precondition: .none))
            }
        }
        let kept = try await store.apply(.addPhoto(placeID: "a", photo: F.photo("a9", name: "photos/a b-9.jpg"), precondition: .none))
        #expect(kept.changed)
    }

    @Test(arguments: Backend.allCases) func labelsAreBoundedAndListedOnce(_ backend: Backend) async throws {
        let (_, store) = try await F.seeded(backend)
        await #expect { try await store.apply(.putPlace(F.place("c", labels: ["water", "water"]), photos: [F.photo("c1")], precondition: .none)) }
            throws: { Self.isTextRefusal($0, field: "labels") }
        let many = Array(repeating: "water", count: 100_000)
        await #expect { try await store.apply(.putPlace(F.place("c", labels: many), photos: [F.photo("c1")], precondition: .none)) }
            throws: { Self.isTextRefusal($0, field: "labels") }
        let tooMany = (0...CatalogLimits.vocabulary).map { "label-\($0)" }
        await #expect { try await store.apply(.setLabels(tooMany, precondition: .none)) }
            throws: { Self.isTextRefusal($0, field: "labels") }
        #expect(try await store.read(featuresKey: nil).labels == ["water", "stone"])
    }

    @Test func aContentAddressThatIsAPathIsRefusedAndNoFileIsWritten() async throws {
        let (folder, store) = try await F.seededSQLite()
        let target = folder.file("escaped")
        let forged = "../../../../../../../../.." + target
        let queue = try DatabaseQueue(path: store.path)
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE photo_contents SET sha256 = ? WHERE sha256 = ?", arguments: [forged, F.photo("a1").sha256])
            try db.execute(sql: "UPDATE photos SET sha256 = ? WHERE sha256 = ?", arguments: [forged, F.photo("a1").sha256])
        }
        try await queue.close()
        await #expect(throws: StoreError.corrupt(path: "the photos of place 'a'", reason: "a photo's SHA-256 is not 64 hexadecimal digits")) {
            try await store.loadCatalog(featuresKey: nil)
        }
        let problems = try await store.check(featuresKey: nil)
        #expect(problems.contains { $0.contains("not 64 hexadecimal digits") })
        #expect(!FileManager.default.fileExists(atPath: target + ".jpg"))
        #expect(StoredPhoto.fileName(sha256: forged, name: "x.jpg").hasPrefix("invalid-"))
        #expect(!StoredPhoto.fileName(sha256: forged, name: "x.jpg").contains("/"))
    }

    @Test func theStoreIDNamesAFolderOnlyWhenItIsAUUID() async throws {
        let (folder, store) = try await F.seededSQLite()
        let queue = try DatabaseQueue(path: store.path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE store_meta SET value = '../../x' WHERE key = 'store_id'")
        }
        try await queue.close()
        await store.close()
        #expect(throws: StoreError.corrupt(path: folder.file("catalog.sqlite"), reason: "its store id is not a UUID")) {
            try SQLiteCatalogStore.open(path: folder.file("catalog.sqlite"), mode: .read)
        }
    }

    @Test func anEmptyStoreFileIsRefusedNotRefilled() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("catalog.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect { try SQLiteCatalogStore.open(path: path, create: true) } throws: { error in
            guard case .corrupt(_, let reason)? = error as? StoreError else { return false }
            return reason.contains("empty")
        }
        #expect(AtomicFile.size(of: path) == 0)
    }

    @Test func thePhotoCacheIsWrittenOnlyWithThePhotosBytesAndCheckedAgainstThem() async throws {
        let (folder, store) = try await F.seededSQLite()
        let stored = try await store.read(featuresKey: nil)
        let cache = PhotoFolder(path: folder.file("cache"))
        try await cache.materialize(stored.places, from: store)
        #expect(cache.problems(places: stored.places).isEmpty)
        // A file of the right size with other bytes is found by the check.
        let photo = stored.places[0].photos[0]
        let file = cache.file(for: photo)
        chmod(file, 0o644)
        try Data(repeating: 0x41, count: photo.byteCount).write(to: URL(fileURLWithPath: file))
        #expect(cache.problems(places: stored.places).count == 1)
        // Refilling refuses bytes that are not the photo's, and a name that is not a content address.
        #expect(throws: StoreError.self) { try cache.refill("../x.jpg", with: F.photo("a1").bytes) }
        try FileManager.default.removeItem(atPath: file)
        #expect(throws: StoreError.self) { try cache.refill(photo.fileName, with: F.photo("b1").bytes) }
        #expect(!FileManager.default.fileExists(atPath: file))
        try cache.refill(photo.fileName, with: F.photo("a1").bytes)
        #expect(cache.problems(places: stored.places).isEmpty)
    }

    @Test func clientMessagesNameNoPathOrURL() {
        let errors: [StoreError] = [
            .busy(path: "/home/someone/.local/share/glimpse/catalog.sqlite", holder: 42),
            .corrupt(path: "/home/someone/catalog.sqlite", reason: "bad page at /home/someone"),
            .io(path: "/var/lib/glimpse/catalog.sqlite", reason: "disk I/O error"),
            .photoCache(path: "/var/cache/glimpse/photos/x", reason: "No space left on device"),
            .schemaTooNew(path: "/srv/catalog.sqlite", found: 9, supported: 3),
            .unavailable(reason: "postgres://glimpse@%2Frun%2Fpostgresql/catalog: connection refused"),
            .invalidCatalog(.missingPhoto(placeID: "a", path: "/srv/photos/a.jpg")),
        ]
        for error in errors {
            let message = error.publicDescription
            #expect(!message.contains("/"), "\(message)")
            #expect(!message.contains("postgres") && !message.contains("someone"), "\(message)")
        }
    }
}
