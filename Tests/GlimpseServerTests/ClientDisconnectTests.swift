import Foundation
import GlimpseServer
import NIOCore
import Testing

/// The value of the first metric line starting with `prefix` (for example
/// `glimpse_stage_duration_seconds_count{stage="decode"}`), or 0.
private func metric(_ text: String, _ prefix: String) -> Double {
    for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
        return Double(line.split(separator: " ").last ?? "") ?? 0
    }
    return 0
}

@Suite("Client disconnects", .serialized)
struct ClientDisconnectTests {
    @Test func aQueuedQueryWhoseClientLeftNeverRuns() async throws {
        let daemon = try await RunningDaemon.start(limits: ServerLimits(maxConcurrentQueries: 1, maxQueuedQueries: 4))
        let client = daemon.client
        let picture = try photoBytes(samplePhotos[0])
        let decodeCount = #"glimpse_stage_duration_seconds_count{stage="decode"}"#

        // Query A holds the only query thread.
        let first = Task {
            try await client.withConnection { try await $0.query(image: picture, limit: 3) }
        }
        let inFlight: @Sendable () async throws -> Int = {
            try await client.withConnection { try await $0.health() }.queriesInFlight
        }
        var waited = ContinuousClock.now
        while try await inFlight() < 1, ContinuousClock.now - waited < .seconds(60) {
            try await Task.sleep(for: .milliseconds(10))
        }

        // Query B waits behind it; its client sends the whole request, then goes away.
        let path = daemon.socketPath
        let body = picture
        let connection = try RawConnection(path: path)
        connection.send("POST /v1/query HTTP/1.1\r\nHost: g\r\nContent-Length: \(body.count)\r\n\r\n")
        connection.send(body)
        waited = ContinuousClock.now
        while try await inFlight() < 2, ContinuousClock.now - waited < .seconds(60) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await inFlight() == 2)
        connection.close()

        let answer = try await first.value
        #expect(!answer.results.isEmpty)
        waited = ContinuousClock.now
        while try await inFlight() > 0, ContinuousClock.now - waited < .seconds(60) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let metrics = try await client.withConnection {
            String(buffer: try await $0.send(method: .GET, target: "/metrics").body)
        }
        #expect(metric(metrics, decodeCount) == 1, "only the query whose client stayed was decoded")
        #expect(metric(metrics, #"glimpse_errors_total{kind="cancelled"}"#) == 1)
        #expect(try await inFlight() == 0)
        try await daemon.stop()
    }
}
