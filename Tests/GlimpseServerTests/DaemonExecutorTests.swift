import Foundation
import GlimpseTestSupport
import GlimpseWire
import Synchronization
import Testing

/// An in-process daemon given its own executor answers while every thread of Swift's shared executor is
/// held by other work: the condition under which, on its shared threads, it once took over 600 s.
@Suite("The daemon on its own executor")
struct DaemonExecutorTests {
    @Test func aQueryIsAnsweredWhileEverySharedThreadIsBlocked() async throws {
        let daemon = try await RunningDaemon.start()
        let photo = bundledCatalogDirectory + "/photos/" + samplePhotos[1]
        // One blocker per core, so all of the shared executor's threads (one per core) are held: the
        // first asks the daemon once every blocker holds its thread, the others wait for its answer.
        let blockers = ProcessInfo.processInfo.activeProcessorCount
        let holding = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        await withTaskGroup(of: Void.self) { group in
            for blocker in 0..<blockers {
                group.addTask {
                    guard blocker == 0 else {
                        holding.signal()
                        answered.wait()
                        return
                    }
                    // The others start as threads come free; 600 s bounds a suite that never frees one.
                    let held = (1..<blockers).allSatisfy { _ in holding.wait(timeout: .now() + 600) == .success }
                    outcome.state.withLock { $0.allHeld = held }
                    // 60 s: the daemon answers in well under a second; on the shared threads it never would.
                    let reply = blockingCurl(
                        daemon.socketPath,
                        ["-H", "Content-Type: image/jpeg", "--data-binary", "@" + photo, "http://g/v1/query"], maxTime: 60)
                    outcome.state.withLock { $0.reply = reply }
                    for _ in 1..<blockers { answered.signal() }
                }
            }
        }
        #expect(outcome.state.withLock { $0.allHeld }, "every blocker held a thread of the shared executor")
        let reply = try #require(outcome.state.withLock { $0.reply }, "the daemon did not answer within 60 s")
        #expect(reply.status == 200)
        let found = try JSONDecoder().decode(QueryResponseJSON.self, from: reply.body)
        #expect(found.results.first?.entity.id == "colorful-plastic-cups")
        try await daemon.stop()
    }
}

/// What the blocker that asked the daemon saw.
private final class Outcome: Sendable {
    let state = Mutex<(allHeld: Bool, reply: (status: Int, head: String, body: Data)?)>((false, nil))
}
