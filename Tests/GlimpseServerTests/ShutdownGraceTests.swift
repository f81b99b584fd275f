import Foundation
import GlimpseTestSupport
import GlimpseServer
import Testing

/// Graceful shutdown and connections that have not spoken yet: a client that connected before the
/// signal still gets its first request answered; a silent one is closed when the grace runs out; a
/// connection that has already been served is closed at once.
@Suite("Shutdown grace for new connections")
struct ShutdownGraceTests {
    private static let health = "GET /healthz HTTP/1.1\r\nHost: glimpse\r\n\r\n"

    // No upper bounds on time here: on a saturated machine shutdown itself may take seconds to
    // propagate, and in the parallel suite the in-process daemon's handlers share the two cooperative
    // threads with tests that hold them for minutes (an answer was once not read within 60 s). What is
    // checked is order: with a long grace, the served connection closes while the two that have not
    // spoken stay open and are answered. The idle timeout is as long as the grace: the two stay silent
    // from their connecting to their requests, and a connection silent for the idle timeout is closed,
    // shutdown or not. At its default of 30 s it closed them in the parallel suite, where that took 42 s
    // (the first answer came after 21 s, shutdown reached the listener 19 s later).
    @Test func aConnectionAcceptedBeforeShutdownGetsItsFirstRequestAnswered() async throws {
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(
                idleTimeout: .seconds(1_200), headerTimeout: .seconds(1_200), firstRequestGrace: .seconds(900)))
        let path = daemon.socketPath
        // Read timeouts well below the grace: a connection wrongly held would time out, not close.
        let waiting = try RawConnection(path: path, readTimeout: .seconds(300))
        let late = try RawConnection(path: path, readTimeout: .seconds(300))
        let served = try RawConnection(path: path, readTimeout: .seconds(300))
        // Connections are accepted in order, so once `served` is answered the other two are accepted.
        let first = await offThread { served.send(Self.health) ? served.readResponse() : nil }
        #expect(first?.status == 200)

        await daemon.beginShutdown()
        #expect(await Self.waitUntilRefused(path: path))
        // The daemon has stopped accepting and asked every connection to quiesce.
        let servedClosed = await offThread { served.readUntilClosed() }
        #expect(servedClosed.closed && servedClosed.bytes.isEmpty, "a served idle connection is closed at once")

        for connection in [waiting, late] {
            let answer = await offThread { connection.send(Self.health) ? connection.readResponse() : nil }
            #expect(answer?.status == 200, "the first request on a connection accepted before shutdown is answered")
            #expect(await offThread { connection.readUntilClosed().closed }, "and the connection is closed after it")
        }
        try await daemon.waitUntilStopped()
    }

    @Test func aSilentConnectionIsClosedWhenTheGraceRunsOut() async throws {
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(headerTimeout: .seconds(300), firstRequestGrace: .seconds(2)))
        // Read timeouts that only bound a hang: the shutdown starts on a cooperative thread, which the
        // rest of a suite on 2 busy cores has kept from it for over two minutes (CI saw this read time
        // out at 120 s, the connection still open).
        let silent = try RawConnection(path: daemon.socketPath, readTimeout: .seconds(600))
        let served = try RawConnection(path: daemon.socketPath, readTimeout: .seconds(600))
        // Answered, so the silent connection (accepted first) is accepted too.
        #expect(await offThread { served.send(Self.health) ? served.readResponse() : nil }?.status == 200)
        let begun = ContinuousClock.now
        await daemon.beginShutdown()
        let closed = await offThread { silent.readUntilClosed() }
        #expect(closed.closed && closed.bytes.isEmpty)
        #expect(ContinuousClock.now - begun >= .milliseconds(1_900), "a silent connection is kept for the grace")
        try await daemon.waitUntilStopped()
    }

    @Test func zeroGraceClosesConnectionsThatHaveNotSpoken() async throws {
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(headerTimeout: .seconds(300), firstRequestGrace: .zero))
        let path = daemon.socketPath
        let waiting = try RawConnection(path: path, readTimeout: .seconds(600))
        let served = try RawConnection(path: path, readTimeout: .seconds(600))
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

    /// Polls until connecting to `path` fails (the listener has closed); false after 90 s. (Only a
    /// guard against hanging: with the test process's threads saturated, shutdown has taken over 10 s
    /// to reach the listener.)
    private static func waitUntilRefused(path: String) async -> Bool {
        await eventually(every: .milliseconds(20), upTo: .seconds(90)) { (try? RawConnection(path: path)) == nil }
    }
}
