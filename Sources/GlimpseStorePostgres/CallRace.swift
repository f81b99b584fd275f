import GlimpseStore
import Synchronization

/// One call to the database racing its deadlines: whichever ends first answers the caller, exactly
/// once, and the caller never waits for the loser.
///
/// A call has two phases. While it *waits* (for a pooled connection, or to connect and start
/// listening) the wait limit runs; once it has *entered* (``enter(onAbandon:)``: it holds a
/// connection and runs statements) the run limit runs instead. When a limit passes, or the caller is
/// cancelled, the caller is answered at once; the work is cancelled and abandoned, and a work that had
/// entered has its connection closed (`onAbandon`), so that a connection whose state is unknown is
/// never used again. Work that ignores cancellation (postgres-nio's query on a connection that closed
/// under it waits forever) thus never holds up its caller, a request, or a shutdown.
///
/// The limits are measured by ``Sleep``, a seam for tests (the default sleeps on the continuous clock).
final class CallRace<T: Sendable>: Sendable {
    /// Waits for a duration, throwing when cancelled (`Task.sleep(for:)` by default).
    typealias Sleep = @Sendable (Duration) async throws -> Void

    /// What ends a call's phase that the deadline cut short.
    struct Limits: Sendable {
        /// How long the call may wait before it enters; `nil`: no limit.
        var wait: Duration?
        /// The error a call that waited too long ends with.
        var waitExpired: StoreError
        /// How long the call may run once it entered; `nil`: no limit.
        var run: Duration?
        /// The error a call that ran too long ends with.
        var runExpired: StoreError
    }

    private typealias Answer = CheckedContinuation<Result<T, StoreError>, Never>
    private enum Phase { case waiting, entered, answered }
    private struct State {
        var phase = Phase.waiting
        var continuation: Answer?
        var result: Result<T, StoreError>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var onAbandon: (@Sendable () -> Void)?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let limits: Limits
    private let sleep: Sleep
    private let executor: (any TaskExecutor)?

    private init(limits: Limits, sleep: @escaping Sleep, executor: (any TaskExecutor)?) {
        self.limits = limits
        self.sleep = sleep
        self.executor = executor
    }

    /// Runs `work` as a task of its own (preferring `executor`) against `limits`; `work` calls
    /// ``enter(onAbandon:)`` on the race it is given once it holds its connection (and gives up when
    /// that returns `false`). Errors `work` throws become ``StoreError``s by `mapError`.
    ///
    /// - Throws: `work`'s error mapped, the expired limit's error, or `mapError(CancellationError())`
    ///   when the calling task is cancelled first.
    static func run(
        limits: Limits, executor: (any TaskExecutor)? = nil,
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) },
        mapError: @escaping @Sendable (any Error) -> StoreError,
        _ work: @escaping @Sendable (CallRace<T>) async throws -> T
    ) async throws(StoreError) -> T {
        let race = CallRace(limits: limits, sleep: sleep, executor: executor)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Answer) in
                race.start(continuation, work: Task(executorPreference: executor) {
                    do {
                        race.finish(.success(try await work(race)))
                    } catch {
                        race.finish(.failure(mapError(error)))
                    }
                })
            }
        } onCancel: {
            race.cancel(answering: mapError(CancellationError()))
        }
        return try result.get()
    }

    /// The work holds its connection: `false` when the call already ended (the deadline gave up on it,
    /// or the caller left), and the work must not use the connection. `onAbandon` is called (once) if
    /// the call ends before the work does: it closes the connection.
    func enter(onAbandon: @escaping @Sendable () -> Void) -> Bool {
        let entered = state.withLock { state -> Task<Void, Never>?? in
            guard state.phase == .waiting else { return .none }
            state.phase = .entered
            state.onAbandon = onAbandon
            defer { state.timer = nil }
            return .some(state.timer)
        }
        guard let timer = entered else { return false }
        timer?.cancel()
        if let run = limits.run { arm(run, .entered, limits.runExpired) }
        return true
    }

    /// The work holds a connection but has not entered yet (it is still setting the connection up):
    /// `false` when the call already ended. `onAbandon` closes the connection if the call ends first.
    func hold(onAbandon: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.phase == .waiting else { return false }
            state.onAbandon = onAbandon
            return true
        }
    }

    // MARK: - Parts

    private func start(_ continuation: Answer, work: Task<Void, Never>) {
        let (result, cancelled) = state.withLock { state in
            state.work = work
            if state.result == nil { state.continuation = continuation }
            return (state.result, state.cancelled)
        }
        if let result { continuation.resume(returning: result) }
        if cancelled { work.cancel() }
        if result == nil, let wait = limits.wait { arm(wait, .waiting, limits.waitExpired) }
    }

    /// Starts the timer of `phase`: when `limit` passes and the call is still in that phase, it ends with `error`.
    private func arm(_ limit: Duration, _ phase: Phase, _ error: StoreError) {
        let sleep = self.sleep
        let timer = Task(executorPreference: executor) { [weak self] in
            do { try await sleep(limit) } catch { return }
            self?.expire(phase, error)
        }
        let stale = state.withLock { state -> Bool in
            guard state.phase == phase else { return true }
            state.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    private func expire(_ phase: Phase, _ error: StoreError) {
        guard let abandoned = answer(.failure(error), onlyIn: phase) else { return }
        abandoned()
    }

    private func finish(_ result: Result<T, StoreError>) {
        _ = answer(result, onlyIn: nil, abandoning: false)
    }

    /// The caller was cancelled: answers it now with `error` and abandons the work.
    private func cancel(answering error: StoreError) {
        state.withLock { $0.cancelled = true }
        answer(.failure(error), onlyIn: nil)?()
    }

    /// Records `result` as the answer unless there is one (or, with `phase`, the call is in another
    /// phase), resumes the caller, and returns what abandons the work (`nil` when nothing was answered).
    @discardableResult
    private func answer(_ result: Result<T, StoreError>, onlyIn phase: Phase?, abandoning: Bool = true) -> (() -> Void)? {
        let taken = state.withLock { state -> (Answer?, Task<Void, Never>?, Task<Void, Never>?, (@Sendable () -> Void)?)? in
            guard state.phase != .answered, phase == nil || state.phase == phase else { return nil }
            state.phase = .answered
            state.result = result
            defer {
                state.continuation = nil
                state.timer = nil
                state.onAbandon = nil
            }
            return (state.continuation, state.work, state.timer, state.onAbandon)
        }
        guard let taken else { return nil }
        let (continuation, work, timer, onAbandon) = taken
        timer?.cancel()
        continuation?.resume(returning: result)
        return {
            guard abandoning else { return }
            work?.cancel()
            onAbandon?()
        }
    }
}
