import Foundation
import GlimpseTestSupport
import GlimpseWire
import Testing

/// Hostile edits through the real daemon and curl: each is refused with a clear 4xx that names no path
/// of the daemon's host, leaves no photo behind, and the daemon keeps taking edits and restarts.
@Suite("hostile edits, through the daemon", .serialized)
struct HostileEditDaemonTests {
    typealias Live = LiveCatalogDaemonTests

    static func message(_ body: Data) -> String {
        (try? JSONDecoder().decode(ErrorEnvelope.self, from: body))?.error.message ?? String(decoding: body, as: UTF8.self)
    }

    @Test func aNULEditIsRefusedTheNextEditAppliesAndTheDaemonRestarts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var (daemon, socket) = try await Live.start(in: directory)
        let photosFolder = directory.file("catalog.sqlite.photos")
        let filesBefore = Set(try FileManager.default.contentsOfDirectory(atPath: photosFolder))

        for (path, body) in [
            ("/v1/collections/nul", try JSONEncoder().encode(CollectionEditJSON(name: "\u{0}", summary: "x"))),
            ("/v1/places/nul", try JSONEncoder().encode(PlaceEditJSON(
                name: "Nul\u{0}", kind: "landmark", labels: [], collections: [], photos: [try Live.upload(Live.newPhoto)]))),
            ("/v1/places/many-labels", try JSONEncoder().encode(PlaceEditJSON(
                name: "Many", kind: "landmark", labels: Array(repeating: "sky", count: 100_000), collections: [],
                photos: [try Live.upload(Live.newPhoto)]))),
        ] {
            let file = try directory.write("body-\(UUID().uuidString).json", Array(body))
            let refused = try #require(await curl(socket, [
                "-X", "PUT", "-H", "Content-Type: application/json", "--data-binary", "@" + file, "http://glimpse" + path,
            ]))
            #expect(refused.status == 422 && Live.code(refused.body) == "invalid_edit", "\(path): \(Self.message(refused.body))")
            #expect(!Self.message(refused.body).contains(directory.path))
        }
        var photoName = try Live.upload(Live.newPhoto)
        photoName.name = "photos/\u{202E}gpj.exe"
        let badName = try await Live.send(
            socket, "PUT", "/v1/places/bad-name",
            json: PlaceEditJSON(name: "Bad name", kind: "landmark", labels: [], collections: [], photos: [photoName]),
            in: directory)
        #expect(badName.status == 422, "\(Self.message(badName.body))")
        // A JPEG declaring 65,535 × 1 pixels is 413 on an edit route as on the query route, before decoding.
        let hugeJPEG: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xFF, 0xFF, 0x00, 0x01, 0x03,
                                 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
        let huge = try await Live.send(
            socket, "PUT", "/v1/places/huge",
            json: PlaceEditJSON(name: "Huge", kind: "landmark", labels: [], collections: [],
                                photos: [PhotoUploadJSON(data: Data(hugeJPEG).base64EncodedString())]),
            in: directory)
        #expect(huge.status == 413 && Live.code(huge.body) == "image_too_large", "\(Self.message(huge.body))")
        // A refused edit leaves no photo in the store's folder.
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: photosFolder)) == filesBefore)

        let badJSON = try #require(await curl(socket, [
            "-X", "PUT", "-H", "Content-Type: application/json", "--data-binary", "{\"name\": 3}",
            "http://glimpse/v1/places/broken",
        ]))
        let said = Self.message(badJSON.body)
        #expect(badJSON.status == 400 && !said.contains("DecodingError") && !said.contains("Debug") && said.contains(".name"), "\(said)")

        let created = try await Live.send(
            socket, "PUT", "/v1/places/after-the-nul",
            json: PlaceEditJSON(name: "After the NUL", kind: "landmark", labels: ["sky"], collections: [],
                                photos: [try Live.upload(Live.newPhoto)]),
            in: directory)
        #expect(created.status == 201, "\(Self.message(created.body))")
        let health = try #require(await curl(socket, ["http://glimpse/healthz"]))
        #expect(String(decoding: health.body, as: UTF8.self).contains("\"ok\""))

        daemon.process.terminate()
        _ = await daemon.waitForExit(timeout: .seconds(120))
        (daemon, socket) = try await Live.start(in: directory)
        #expect(try #require(await curl(socket, ["http://glimpse/v1/places/after-the-nul"])).status == 200)
        // The picture is read from the store, whatever the cache holds.
        let picture = try #require(await curl(socket, ["http://glimpse/v1/entities/place/after-the-nul/image"]))
        let sent = try photoBytes(Live.newPhoto)
        #expect(picture.status == 200 && Array(picture.body) == sent)
        daemon.process.terminate()
        _ = await daemon.waitForExit(timeout: .seconds(120))
    }
}
