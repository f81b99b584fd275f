import Foundation
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
            let connecting = Task.detached {
                await offThread {
                    var opened = 0
                    var held: [RawConnection] = []
                    let start = ContinuousClock.now
                    while ContinuousClock.now - start < .seconds(3) {
                        guard let connection = try? RawConnection(path: path) else { break }
                        opened += 1
                        held.append(connection)
                        if held.count > 16 { held.removeFirst() }
                    }
                    return opened
                }
            }
            try? await Task.sleep(for: .milliseconds(30))
            await daemon.beginShutdown()
            let opened = await connecting.value
            #expect(opened > 0)
            try await daemon.waitUntilStopped()
        }
    }
}
