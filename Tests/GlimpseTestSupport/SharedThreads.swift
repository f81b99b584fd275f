import Dispatch
import Foundation

/// Holds every thread of Swift's global concurrent executor (one per core) and runs `body` once all are
/// held; returns whether they all were, and what `body` returned.
///
/// The calling task's thread is one of them (a test runs on the global executor), and one child task
/// per other core holds the rest until `body` returns. That is the condition under which work needing
/// the global executor cannot move: a test gives a daemon or a store an executor of its own, calls it
/// from `body` (blocking), and checks the answer. 600 s bounds the wait for the threads, which come free
/// as the suite's other tests end.
public func withEverySharedThreadHeld<T: Sendable>(_ body: () -> T) async -> (allHeld: Bool, result: T) {
    let others = ProcessInfo.processInfo.activeProcessorCount - 1
    let holding = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    return await withTaskGroup(of: Void.self) { group in
        for _ in 0..<others {
            group.addTask {
                holding.signal()
                finished.wait()
            }
        }
        let allHeld = (0..<others).allSatisfy { _ in holding.wait(timeout: .now() + 600) == .success }
        let result = body()
        for _ in 0..<others { finished.signal() }
        await group.waitForAll()
        return (allHeld, result)
    }
}
