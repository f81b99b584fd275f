import Dispatch
import Foundation
import Synchronization

/// Holds every thread of Swift's global concurrent executor (one per core) and runs `body` once all are
/// held; returns whether they all were, and what `body` returned.
///
/// The calling task's thread is one of them (a test runs on the global executor), and one child task
/// per other core holds the rest until `body` returns. That is the condition under which work needing
/// the global executor cannot move: a test gives a daemon or a store an executor of its own, calls it
/// from `body` (blocking), and checks the answer. 600 s bounds the wait for the threads, which come free
/// as the suite's other tests end. One caller holds them at a time: two callers each holding one thread
/// while waiting for the others would wait for each other (in a suite run they did, for the full 600 s).
public func withEverySharedThreadHeld<T: Sendable>(_ body: () -> T) async -> (allHeld: Bool, result: T) {
    await holdingTurn.acquire()
    defer { holdingTurn.release() }
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

/// Whose turn it is to hold the shared threads.
private let holdingTurn = Turn()

/// A first-come, first-served turn that is waited for by suspending, so that a caller waiting for it
/// holds no thread.
private final class Turn: Sendable {
    private let state = Mutex<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Returns once it is the caller's turn.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Ends the caller's turn: the next waiter's begins.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
