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
        _ name: String, cluster: TestPostgres.Cluster, in directory: TemporaryDirectory, catalog: String
    ) async throws -> (ServeProcess, String) {
        let socket = directory.file("\(name).sock")
        let daemon = try ServeProcess(
            socket: socket, store: "postgres", keypointsOnly: true, catalog: catalog,
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
}
