import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseWire
import GRDB
import Testing

/// A live catalog meeting edits and rows it must not take: nothing is left behind by a refused edit, a
/// NUL never wedges it, and a stored row it cannot serve leaves it on the last good state, saying so.
@Suite(.serialized) struct LiveCatalogHostileTests {
    typealias Fixture = LiveCatalogTests.Fixture

    static func files(in folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    @Test func aRefusedEditLeavesNoPhotoFileBehind() async throws {
        let fixture = try await Fixture.make()
        let live = fixture.live
        let folder = live.photoFolder.path
        let before = Self.files(in: folder)
        let target = try #require(live.engine.catalog.places.first)
        let revision = try #require(await live.place(id: target.id)?.revision)
        let photo = try live.newPhoto(bytes: try LiveCatalogTests.photo(41).bytes, name: "photos/refused.jpg", credit: nil,
                                      limits: .init())
        await #expect(throws: LiveCatalogError.store(.preconditionFailed(type: "place", id: target.id, current: revision))) {
            _ = try await live.apply(.addPhoto(placeID: target.id, photo: photo, precondition: .revision(revision + 1)))
        }
        var unknownLabel = LiveCatalogTests().place("refused")
        unknownLabel.labels = ["no-such-label"]
        await #expect(throws: LiveCatalogError.self) {
            _ = try await live.apply(.putPlace(unknownLabel, photos: [photo], precondition: .none))
        }
        #expect(Self.files(in: folder) == before)

        _ = try await live.apply(.addPhoto(placeID: target.id, photo: photo, precondition: .revision(revision)))
        #expect(Self.files(in: folder) == before.union([photo.sha256 + ".jpg"]))
        await live.close()
    }

    @Test func aNULEditIsRefusedTheNextEditAppliesAndTheStoreReopens() async throws {
        let fixture = try await Fixture.make()
        let live = fixture.live
        var place = try #require(live.engine.catalog.definition.places.first)
        let name = place.name
        place.name = "\u{0}"
        await #expect(throws: LiveCatalogError.self) { _ = try await live.apply(.putPlace(place, photos: nil, precondition: .none)) }
        #expect(await live.healthProblem == nil)
        place.name = name + " again"
        let applied = try await live.apply(.putPlace(place, photos: nil, precondition: .none))
        #expect(applied.applied.changed && live.engine.catalog.place(id: place.id)?.name == name + " again")
        await live.close()
        let reopened = try await Fixture.open(storePath: fixture.storePath)
        #expect(reopened.engine.catalog.place(id: place.id)?.name == name + " again")
        await reopened.close()
    }

    @Test func aStoredRowThatCannotBeServedKeepsTheLastGoodStateAndIsReported() async throws {
        let fixture = try await Fixture.make()
        let writer = fixture.live
        let reader = try await LiveCatalog.open(
            store: try SQLiteCatalogStore.open(path: fixture.storePath, mode: .read),
            photoFolder: PhotoFolder(path: fixture.directory.file("reader-photos")),
            configuration: Fixture.configuration("/nonexistent"))
        let good = reader.engine.current.snapshot.id
        let target = try #require(writer.engine.catalog.places.first)
        // A row written behind the daemons' backs that does not decode, logged as the next change.
        let queue = try DatabaseQueue(path: fixture.storePath)
        let original = try await queue.read { db in
            try String.fetchOne(db, sql: "SELECT fields FROM places WHERE id = ?", arguments: [target.id])
        }
        try await Self.logChange(queue, place: target.id, fields: "not json")
        await #expect(throws: LiveCatalogError.self) { _ = try await reader.catchUp() }
        let problem = try #require(await reader.healthProblem)
        #expect(!problem.contains("/") && problem.contains("cannot serve"))
        #expect(reader.engine.current.snapshot.id == good)
        #expect(reader.engine.catalog.place(id: target.id)?.name == target.name)

        // Once the row is mended, the next catch-up serves it and the problem is gone.
        try await Self.logChange(queue, place: target.id, fields: try #require(original))
        try await queue.close()
        _ = try await reader.catchUp()
        #expect(await reader.healthProblem == nil)
        #expect(reader.engine.current.snapshot.id != good)
        #expect(reader.engine.catalog.place(id: target.id)?.name == target.name)
        await reader.close()
        await writer.close()
    }

    /// Writes `fields` into place `place`'s row as the store's next change, as a hand-made SQL edit would.
    static func logChange(_ queue: DatabaseQueue, place: String, fields: String) async throws {
        try await queue.write { db in
            let next = (try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM store_meta WHERE key = 'sequence'") ?? 0) + 1
            try db.execute(sql: "UPDATE places SET fields = ?, revision = ? WHERE id = ?", arguments: [fields, next, place])
            try db.execute(sql: "INSERT INTO changes (sequence, at_ms, kind, entity_type, entity_id) VALUES (?, 0, 'put', 'place', ?)",
                           arguments: [next, place])
            try db.execute(sql: "UPDATE store_meta SET value = ? WHERE key = 'sequence'", arguments: ["\(next)"])
        }
    }
}
