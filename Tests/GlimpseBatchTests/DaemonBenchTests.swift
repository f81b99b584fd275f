import Foundation
import GlimpseClient
import GlimpseServer
import GlimpseTestSupport
import Logging
import ServiceLifecycle
import Testing

@testable import GlimpseBatch
@testable import GlimpseBench

@Suite struct DaemonBenchTests {
    @Test func aShortSessionAgainstARunningDaemonCountsRoundTripsAndItsJSONHasTheExpectedKeys() async throws {
        let matcher = try smallMatcher.get()
        let directory = try TemporaryDirectory()
        var logger = Logger(label: "glimpse.bench.test")
        logger.logLevel = .warning
        // The daemon and the bench's clients on threads of their own, and a long idle time: on the suite's
        // global executor their steps wait in line, once longer than the 30 s idle timeout between two
        // requests of one connection (see DedicatedExecutor).
        var configuration = GlimpseServerConfiguration(
            socketPath: directory.path + "/g.sock", limits: ServerLimits(idleTimeout: .seconds(1_800)))
        configuration.taskExecutor = DedicatedExecutor.shared
        let server = try GlimpseServer(
            configuration: configuration,
            service: CatalogSearchService(engine: matcher.engine),
            logger: logger)
        let group = ServiceGroup(services: [server], logger: logger)
        let running = Task { try await group.run() }
        await server.ready.wait()

        let pictures = try Repository.samplePhotos().prefix(2).map { try FileReader().read($0) }
        let bench = DaemonBench(socketPath: server.configuration.socketPath, concurrency: [1, 3],
                                duration: .seconds(2), limit: 3)
        var report = BenchReport(mode: "daemon")
        report.daemon = try await withTaskExecutorPreference(DedicatedExecutor.clients) {
            try await bench.run(pictures: pictures)
        }
        await group.triggerGracefulShutdown()
        try await running.value

        let rows = try #require(report.daemon)
        #expect(rows.map(\.concurrency) == [1, 3])
        for row in rows {
            #expect(row.latency.count > 0)
            #expect(row.latency.errors == 0)
            #expect(row.seconds >= 2)
            #expect(row.latency.perSecond > 0)
        }
        let object = try #require(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect(object["mode"] as? String == "daemon")
        let first = try #require((object["daemon"] as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["concurrency", "seconds", "latency"])
        #expect(report.table().contains("concurrency"))
    }

    @Test func noDaemonAtThePathIsAClearError() async throws {
        let directory = try TemporaryDirectory()
        let bench = DaemonBench(socketPath: directory.path + "/nobody.sock", concurrency: [1], duration: .seconds(1))
        await #expect(throws: GlimpseClientError.self) { try await bench.run(pictures: [[0xFF, 0xD8]]) }
    }
}
