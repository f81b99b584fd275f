import Foundation
import GlimpseClient
import GlimpseEngine
import GlimpseServer
import GlimpseTestSupport
import Logging
import ServiceLifecycle
import Testing

/// The bundled catalog folder (its photos are what the tests send).
let bundledCatalogDirectory = repositoryRoot + "/Images"

/// A catalog of the bundled catalog's first eight places (all its collections and labels), made once
/// per test run so the daemon's start-up (indexing every photo) stays quick in debug builds.
let catalogDirectory: String = {
    let directory = (try? TemporaryDirectory(removedOnRelease: false))?.path ?? "/tmp"
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: bundledCatalogDirectory + "/catalog.json"))
        guard var file = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let places = file["places"] as? [Any]
        else { return bundledCatalogDirectory }
        file["places"] = Array(places.prefix(8))
        let small = try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
        try small.write(to: URL(fileURLWithPath: directory + "/catalog.json"))
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/photos", withDestinationPath: bundledCatalogDirectory + "/photos"
        )
        return directory
    } catch {
        return bundledCatalogDirectory
    }
}()

/// The bytes of a catalog photo by file name.
func photoBytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: bundledCatalogDirectory + "/photos/" + name)))
}

/// The photos the end-to-end tests send.
let samplePhotos = [
    "001-wooden-jetty-on-a-calm-lake.jpg",
    "002-rows-of-colorful-plastic-cups.jpg",
    "003-misty-lake-at-blue-hour.jpg",
]

/// The catalog search service, loaded once for the whole test run.
actor SharedService {
    static let shared = SharedService()
    private var loaded: CatalogSearchService?

    func get() async throws -> CatalogSearchService {
        if let loaded { return loaded }
        var configuration = EngineConfiguration(catalogDirectory: catalogDirectory)
        configuration.labelModel = .file(repositoryRoot + "/Models/labels.glimpsemodel")
        let service = CatalogSearchService(engine: try await Engine.load(configuration))
        loaded = service
        return service
    }
}

/// A daemon running in this process on a socket in a fresh temporary directory.
struct RunningDaemon {
    let server: GlimpseServer
    let directory: TemporaryDirectory
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    var socketPath: String { server.configuration.socketPath }
    var client: DaemonClient { DaemonClient(client: GlimpseClient(socketPath: socketPath)) }

    /// Starts a daemon with `limits` and `peerPolicy`, and waits until it accepts connections.
    static func start(
        // Long idle time and head and body deadlines unless a test sets its own: on a loaded machine a
        // client may take seconds between connecting and writing, `curl` sending a picture of several MB
        // to this in-process daemon has taken over the default 30 s while the rest of the suite runs, and
        // a test's task has waited over 600 s in the global executor's line between two requests.
        limits: ServerLimits = ServerLimits(
            idleTimeout: .seconds(1_800), headerTimeout: .seconds(60), requestDeadline: .seconds(300)),
        peerPolicy: PeerPolicy = PeerPolicy(),
        socketName: String = "g.sock",
        service: (any SearchService)? = nil,
        shutdownGracePeriod: Duration = .seconds(10)
    ) async throws -> RunningDaemon {
        let directory = try TemporaryDirectory()
        let chosen: any SearchService
        if let service { chosen = service } else { chosen = try await SharedService.shared.get() }
        var logger = Logger(label: "glimpse.test")
        logger.logLevel = .warning
        var configuration = GlimpseServerConfiguration(
            socketPath: directory.file(socketName), limits: limits, peerPolicy: peerPolicy,
            shutdownGracePeriod: shutdownGracePeriod
        )
        // Its own threads, as a daemon process has: on the suite's shared ones, its steps wait behind
        // the other tests' work (a query of a picture of several MB once waited over 600 s).
        configuration.taskExecutor = DedicatedExecutor.shared
        let server = try GlimpseServer(
            configuration: configuration,
            service: chosen,
            logger: logger
        )
        let group = ServiceGroup(services: [server], logger: logger)
        let task = Task { try await group.run() }
        await server.ready.wait()
        return RunningDaemon(server: server, directory: directory, group: group, task: task)
    }

    /// Shuts down gracefully, waits for the daemon to stop, and removes the directory.
    func stop() async throws {
        await beginShutdown()
        try await waitUntilStopped()
    }

    /// Starts graceful shutdown and returns without waiting for it.
    func beginShutdown() async {
        await group.triggerGracefulShutdown()
    }

    /// Waits for a shutdown begun with ``beginShutdown()`` to finish, and removes the directory.
    func waitUntilStopped() async throws {
        try await task.value
        directory.remove()
    }
}

/// The client the tests use against a ``RunningDaemon``: each connection's exchange runs on
/// ``DedicatedExecutor/clients``.
///
/// On the suite's global executor a test's task waits in line each time it resumes, behind a few hundred
/// others at the start of a parallel run (over 600 s has been seen). Between connecting and writing, or
/// between two requests on one connection, that was longer than the daemon's idle timeout, and the
/// connection was closed under the test ("I/O on closed channel"). On threads of their own the requests
/// follow each other as a real client's do.
struct DaemonClient: Sendable {
    /// The client itself.
    let client: GlimpseClient

    /// ``GlimpseClient/withConnection(_:)``, with `body` run on ``DedicatedExecutor/clients``.
    func withConnection<T: Sendable>(_ body: (GlimpseConnection) async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(DedicatedExecutor.clients) {
            try await client.withConnection(body)
        }
    }
}
