import Foundation
import GlimpseTestSupport
import GlimpseServer
import Testing

/// Connections that arrive while the daemon stops listening: none may crash it.
@Suite("Connections arriving at shutdown")
struct ConnectionsAtShutdownTests {
    @Test func connectionsOpenedWhileTheListenerClosesNeverCrashTheDaemon() async throws {
        // A connection accepted just as the listener closes used to be dropped between its set-up and
        // the server, which traps the process. Clients connect as fast as they can through the shutdown.
        for _ in 0..<12 {
            let daemon = try await RunningDaemon.start(limits: ServerLimits(firstRequestGrace: .milliseconds(200)))
            let path = daemon.socketPath
            let opened = SharedCount()
            // Connects until the listener refuses (bounded at 90 s, a guard against hanging only).
            let connecting = Task.detached {
                await offThread {
                    var held: [RawConnection] = []
                    let start = ContinuousClock.now
                    while ContinuousClock.now - start < .seconds(90) {
                        guard let connection = try? RawConnection(path: path) else { return true }
                        opened.increment()
                        held.append(connection)
                        if held.count > 16 { held.removeFirst() }
                    }
                    return false
                }
            }
            // Shut down once connections are flowing, however late the connecting thread starts.
            _ = await eventually(every: .milliseconds(5), upTo: .seconds(90)) { opened.value >= 8 }
            await daemon.beginShutdown()
            #expect(await connecting.value, "the listener closed while a client kept connecting")
            #expect(opened.value >= 8)
            try await daemon.waitUntilStopped()
        }
    }
}
