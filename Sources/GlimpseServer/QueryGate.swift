import Synchronization

/// Bounded, off-event-loop execution of image queries with admission control.
///
/// Queries run on `maxRunning` dedicated threads (a task executor: never on an event loop or the
/// shared Swift concurrency threads). At most `maxRunning + maxQueued` queries are admitted at once;
/// a query arriving when the gate is full is refused at once with `503` rather than queued without
/// bound.
///
/// A query whose client goes away while it waits stops before its first stage; one that is running
/// sees ``QueryCancellation/isCancelled`` and stops at its next stage.
public final class QueryGate: Sendable {
    /// The most queries running at once.
    public let maxRunning: Int
    /// The most admitted queries waiting for a thread.
    public let maxQueued: Int
    private let retryAfterSeconds: Int
    private let executor: QueryExecutor
    private let admitted = Mutex(0)

    /// Creates a gate and starts its threads.
    public init(maxRunning: Int, maxQueued: Int, retryAfterSeconds: Int) {
        self.maxRunning = max(1, maxRunning)
        self.maxQueued = max(0, maxQueued)
        self.retryAfterSeconds = retryAfterSeconds
        self.executor = QueryExecutor(threads: self.maxRunning)
    }

    /// The number of queries admitted and not yet finished (running or waiting).
    public var inFlight: Int { admitted.withLock { $0 } }

    /// Runs `work` on the gate's threads, or refuses it when the gate is full.
    ///
    /// - Parameter work: the blocking query; it should call ``QueryCancellation/check()`` between stages.
    /// - Returns: what `work` returned.
    /// - Throws: ``APIError`` `503 overloaded` when full; `CancellationError` when the calling task was
    ///   cancelled first; whatever `work` throws.
    public func run<T: Sendable>(_ work: @escaping @Sendable (QueryCancellation) async throws -> T) async throws -> T {
        let capacity = maxRunning + maxQueued
        let entered = admitted.withLock { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard entered else { throw APIError.overloaded(retryAfter: retryAfterSeconds) }
        defer { admitted.withLock { $0 -= 1 } }

        let token = QueryCancellation()
        return try await withTaskCancellationHandler {
            try await withTaskExecutorPreference(executor) {
                try Task.checkCancellation()
                try token.check()
                return try await work(token)
            }
        } onCancel: {
            token.cancel()
        }
    }

    /// Stops the threads after the queries already submitted have finished.
    public func shutdown() async {
        await executor.shutdown()
    }
}

/// A flag a running query polls between stages, set when its client went away.
public final class QueryCancellation: Sendable {
    private let flag = Atomic(false)

    /// Creates an unset flag.
    public init() {}

    /// Whether the query should stop.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// Asks the query to stop at its next stage.
    public func cancel() { flag.store(true, ordering: .releasing) }

    /// Throws `CancellationError` when the query should stop.
    public func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
