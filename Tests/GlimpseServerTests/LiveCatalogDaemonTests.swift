import Foundation
import GlimpseTestSupport
import GlimpseWire
import Testing

/// The live catalog through the real daemon and curl: an acknowledged edit is seen by the next query,
/// preconditions and refusals answer clear 4xx, edits survive a restart, and only admins may edit.
@Suite("live catalog, through the daemon", .serialized)
struct LiveCatalogDaemonTests {
    /// A bundled photo of a place that is not in the daemon tests' eight-place catalog.
    static let newPhoto = "040-eiffel-tower.jpg"
    /// Another one, sent as a second view.
    static let secondView = "060-taj-mahal.jpg"

    /// A started daemon on a store in `directory`.
    static func start(in directory: TemporaryDirectory, extra: [String] = []) async throws -> (ServeProcess, String) {
        let socket = directory.file("g.sock")
        let daemon = try ServeProcess(socket: socket, store: directory.file("catalog.sqlite"), extra: extra)
        let listening = await daemon.waitUntilListening(on: socket)
        try #require(listening, "\(daemon.startFailure())")
        return (daemon, socket)
    }

    /// The id of the first place in a query answer for the bundled photo `name`, or `nil`.
    static func topPlace(_ socket: String, photo name: String) async throws -> String? {
        let answer = try #require(await curl(socket, [
            "-H", "Content-Type: image/jpeg", "--data-binary", "@" + bundledCatalogDirectory + "/photos/" + name,
            "http://glimpse/v1/query?limit=3",
        ]))
        #expect(answer.status == 200)
        let page = try JSONDecoder().decode(QueryResponseJSON.self, from: answer.body)
        return page.results.first { $0.type == "place" }?.entity.id
    }

    /// `PUT`s or `POST`s `body` as JSON (written to a file, as a client would send a large one).
    static func send(
        _ socket: String, _ method: String, _ path: String, json body: some Encodable, headers: [String] = [],
        in directory: TemporaryDirectory
    ) async throws -> (status: Int, head: String, body: Data) {
        let file = try directory.write("body-\(UUID().uuidString).json", Array(try JSONEncoder().encode(body)))
        return try #require(await curl(socket, [
            "-X", method, "-H", "Content-Type: application/json", "--data-binary", "@" + file,
        ] + headers.flatMap { ["-H", $0] } + ["http://glimpse" + path]))
    }

    static func upload(_ name: String) throws -> PhotoUploadJSON {
        PhotoUploadJSON(
            data: Data(try photoBytes(name)).base64EncodedString(), name: "photos/" + name,
            credit: PhotoCredit(author: "Test", license: "CC0-1.0", source: "Images/photos"))
    }

    static func code(_ body: Data) -> String? {
        (try? JSONDecoder().decode(ErrorEnvelope.self, from: body))?.error.code
    }

    @Test func editsAreSeenByTheNextQueryAndSurviveARestart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var (daemon, socket) = try await Self.start(in: directory)
        #expect(try await Self.topPlace(socket, photo: Self.newPhoto) != "tower-by-the-river")

        // Create a place from a new photo: 201, its revision as ETag, and the next query finds it.
        let place = PlaceEditJSON(
            name: "Tower by the river", kind: "landmark", region: "France", continent: "Europe",
            labels: ["tower", "sky"], collections: [], photos: [try Self.upload(Self.newPhoto)])
        let created = try await Self.send(socket, "PUT", "/v1/places/tower-by-the-river", json: place, in: directory)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let result = try JSONDecoder().decode(EditResultJSON.self, from: created.body)
        let revision = try #require(result.place?.revision)
        #expect(header("ETag", in: created.head) == "\"\(revision)\"")
        #expect(result.changed && result.place?.photos.count == 1)
        #expect(try await Self.topPlace(socket, photo: Self.newPhoto) == "tower-by-the-river")

        let stored = try #require(await curl(socket, ["http://glimpse/v1/places/tower-by-the-river"]))
        #expect(stored.status == 200 && header("ETag", in: stored.head) == "\"\(revision)\"")

        // Preconditions: a stale revision, and create-only on an existing id.
        let stale = try await Self.send(
            socket, "PUT", "/v1/places/tower-by-the-river", json: place, headers: ["If-Match: \"\(revision - 1)\""],
            in: directory)
        #expect(stale.status == 412 && Self.code(stale.body) == "precondition_failed")
        let createOnly = try await Self.send(
            socket, "PUT", "/v1/places/tower-by-the-river", json: place, headers: ["If-None-Match: *"], in: directory)
        #expect(createOnly.status == 412)

        // A second view: a photo that matches only it now finds the place.
        let viewBefore = try await Self.topPlace(socket, photo: Self.secondView)
        #expect(viewBefore != "tower-by-the-river")
        let added = try #require(await curl(socket, [
            "-H", "Content-Type: image/jpeg", "-H", "If-Match: \"\(revision)\"",
            "--data-binary", "@" + bundledCatalogDirectory + "/photos/" + Self.secondView,
            "http://glimpse/v1/places/tower-by-the-river/photos",
        ]))
        #expect(added.status == 200, "\(String(decoding: added.body, as: UTF8.self))")
        #expect(try await Self.topPlace(socket, photo: Self.secondView) == "tower-by-the-river")

        // Clear refusals, each changing nothing.
        let missing = try #require(await curl(socket, ["-X", "DELETE", "http://glimpse/v1/places/no-such-place"]))
        #expect(missing.status == 404 && Self.code(missing.body) == "no_such_entity")
        let dangling = try await Self.send(
            socket, "PUT", "/v1/collections/harbours",
            json: CollectionEditJSON(name: "Harbours", summary: "Ports.", places: ["no-such-place"]), in: directory)
        #expect(dangling.status == 409 && Self.code(dangling.body) == "edit_conflict")
        let badJSON = try #require(await curl(socket, [
            "-X", "PUT", "-H", "Content-Type: application/json", "--data-binary", "{\"name\": 3}",
            "http://glimpse/v1/places/broken",
        ]))
        #expect(badJSON.status == 400 && Self.code(badJSON.body) == "bad_json")
        var notAPhoto = place
        notAPhoto.photos = [PhotoUploadJSON(data: Data("not a picture".utf8).base64EncodedString())]
        let refused = try await Self.send(socket, "PUT", "/v1/places/not-a-photo", json: notAPhoto, in: directory)
        #expect(refused.status == 415 && Self.code(refused.body) == "unsupported_image_format")
        let badID = try await Self.send(socket, "PUT", "/v1/places/Not%20Kebab", json: place, in: directory)
        #expect(badID.status == 422 && Self.code(badID.body) == "invalid_edit")
        let collection = try await Self.send(
            socket, "PUT", "/v1/collections/harbours",
            json: CollectionEditJSON(name: "Harbours", summary: "Ports.", places: ["tower-by-the-river"]), in: directory)
        #expect(collection.status == 201)

        // Delete: the next query no longer finds it.
        let deleted = try #require(await curl(socket, ["-X", "DELETE", "http://glimpse/v1/places/tower-by-the-river"]))
        #expect(deleted.status == 200)
        #expect(try await Self.topPlace(socket, photo: Self.newPhoto) != "tower-by-the-river")

        let metrics = try #require(await curl(socket, ["http://glimpse/metrics"]))
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(text.contains("glimpse_catalog_edits_total{kind=\"put_place\",outcome=\"applied\"}"))
        #expect(text.contains("glimpse_catalog_edit_visible_seconds"))
        #expect(text.contains("glimpse_catalog_places 8"))
        // The print line measured for the catalog served, with the null prints it was set on.
        #expect(text.contains("glimpse_print_line ") && text.contains("glimpse_print_look_alike_places "))
        #expect(text.contains("glimpse_print_nulls{use=\"left_out\"} 0"))

        // A restart serves exactly the acknowledged state.
        daemon.process.terminate()
        _ = await daemon.waitForExit(timeout: .seconds(120))
        (daemon, socket) = try await Self.start(in: directory)
        let gone = try #require(await curl(socket, ["http://glimpse/v1/places/tower-by-the-river"]))
        #expect(gone.status == 404)
        let kept = try #require(await curl(socket, ["http://glimpse/v1/collections/harbours"]))
        #expect(kept.status == 200)
        let info = try JSONDecoder().decode(
            CatalogInfoJSON.self, from: try #require(await curl(socket, ["http://glimpse/v1/catalog"])).body)
        #expect(info.store == "sqlite" && info.places == 8 && info.collections > 0)
        let line = try #require(info.printLine)
        #expect(line.nulls == 630 && line.nullsLeftOut == 0 && line.evidence.isFinite)
        daemon.process.terminate()
        _ = await daemon.waitForExit(timeout: .seconds(120))
    }

    @Test func onlyAdminsMayEditAndAReadOnlyDaemonRefusesEveryEdit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let body = CollectionEditJSON(name: "Harbours", summary: "Ports.")
        var (daemon, socket) = try await Self.start(in: directory, extra: ["--read-only"])
        let readOnly = try await Self.send(socket, "PUT", "/v1/collections/harbours", json: body, in: directory)
        #expect(readOnly.status == 403 && Self.code(readOnly.body) == "read_only")
        #expect(try #require(await curl(socket, ["http://glimpse/v1/collections/waterside"])).status == 200)
        daemon.process.terminate()
        _ = await daemon.waitForExit(timeout: .seconds(120))

        // This process's user is not the one admin named.
        (daemon, socket) = try await Self.start(in: directory, extra: ["--admin-uid", String(getuid() &+ 4242)])
        let notAdmin = try await Self.send(socket, "PUT", "/v1/collections/harbours", json: body, in: directory)
        #expect(notAdmin.status == 403 && Self.code(notAdmin.body) == "not_an_admin")
        daemon.process.terminate()
        _ = await daemon.waitForExit(timeout: .seconds(120))

        // Named by group instead, it may.
        (daemon, socket) = try await Self.start(in: directory, extra: ["--admin-gid", String(getgid())])
        let admin = try await Self.send(socket, "PUT", "/v1/collections/harbours", json: body, in: directory)
        #expect(admin.status == 201)
        daemon.process.terminate()
        _ = await daemon.waitForExit(timeout: .seconds(120))
    }
}
