import Foundation
import GlimpseServer
import Testing

/// Graceful shutdown and connections that have not spoken yet: a client that connected before the
/// signal still gets its first request answered; a silent one is closed when the grace runs out; a
/// connection that has already been served is closed at once.
@Suite("Shutdown grace for new connections")
struct ShutdownGraceTests {
    private static let health = "GET /healthz HTTP/1.1\r\nHost: glimpse\r\n\r\n"

    @Test func aConnectionAcceptedBeforeShutdownGetsItsFirstRequestAnswered() async throws {
        let daemon = try await RunningDaemon.start(limits: ServerLimits(firstRequestGrace: .seconds(3)))
        let path = daemon.socketPath
        let waiting = try RawConnection(path: path, readTimeout: .seconds(20))
        let silent = try RawConnection(path: path, readTimeout: .seconds(20))
        let served = try RawConnection(path: path, readTimeout: .seconds(20))
        // Connections are accepted in order, so once `served` is answered the other two are accepted.
        let first = await offThread { served.send(Self.health) ? served.readResponse() : nil }
        #expect(first?.status == 200)

        let begun = ContinuousClock.now
        await daemon.beginShutdown()
        #expect(await Self.waitUntilRefused(path: path))
        // The daemon has stopped accepting and asked every connection to quiesce.
        let servedClosed = await offThread { served.readUntilClosed() }
        let servedClosedAfter = ContinuousClock.now - begun
        #expect(servedClosed.closed && servedClosed.bytes.isEmpty)
        #expect(servedClosedAfter < .seconds(2), "a served idle connection is closed at once, not after the grace")

        let answer = await offThread { waiting.send(Self.health) ? waiting.readResponse() : nil }
        #expect(answer?.status == 200, "the first request on a connection accepted before shutdown is answered")
        #expect(await offThread { waiting.readUntilClosed().closed }, "and the connection is closed after it")

        let silentClosed = await offThread { silent.readUntilClosed() }
        let silentClosedAfter = ContinuousClock.now - begun
        #expect(silentClosed.closed && silentClosed.bytes.isEmpty)
        #expect(silentClosedAfter >= .milliseconds(2_900), "a silent connection is kept for the grace")
        #expect(silentClosedAfter < .seconds(10))
        try await daemon.waitUntilStopped()
    }

    @Test func zeroGraceClosesConnectionsThatHaveNotSpoken() async throws {
        let daemon = try await RunningDaemon.start(limits: ServerLimits(firstRequestGrace: .zero))
        let path = daemon.socketPath
        let waiting = try RawConnection(path: path, readTimeout: .seconds(20))
        let served = try RawConnection(path: path, readTimeout: .seconds(20))
        #expect(await offThread { served.send(Self.health) ? served.readResponse() : nil }?.status == 200)
        await daemon.beginShutdown()
        #expect(await Self.waitUntilRefused(path: path))
        let closed = await offThread { waiting.readUntilClosed() }
        #expect(closed.closed && closed.bytes.isEmpty)
        try await daemon.waitUntilStopped()
    }

    @Test func aNegativeGraceIsRefused() {
        #expect(throws: GlimpseServerError.self) {
            try ServerLimits(firstRequestGrace: .seconds(-1)).validate()
        }
    }

    /// Polls until connecting to `path` fails (the listener has closed); false after 10 s.
    private static func waitUntilRefused(path: String) async -> Bool {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(10) {
            if (try? RawConnection(path: path)) == nil { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
