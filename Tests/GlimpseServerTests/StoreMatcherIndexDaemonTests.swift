import Foundation
import GlimpseTestSupport
import GlimpseWire
import Testing

/// Real daemons on a catalog store (SQLite, and a PostgreSQL server of the test's own) with
/// `--matcher-index`, through curl: the first start builds and saves the index, an edit is saved once
/// edits settle, the next start loads it and builds nothing, and edits another daemon made meanwhile are
/// caught up at start.
@Suite("a daemon on a catalog store keeps a matcher index", .serialized)
struct StoreMatcherIndexDaemonTests {
    /// A started keypoints-only daemon on `store` (`nil`: the SQLite file in `directory`), with `extra`
    /// options; the daemons of a test run one after another on one cache folder, as one daemon restarted would.
    static func start(
        _ name: String, store: String?, environment: [String: String], in directory: TemporaryDirectory,
        extra: [String]
    ) async throws -> (ServeProcess, String) {
        let socket = directory.file("\(name).sock")
        let daemon = try ServeProcess(
            socket: socket, store: store ?? directory.file("catalog.sqlite"), keypointsOnly: true, extra: extra,
            catalog: catalogDirectory, environment: environment.merging(["XDG_CACHE_HOME": directory.file("cache")]) { $1 })
        let listening = await daemon.waitUntilListening(on: socket)
        try #require(listening, "\(daemon.startFailure())")
        return (daemon, socket)
    }

    /// Stops `daemon` and returns what it logged.
    static func stop(_ daemon: ServeProcess) async -> String {
        daemon.process.interrupt()
        let (status, log) = await daemon.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "\(log.suffix(2000))")
        return log
    }

    /// The index file's modification time and inode: a save replaces the file, so either changes.
    static func version(of path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return "\(attributes[.systemFileNumber] ?? "")/\(attributes[.modificationDate] ?? "")"
    }

    @Test(arguments: ["sqlite", "postgres"])
    func theIndexIsSavedLoadedAndCaughtUp(store kind: String) async throws {
        var cluster: TestPostgres.Cluster?
        if kind == "postgres" { cluster = try TestPostgres.startCluster() }
        defer { cluster?.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = cluster == nil ? nil : "postgres"
        let environment = cluster?.server.environment(database: "postgres") ?? [:]
        let index = directory.file("matcher.index")
        let indexed = ["--matcher-index", index]
        let tower = LiveCatalogDaemonTests.newPhoto

        // The first daemon builds the matcher and saves the index; an edit is saved again once it settles.
        let (a, socketA) = try await Self.start("a", store: store, environment: environment, in: directory, extra: indexed)
        try await poll(every: .milliseconds(50), upTo: .seconds(120), "the first save") { Self.version(of: index) != nil }
        let first = Self.version(of: index)
        let place = PlaceEditJSON(
            name: "Tower by the river", kind: "landmark", region: "France", continent: "Europe",
            labels: [], collections: [], photos: [try LiveCatalogDaemonTests.upload(tower)])
        let created = try await LiveCatalogDaemonTests.send(socketA, "PUT", "/v1/places/tower-by-the-river", json: place, in: directory)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        try await poll(every: .milliseconds(50), upTo: .seconds(120), "the save after the edit") { Self.version(of: index) != first }
        #expect(try await LiveCatalogDaemonTests.topPlace(socketA, photo: tower) == "tower-by-the-river")
        let logA = await Self.stop(a)
        #expect(logA.contains("shortlist index") && logA.contains("saving the matcher index"), "\(logA.suffix(2000))")

        // The next daemon loads it, builds nothing, and serves the edit.
        let (b, socketB) = try await Self.start("b", store: store, environment: environment, in: directory, extra: indexed)
        #expect(try await LiveCatalogDaemonTests.topPlace(socketB, photo: tower) == "tower-by-the-river")
        let logB = await Self.stop(b)
        #expect(logB.contains("loading the matcher index") && !logB.contains("shortlist index")
                && !logB.contains("photos changed since the matcher index"), "\(logB.suffix(2000))")

        // A daemon without the index deletes the place; the next indexed start catches that up.
        let (c, socketC) = try await Self.start("c", store: store, environment: environment, in: directory, extra: [])
        let deleted = try #require(await curl(socketC, ["-X", "DELETE", "http://glimpse/v1/places/tower-by-the-river"]))
        #expect(deleted.status == 200, "\(String(decoding: deleted.body, as: UTF8.self))")
        var expected: [String?] = []
        for photo in samplePhotos.prefix(4) + [tower] { expected.append(try await LiveCatalogDaemonTests.topPlace(socketC, photo: photo)) }
        _ = await Self.stop(c)
        let beforeD = Self.version(of: index)
        let (d, socketD) = try await Self.start("d", store: store, environment: environment, in: directory, extra: indexed)
        var answers: [String?] = []
        for photo in samplePhotos.prefix(4) + [tower] { answers.append(try await LiveCatalogDaemonTests.topPlace(socketD, photo: photo)) }
        #expect(answers == expected && answers.last == .some(nil) && answers.first != .some(nil))
        try await poll(every: .milliseconds(50), upTo: .seconds(120), "the save after catching up") { Self.version(of: index) != beforeD }
        let logD = await Self.stop(d)
        #expect(logD.contains("loading the matcher index") && logD.contains("photos changed since the matcher index")
                && !logD.contains("shortlist index"), "\(logD.suffix(2000))")
    }
}
