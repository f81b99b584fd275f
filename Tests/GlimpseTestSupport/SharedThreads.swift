import Dispatch
import Foundation
import Synchronization

/// Holds every thread of Swift's global concurrent executor (one per core) and runs `body` once all are
/// held; returns whether they all were, and what `body` returned.
///
/// The calling task's thread is one of them (a test runs on the global executor), and one child task
/// per other core holds the rest until `body` returns. That is the condition under which work needing
/// the global executor cannot move: a test gives a daemon or a store an executor of its own, calls it
/// from `body` (blocking), and checks the answer.
///
/// Threads held while the others are awaited are taken from everything else in the process, so an
/// attempt holds them at most ``attemptSeconds``: when the rest do not come free by then, it lets go,
/// waits a second without holding a thread, and tries again, for at most 600 s in all (after which
/// `body` runs with `allHeld` false). A single wait of up to 600 s, as before, took a thread from the
/// rest of the suite for that long.
/// One caller holds threads at a time: two callers each holding one while waiting for the others
/// would wait for each other.
public func withEverySharedThreadHeld<T: Sendable>(_ body: () -> T) async -> (allHeld: Bool, result: T) {
    await holdingTurn.acquire()
    defer { holdingTurn.release() }
    let others = ProcessInfo.processInfo.activeProcessorCount - 1
    let giveUp = ContinuousClock.now + .seconds(600)
    while ContinuousClock.now < giveUp {
        let attempt = HoldingAttempt()
        let result: T? = await withTaskGroup(of: Void.self) { group in
            for _ in 0..<others {
                group.addTask { attempt.hold() }
            }
            let deadline = DispatchTime.now() + .seconds(attemptSeconds)
            let allHeld = (0..<others).allSatisfy { _ in attempt.holding.wait(timeout: deadline) == .success }
            let result = allHeld ? body() : nil
            attempt.letGo()
            await group.waitForAll()
            return result
        }
        if let result { return (true, result) }
        try? await Task.sleep(for: .seconds(1))
    }
    return (false, body())
}

/// How long one attempt of ``withEverySharedThreadHeld(_:)`` may hold threads while it waits for the rest.
private let attemptSeconds = 5

/// The threads one attempt holds: each holder counts itself in and waits until the attempt lets go; a
/// holder starting after that returns at once.
private final class HoldingAttempt: Sendable {
    /// Signalled once by each holder that counted itself in.
    let holding = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let state = Mutex<(held: Int, over: Bool)>((0, false))

    /// Holds the calling thread until ``letGo()``, unless the attempt is over already.
    func hold() {
        let counted = state.withLock { state -> Bool in
            guard !state.over else { return false }
            state.held += 1
            return true
        }
        guard counted else { return }
        holding.signal()
        finished.wait()
    }

    /// Ends the attempt: every holder counted in returns, and any starting later returns at once.
    func letGo() {
        let held = state.withLock { state -> Int in
            state.over = true
            return state.held
        }
        for _ in 0..<held { finished.signal() }
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
