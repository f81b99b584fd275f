import Foundation
import GlimpseServer
import Synchronization
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
            let opened = OpenedCount()
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
            let start = ContinuousClock.now
            while opened.value < 8, ContinuousClock.now - start < .seconds(90) {
                try? await Task.sleep(for: .milliseconds(5))
            }
            await daemon.beginShutdown()
            #expect(await connecting.value, "the listener closed while a client kept connecting")
            #expect(opened.value >= 8)
            try await daemon.waitUntilStopped()
        }
    }
}

/// Connections opened so far, counted by one thread and read by another.
private final class OpenedCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}
