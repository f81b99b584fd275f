import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseIntents
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseWire
import Testing
import GlimpseVision

/// A live catalog on a real SQLite store: an edit is durable and seen by the next query, queries and
/// cursors keep their snapshot, a refused edit changes nothing.
@Suite(.serialized) struct LiveCatalogTests {
    /// A store seeded with the first six bundled places, and the live catalog on it (keypoints only, so
    /// debug builds stay quick).
    struct Fixture {
        let directory: TemporaryDirectory
        let storePath: String
        let live: LiveCatalog

        static func make(quiet: Duration? = nil) async throws -> Fixture {
            let directory = try TemporaryDirectory()
            let folder = directory.file("catalog")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var json = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.catalogJSON)))
                    as? [String: Any])
            json["places"] = Array(try #require(json["places"] as? [Any]).prefix(6))
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: folder + "/catalog.json"))
            try FileManager.default.createSymbolicLink(atPath: folder + "/photos", withDestinationPath: Repository.photos)
            let storePath = directory.file("catalog.sqlite")
            let live = try await open(storePath: storePath, seedFrom: folder, quiet: quiet)
            return Fixture(directory: directory, storePath: storePath, live: live)
        }

        /// Compaction only when the changes grow large, unless `quiet` is given.
        static func configuration(_ folder: String, quiet: Duration? = nil) -> EngineConfiguration {
            var configuration = EngineConfiguration(catalogDirectory: folder)
            configuration.featurePrintModel = .off
            configuration.labelModel = .off
            configuration.compactionQuietPeriod = quiet
            return configuration
        }

        static func open(storePath: String, seedFrom folder: String? = nil, quiet: Duration? = nil) async throws -> LiveCatalog {
            let store = try SQLiteCatalogStore.open(path: storePath, create: true)
            let configuration = configuration(folder ?? "/nonexistent", quiet: quiet)
            let models = try EngineModels.load(configuration)
            if let folder {
                _ = try await StoreSeeding.seed(store, from: folder, refresh: false, models: models, featureCache: nil)
            }
            return try await LiveCatalog.open(
                store: store, photoFolder: PhotoFolder(path: store.photoFolder), configuration: configuration,
                models: models)
        }
    }

    static func photo(_ index: Int) throws -> (bytes: [UInt8], picture: PixelBuffer) {
        let path = try Repository.samplePhotos()[index]
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        return (bytes, try ImageDecoder.decode(bytes, options: DecodingOptions(maxDimension: 1024)).pixelBuffer)
    }

    /// The middle 70 % of `picture`, shrunk to a 360-pixel long side: a different, smaller view.
    static func distorted(_ picture: PixelBuffer) throws -> PixelBuffer {
        let w = picture.width * 7 / 10, h = picture.height * 7 / 10
        let x0 = (picture.width - w) / 2, y0 = (picture.height - h) / 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(w * h * 3)
        for y in y0..<(y0 + h) {
            picture.withUnsafeRow(y) { row in bytes.append(contentsOf: row[(x0 * 3)..<((x0 + w) * 3)]) }
        }
        return try PixelBuffer(width: w, height: h, pixelFormat: .rgb8, bytes: bytes).downscaled(toFit: 360)
    }

    static func topPlace(_ live: LiveCatalog, _ picture: PixelBuffer) async throws -> String? {
        let page = try await live.engine.search(SemanticContentDescriptor(pixelBuffer: picture), limit: 3)
        for item in page.items { if case .place(let place) = item.result { return place.id } }
        return nil
    }

    func newPhoto(_ live: LiveCatalog, _ index: Int, name: String) throws -> NewPhoto {
        try live.newPhoto(bytes: try Self.photo(index).bytes, name: name, credit: nil, limits: DecodingLimits())
    }

    func place(_ id: String, photos: Int = 1) -> PlaceDefinition {
        PlaceDefinition(id: id, name: "Place \(id)", kind: "landmark", labels: [], collections: [], photos: [])
    }

    @Test func aCreatedPlaceIsFoundByTheNextQueryAndAfterARestart() async throws {
        let fixture = try await Fixture.make()
        let live = fixture.live
        let (_, picture) = try Self.photo(40)
        #expect(try await Self.topPlace(live, picture) == nil)
        let before = live.engine.current.snapshot.id

        let outcome = try await live.apply(.putPlace(
            place("harbour-view"), photos: [try newPhoto(live, 40, name: "photos/harbour-view.jpg")], precondition: .mustNotExist))
        #expect(outcome.applied.changed)
        #expect(outcome.snapshotID != before && outcome.snapshotID == live.engine.current.snapshot.id)
        #expect(try await Self.topPlace(live, picture) == "harbour-view")
        #expect(try await Self.topPlace(live, try Self.distorted(picture)) == "harbour-view")
        #expect(live.engine.current.matcher?.segmentCount == 2)

        // Reopened from the file alone: the edit is there, its features read rather than extracted.
        let path = fixture.storePath
        let sequence = await live.sequence
        await live.close()
        let reopened = try await Fixture.open(storePath: path)
        #expect(await reopened.sequence == sequence)
        #expect(try await Self.topPlace(reopened, picture) == "harbour-view")
        #expect(reopened.engine.current.snapshot.id == outcome.snapshotID)
    }

    @Test func onceEditsAreQuietTheMatcherIsFoldedIntoOneSegmentAndAnswersAlike() async throws {
        let fixture = try await Fixture.make(quiet: .milliseconds(50))
        let live = fixture.live
        let (_, picture) = try Self.photo(40)
        for n in 0..<3 {
            _ = try await live.apply(.putPlace(
                place("quiet-\(n)"), photos: [try newPhoto(live, 40 + n, name: "photos/quiet-\(n).jpg")],
                precondition: .none))
        }
        _ = try await live.apply(.deletePlace(id: "quiet-2", precondition: .mustExist))
        // Compaction runs on another thread once no update came for 50 ms; wait for it, boundedly.
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the matcher folded after the quiet period") {
            live.engine.current.matcher?.hasChanges != true
        }
        let matcher = try #require(live.engine.current.matcher)
        #expect(!matcher.hasChanges && matcher.segmentCount == 1)
        #expect(matcher.referenceCount == 6 + 2)
        #expect(try await Self.topPlace(live, picture) == "quiet-0")
        #expect(try await Self.topPlace(live, try Self.photo(42).picture) == nil)
    }

    @Test func aSecondViewFindsItsPlaceAndRemovingItOrThePlaceUndoesThat() async throws {
        let fixture = try await Fixture.make()
        let live = fixture.live
        let target = try #require(live.engine.catalog.places.first).id
        let (_, view) = try Self.photo(55)
        #expect(try await Self.topPlace(live, view) != target)

        let added = try await live.apply(.addPhoto(
            placeID: target, photo: try newPhoto(live, 55, name: "photos/second-view.jpg"), precondition: .none))
        #expect(added.applied.changed)
        #expect(try await Self.topPlace(live, view) == target)
        #expect(live.engine.catalog.place(id: target)?.photos.count == 2)
        // The first photo still finds it too.
        #expect(try await Self.topPlace(live, try Self.photo(0).picture) == target)

        let sha = try #require(await live.place(id: target)?.photos.last?.sha256)
        _ = try await live.apply(.removePhoto(placeID: target, sha256: sha, precondition: .none))
        #expect(try await Self.topPlace(live, view) != target)
        #expect(try await Self.topPlace(live, try Self.photo(0).picture) == target)

        _ = try await live.apply(.deletePlace(id: target, precondition: .none))
        #expect(try await Self.topPlace(live, try Self.photo(0).picture) != target)
        #expect(live.engine.catalog.place(id: target) == nil)
        await live.close()
    }

    @Test func cursorsPageTheirSnapshotUntilItIsDropped() async throws {
        let fixture = try await Fixture.make()
        let live = fixture.live
        let first = try await live.engine.search(SemanticContentDescriptor(labels: ["water", "sky"]), limit: 1)
        let cursor = try #require(first.nextCursor)
        let collection = CollectionDefinition(id: "harbours", name: "Harbours", summary: "Ports and quays.")
        _ = try await live.apply(.putCollection(collection, members: nil, precondition: .none))
        // The cursor still pages the snapshot it came from, exactly.
        let second = try live.engine.page(after: cursor, limit: 1)
        #expect(second.snapshotID == first.snapshotID && second.offset == 1)
        // Eight more catalog states push it out of the kept snapshots.
        for n in 0..<8 {
            var changed = collection
            changed.summary = "Ports and quays, take \(n)."
            _ = try await live.apply(.putCollection(changed, members: nil, precondition: .none))
        }
        #expect(throws: VisualSearchError.expiredCursor(snapshotID: first.snapshotID)) {
            try live.engine.page(after: cursor, limit: 1)
        }
        await live.close()
    }

    @Test func aRefusedEditChangesNothing() async throws {
        let fixture = try await Fixture.make()
        let live = fixture.live
        let target = try #require(live.engine.catalog.places.first)
        let revision = try #require(await live.place(id: target.id)?.revision)
        let snapshot = live.engine.current.snapshot.id
        var renamed = try #require(live.engine.catalog.definition.places.first)
        renamed.name = "Renamed"
        await #expect(throws: LiveCatalogError.store(.preconditionFailed(type: "place", id: target.id, current: revision))) {
            _ = try await live.apply(.putPlace(renamed, photos: nil, precondition: .revision(revision + 7)))
        }
        renamed.labels = ["no-such-label"]
        await #expect(throws: LiveCatalogError.self) {
            _ = try await live.apply(.putPlace(renamed, photos: nil, precondition: .none))
        }
        #expect(live.engine.current.snapshot.id == snapshot)
        #expect(live.engine.catalog.place(id: target.id)?.name == target.name)
        #expect(await live.place(id: target.id)?.revision == revision)

        // The same put twice: the second changes nothing and keeps the snapshot.
        renamed.labels = target.labels
        let applied = try await live.apply(.putPlace(renamed, photos: nil, precondition: .revision(revision)))
        #expect(applied.applied.changed && live.engine.catalog.place(id: target.id)?.name == "Renamed")
        let again = try await live.apply(.putPlace(renamed, photos: nil, precondition: .none))
        #expect(!again.applied.changed && again.snapshotID == applied.snapshotID && again.commitToVisible == nil)
        await live.close()
    }

    /// A second live catalog on the same store (read-only here; another daemon on a shared database in
    /// service) serves what the first one wrote once it catches up: place, photo, collection, label
    /// and whole-catalog edits, to the same snapshot id and the same answers.
    @Test func aSecondLiveCatalogCatchesUpWithEditsMadeByTheFirst() async throws {
        let fixture = try await Fixture.make()
        let writer = fixture.live
        let configuration = Fixture.configuration("/nonexistent")
        let reader = try await LiveCatalog.open(
            store: try SQLiteCatalogStore.open(path: fixture.storePath, mode: .read),
            photoFolder: PhotoFolder(path: fixture.directory.file("reader-photos")), configuration: configuration)
        let writerStart = await writer.sequence
        #expect(try await reader.catchUp() == writerStart)

        let (_, picture) = try Self.photo(40)
        _ = try await writer.apply(.putPlace(
            place("harbour-view"), photos: [try newPhoto(writer, 40, name: "photos/harbour-view.jpg")], precondition: .none))
        let first = try #require(writer.engine.catalog.places.first)
        _ = try await writer.apply(.addPhoto(
            placeID: first.id, photo: try newPhoto(writer, 41, name: "photos/second-view.jpg"), precondition: .none))
        _ = try await writer.apply(.putCollection(
            CollectionDefinition(id: "harbours", name: "Harbours", summary: "Ports."), members: ["harbour-view", first.id],
            precondition: .none))
        _ = try await writer.apply(.setLabels(writer.engine.catalog.labels + ["quay"], precondition: .none))
        let before = await reader.sequence
        let written = await writer.sequence
        #expect(try await reader.catchUp() == written && written > before)
        #expect(reader.engine.current.snapshot.id == writer.engine.current.snapshot.id)
        #expect(reader.engine.catalog.definition == writer.engine.catalog.definition)
        #expect(reader.engine.catalog.collection(id: "harbours")?.places == ["harbour-view", first.id].sorted {
            (writer.engine.catalog.placeOffset(id: $0) ?? 0) < (writer.engine.catalog.placeOffset(id: $1) ?? 0)
        })
        let (readerPlace, writerPlace) = (await reader.place(id: first.id), await writer.place(id: first.id))
        #expect(readerPlace?.revision == writerPlace?.revision && writerPlace?.photos.count == 2)
        let (readerLabels, writerLabels) = (await reader.labels, await writer.labels)
        #expect(readerLabels.revision == writerLabels.revision && readerLabels.labels == writerLabels.labels)
        #expect(try await Self.topPlace(reader, picture) == "harbour-view")
        #expect(try await Self.topPlace(reader, try Self.photo(41).picture) == first.id)

        // A deletion, and nothing to do when nothing changed.
        _ = try await writer.apply(.deletePlace(id: "harbour-view", precondition: .mustExist))
        try await reader.catchUp()
        let sequence = await reader.sequence
        #expect(try await reader.catchUp() == sequence)
        #expect(try await Self.topPlace(reader, picture) == nil)
        #expect(reader.engine.current.snapshot.id == writer.engine.current.snapshot.id)

        // A whole catalog replaced: served whole.
        let definition = writer.engine.catalog.definition
        var photos: [[NewPhoto]] = []
        for entry in definition.places.prefix(3) {
            let stored = try #require(await writer.place(id: entry.id)).photos
            photos.append(try stored.map { photo in
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: writer.photoFolder.file(for: photo))))
                return try writer.newPhoto(bytes: bytes, name: photo.name, credit: photo.credit, limits: DecodingLimits())
            })
        }
        let smaller = CatalogDefinition(
            labels: definition.labels, places: Array(definition.places.prefix(3)).map { place in
                var place = place
                place.collections = []
                return place
            }, collections: [])
        _ = try await writer.apply(.replaceCatalog(smaller, photos: photos, replace: true))
        try await reader.catchUp()
        #expect(reader.engine.catalog.places.map(\.id) == smaller.places.map(\.id))
        #expect(reader.engine.current.snapshot.id == writer.engine.current.snapshot.id)
        #expect(reader.engine.current.matcher?.referenceCount == writer.engine.current.matcher?.referenceCount)
        await reader.close()
        await writer.close()
    }
}
