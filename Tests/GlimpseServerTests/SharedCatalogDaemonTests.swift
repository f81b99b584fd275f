import Foundation
import GlimpseTestSupport
import GlimpseWire
import Testing

/// Several daemons on one PostgreSQL database (a real server of the test's own), through curl: an edit
/// acknowledged by one is served by the other, the database going down loses no acknowledged edit and
/// fails only edits (503), both converge once it is back, and a daemon started later without the
/// catalog folder serves the same answers.
@Suite("several daemons, one PostgreSQL catalog", .serialized)
struct SharedCatalogDaemonTests {
    /// A started daemon on the cluster's `postgres` database, keypoints only (quick to start in debug
    /// builds), with a photo cache of its own; `catalog` fills the database when it is empty.
    static func start(
        _ name: String, cluster: TestPostgres.Cluster, in directory: TemporaryDirectory, catalog: String,
        extra: [String] = []
    ) async throws -> (ServeProcess, String) {
        let socket = directory.file("\(name).sock")
        let daemon = try ServeProcess(
            socket: socket, store: "postgres", keypointsOnly: true, extra: extra, catalog: catalog,
            environment: cluster.server.environment(database: "postgres").merging(
                ["XDG_CACHE_HOME": directory.file("cache-\(name)")]) { $1 })
        let listening = await daemon.waitUntilListening(on: socket)
        try #require(listening, "\(daemon.startFailure())")
        return (daemon, socket)
    }

    /// The daemon's `GET /v1/catalog`.
    static func info(_ socket: String) async throws -> CatalogInfoJSON {
        let answer = try #require(await curl(socket, ["http://glimpse/v1/catalog"]))
        return try JSONDecoder().decode(CatalogInfoJSON.self, from: answer.body)
    }

    /// The daemon's `GET /healthz`.
    static func health(_ socket: String) async throws -> HealthJSON {
        let answer = try #require(await curl(socket, ["http://glimpse/healthz"]))
        #expect(answer.status == 200)
        return try JSONDecoder().decode(HealthJSON.self, from: answer.body)
    }

    @Test func daemonsOnOneDatabaseServeEachOthersEditsAndRideOutAnOutage() async throws {
        let cluster = try TestPostgres.startCluster()
        defer { cluster.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (a, socketA) = try await Self.start("a", cluster: cluster, in: directory, catalog: catalogDirectory)
        // B has no catalog folder: it starts from the database alone.
        let (b, socketB) = try await Self.start("b", cluster: cluster, in: directory, catalog: directory.file("none"))
        let first = try await Self.info(socketA)
        #expect(first.store == "postgres")
        #expect(try await Self.info(socketB).snapshot == first.snapshot)
        #expect(try await LiveCatalogDaemonTests.topPlace(socketB, photo: LiveCatalogDaemonTests.newPhoto) != "tower-by-the-river")

        // An edit acknowledged by A is served by B.
        let place = PlaceEditJSON(
            name: "Tower by the river", kind: "landmark", region: "France", continent: "Europe",
            labels: [], collections: [], photos: [try LiveCatalogDaemonTests.upload(LiveCatalogDaemonTests.newPhoto)])
        let created = try await LiveCatalogDaemonTests.send(
            socketA, "PUT", "/v1/places/tower-by-the-river", json: place, in: directory)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let acknowledged = try JSONDecoder().decode(EditResultJSON.self, from: created.body)
        try await poll(every: .milliseconds(50), "B serves the edit A acknowledged") {
            try await Self.info(socketB).sequence == acknowledged.sequence
        }
        #expect(try await Self.info(socketB).snapshot == acknowledged.snapshot)
        #expect(try await LiveCatalogDaemonTests.topPlace(socketB, photo: LiveCatalogDaemonTests.newPhoto) == "tower-by-the-river")

        // The database goes down: queries are answered, edits refused with 503 and Retry-After, health degraded.
        try cluster.stopServer()
        try await poll(every: .milliseconds(50), "A reports the outage") { try await Self.health(socketA).status == "degraded" }
        #expect(try await LiveCatalogDaemonTests.topPlace(socketA, photo: LiveCatalogDaemonTests.newPhoto) == "tower-by-the-river")
        #expect(try await LiveCatalogDaemonTests.topPlace(socketB, photo: LiveCatalogDaemonTests.newPhoto) == "tower-by-the-river")
        let refused = try #require(await curl(socketB, ["-X", "DELETE", "http://glimpse/v1/places/tower-by-the-river"]))
        #expect(refused.status == 503 && LiveCatalogDaemonTests.code(refused.body) == "store_unavailable")
        #expect(header("Retry-After", in: refused.head) != nil)
        let degraded = try await Self.health(socketA)
        #expect(degraded.status == "degraded" && degraded.catalogWritable == false && degraded.catalogProblem != nil)

        // It comes back: both reconnect, accept edits again and converge on one snapshot.
        try cluster.start()
        try await poll(every: .milliseconds(50), "both daemons writable again") {
            let (healthA, healthB) = (try await Self.health(socketA), try await Self.health(socketB))
            return healthA.catalogWritable == true && healthB.catalogWritable == true
        }
        let deleted = try #require(await curl(socketB, ["-X", "DELETE", "http://glimpse/v1/places/tower-by-the-river"]))
        #expect(deleted.status == 200, "\(String(decoding: deleted.body, as: UTF8.self))")
        let last = try JSONDecoder().decode(EditResultJSON.self, from: deleted.body)
        try await poll(every: .milliseconds(50), "A serves the deletion B acknowledged") {
            try await Self.info(socketA).sequence == last.sequence
        }
        #expect(try await Self.info(socketA).snapshot == last.snapshot)
        #expect(try await LiveCatalogDaemonTests.topPlace(socketA, photo: LiveCatalogDaemonTests.newPhoto) != "tower-by-the-river")

        // A third daemon, started later without the catalog folder, serves the same snapshot and answers.
        let (c, socketC) = try await Self.start("c", cluster: cluster, in: directory, catalog: directory.file("none"))
        #expect(try await Self.info(socketC).snapshot == last.snapshot)
        for photo in samplePhotos.prefix(3) {
            let expected = try await LiveCatalogDaemonTests.topPlace(socketA, photo: photo)
            #expect(try await LiveCatalogDaemonTests.topPlace(socketC, photo: photo) == expected)
        }
        for daemon in [a, b, c] { daemon.process.interrupt() }
        for daemon in [a, b, c] { _ = await daemon.waitForExit(timeout: .seconds(30)) }
    }
    /// A database that stops answering (its processes frozen: connections stay open, nothing comes
    /// back) holds no request of either daemon: an edit on each is answered within the deadlines
    /// (503 with Retry-After), both /healthz say degraded, queries are answered, and SIGTERM while a
    /// picture read from the database is in flight ends both daemons with status 0.
    @Test func aDatabaseThatStopsAnsweringHoldsNoRequestAndNoShutdown() async throws {
        let cluster = try TestPostgres.startCluster()
        defer {
            try? cluster.thawServer()
            cluster.stop()
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let grace = ["--shutdown-grace", "1"]
        let (a, socketA) = try await Self.start("a", cluster: cluster, in: directory, catalog: catalogDirectory, extra: grace)
        let (b, socketB) = try await Self.start("b", cluster: cluster, in: directory, catalog: directory.file("none"), extra: grace)
        let place = try #require(try await LiveCatalogDaemonTests.topPlace(socketB, photo: samplePhotos[0]))

        try cluster.freezeServer()
        let collection = CollectionEditJSON(name: "Frozen", summary: "written while the database hangs", places: nil)
        let started = ContinuousClock.now
        async let editA = LiveCatalogDaemonTests.send(socketA, "PUT", "/v1/collections/frozen-a", json: collection, in: directory)
        async let editB = LiveCatalogDaemonTests.send(socketB, "PUT", "/v1/collections/frozen-b", json: collection, in: directory)
        let answers = try await [editA, editB]
        let waited = ContinuousClock.now - started
        print("glimpse-shared-catalog: edits on a frozen database answered after \(waited)")
        for answer in answers {
            #expect(answer.status == 503 && LiveCatalogDaemonTests.code(answer.body) == "store_unavailable",
                    "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            #expect(header("Retry-After", in: answer.head) != nil)
        }
        // The connect timeout (10 s) or the call's deadline (10 s) bounds each; the margin is for a busy machine.
        #expect(waited < .seconds(30), "edits on a frozen database took \(waited)")
        for socket in [socketA, socketB] { #expect(try await Self.health(socket).status == "degraded") }
        #expect(try await LiveCatalogDaemonTests.topPlace(socketB, photo: samplePhotos[0]) == place)

        // SIGTERM while a picture read from the frozen database is in flight.
        async let picture = curl(socketB, ["http://glimpse/v1/entities/place/\(place)/image"])
        try await Task.sleep(for: .milliseconds(500))
        for daemon in [a, b] { kill(daemon.processIdentifier, SIGTERM) }
        for daemon in [a, b] {
            let (status, output) = await daemon.waitForExit(timeout: .seconds(30))
            #expect(status == 0, "the daemon ended with \(String(describing: status)) after SIGTERM: \(output.suffix(2000))")
        }
        _ = await picture
    }
}
