import GlimpseStore
import Logging
import PostgresNIO
import Synchronization

extension PostgresCatalogStore {
    /// Runs `body` on a leased connection, mapping errors; a connection not leased within the connect
    /// timeout (the server is down or unreachable) is ``StoreError/unavailable(reason:)``, thrown as
    /// soon as the timeout passes (the abandoned lease request is cancelled, not waited for). The lease
    /// and its deadline run as tasks preferring `executor` (`nil`: the global concurrent executor).
    static func lease<T: Sendable>(
        _ client: PostgresClient, settings: ConnectionSettings, logger: Logger, on executor: (any TaskExecutor)?,
        _ body: @escaping @Sendable (PostgresSession) async throws -> T
    ) async throws(StoreError) -> T {
        let race = LeaseRace<T>()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, StoreError>, Never>) in
                race.start(continuation, work: Task(executorPreference: executor) {
                    do {
                        let value = try await client.withConnection { connection in
                            guard race.enter() else { throw CancellationError() }
                            return try await body(PostgresSession(connection: connection, logger: logger))
                        }
                        race.finish(.success(value))
                    } catch {
                        race.finish(.failure(PostgresErrors.storeError(error, target: settings.target)))
                    }
                }, timer: Task(executorPreference: executor) {
                    try await Task.sleep(for: settings.connectTimeout)
                    race.timeOut(.unavailable(reason: "no connection to \(settings.target) "
                        + "within \(settings.connectTimeout.components.seconds) s"))
                })
            }
        } onCancel: {
            race.cancel()
        }
        return try result.get()
    }
}

/// A lease racing its deadline: whichever ends first answers the caller, exactly once; a lease that
/// arrives after the deadline gave up is not used.
private final class LeaseRace<T: Sendable>: Sendable {
    private typealias Answer = CheckedContinuation<Result<T, StoreError>, Never>
    private struct State {
        var continuation: Answer?
        var result: Result<T, StoreError>?
        var work: Task<Void, Never>?
        var timer: Task<Void, any Error>?
        var entered = false
        var cancelled = false
    }
    private let state = Mutex(State())

    /// Starts the race: `work` and `timer` may already have ended (their result is kept until now).
    func start(_ continuation: CheckedContinuation<Result<T, StoreError>, Never>, work: Task<Void, Never>, timer: Task<Void, any Error>) {
        let (result, cancelled) = state.withLock { state in
            state.work = work
            state.timer = timer
            if state.result == nil { state.continuation = continuation }
            return (state.result, state.cancelled)
        }
        if cancelled { cancel() }
        if let result { continuation.resume(returning: result) }
    }

    /// The lease arrived: `false` when the deadline already gave up on it.
    func enter() -> Bool {
        state.withLock { state in
            guard state.result == nil else { return false }
            state.entered = true
            return true
        }
    }

    /// The work ended with `result`.
    func finish(_ result: Result<T, StoreError>) {
        answer(result, unlessEntered: false)
        state.withLock { $0.timer }?.cancel()
    }

    /// The deadline passed: gives up with `error` unless the lease arrived, and cancels the lease request.
    func timeOut(_ error: StoreError) {
        if answer(.failure(error), unlessEntered: true) { state.withLock { $0.work }?.cancel() }
    }

    /// The caller was cancelled: cancels the work (a lease not yet used is given up) and the timer.
    func cancel() {
        let (work, timer) = state.withLock { state in
            state.cancelled = true
            return (state.work, state.timer)
        }
        work?.cancel()
        timer?.cancel()
    }

    /// Records `result` as the answer unless there is one (or, with `unlessEntered`, the lease arrived).
    @discardableResult
    private func answer(_ result: Result<T, StoreError>, unlessEntered: Bool) -> Bool {
        let (answered, continuation) = state.withLock { state -> (Bool, Answer?) in
            guard state.result == nil, !(unlessEntered && state.entered) else { return (false, nil) }
            state.result = result
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        continuation?.resume(returning: result)
        return answered
    }
}
