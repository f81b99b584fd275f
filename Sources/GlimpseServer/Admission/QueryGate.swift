import NIOConcurrencyHelpers

/// Bounded, off-event-loop execution of queries with admission control and a memory budget.
///
/// Queries run on `maxRunning` dedicated threads (a task executor: never on an event loop or the
/// shared Swift concurrency threads). A query is *admitted* (``admit(bytes:)``) as soon as its request
/// head is known, before any of its body is read: at most `maxRunning + maxQueued` queries are admitted
/// at once, and the bodies they will hold count against `maxBufferedBytes`. A query arriving when either
/// is exhausted is refused at once with `503` rather than queued without bound, so a refused client has
/// not uploaded its body for nothing and the daemon's memory stays bounded by the budget.
///
/// Admitted queries wait for a thread in arrival order. Cancellation is Swift's task cancellation and
/// nothing else: a query whose client goes away while it waits leaves the queue at once; one that is
/// running is cancelled and stops at its next stage (the pipeline checks between decoding, features,
/// shortlist, verification, the feature print and labels). When the daemon stops (``stop()``, at the end of the shutdown grace), every waiting query
/// is refused with `503 shutting_down` and every running one is cancelled, so each gets an answer.
public final class QueryGate: Sendable {
    /// The most queries running at once.
    public let maxRunning: Int
    /// The most admitted queries waiting for a thread.
    public let maxQueued: Int
    /// The most request-body bytes admitted queries may hold at once.
    public let maxBufferedBytes: Int
    /// The `Retry-After` value, in seconds, of the gate's `503` answers.
    public let retryAfterSeconds: Int
    private let executor: QueryExecutor
    /// Behind a pthread mutex (NIOLock) rather than `Synchronization.Mutex`: ThreadSanitizer follows the
    /// one and not the other (a futex on Linux), and every event loop and query thread meets here.
    private let state: NIOLockedValueBox<GateState>

    /// Creates a gate; its threads start with the first query.
    ///
    /// - Parameter maxBufferedBytes: the memory budget for request bodies; `Int.max` for none.
    public init(maxRunning: Int, maxQueued: Int, maxBufferedBytes: Int = .max, retryAfterSeconds: Int) {
        self.maxRunning = max(1, maxRunning)
        self.maxQueued = max(0, maxQueued)
        self.maxBufferedBytes = max(0, maxBufferedBytes)
        self.retryAfterSeconds = retryAfterSeconds
        self.executor = QueryExecutor(threads: self.maxRunning)
        self.state = NIOLockedValueBox(GateState(capacity: self.maxRunning + self.maxQueued, threads: self.maxRunning))
    }

    /// The number of queries admitted and not yet finished (reading their body, waiting or running).
    public var inFlight: Int { state.withLockedValue { $0.admitted } }

    /// The request-body bytes reserved by admitted queries.
    public var bufferedBytes: Int { state.withLockedValue { $0.bytes } }

    /// Whether ``stop()`` has been called: new queries are refused with `503 shutting_down`.
    public var isStopping: Bool { state.withLockedValue { $0.stopping } }

    /// Admits a query that will hold up to `bytes` of request body, or refuses it.
    ///
    /// - Throws: ``APIError`` `503 overloaded` (with `Retry-After`) when all slots are taken or the
    ///   body would not fit in the memory budget; `503 shutting_down` once the gate has stopped.
    public func admit(bytes: Int = 0) throws(APIError) -> QueryAdmission {
        let reserved = max(0, bytes)
        let outcome = state.withLockedValue { $0.admit(bytes: reserved, budget: maxBufferedBytes) }
        switch outcome {
        case .admitted(let id): return QueryAdmission(gate: self, id: id, bytes: reserved)
        case .full: throw .overloaded(retryAfter: retryAfterSeconds)
        case .overBudget: throw .overloaded(retryAfter: retryAfterSeconds, memory: true)
        case .stopping: throw .shuttingDown(retryAfter: retryAfterSeconds)
        }
    }

    /// Admits `work` with no body and runs it on the gate's threads, or refuses it when the gate is full.
    ///
    /// - Parameter work: the blocking query; it should check task cancellation between stages.
    /// - Returns: what `work` returned.
    /// - Throws: ``APIError`` `503` when full or stopping; `CancellationError` when the calling task was
    ///   cancelled first; whatever `work` throws.
    public func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let admission = try admit()
        defer { admission.release() }
        return try await admission.run(work)
    }

    /// Stops admitting: queries waiting for a thread are refused with `503 shutting_down`, running ones
    /// are cancelled (they stop at their next stage), and new ones are refused. Called when the shutdown
    /// grace runs out, so that every request still in the daemon is answered.
    public func stop() {
        let (waiters, cancels) = state.withLockedValue { $0.stop() }
        for waiter in waiters { waiter.resume(throwing: APIError.shuttingDown(retryAfter: retryAfterSeconds)) }
        for cancel in cancels { cancel() }
    }

    /// Stops the threads after the queries already submitted have finished.
    public func shutdown() async {
        await executor.shutdown()
    }

    // MARK: - Used by QueryAdmission

    fileprivate func runAdmitted<T: Sendable>(
        id: Int, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        // The query runs as its own task so that the gate (at stop) and the caller (client gone) cancel
        // it the same way: one cancellation, which the pipeline checks between stages.
        let task = DaemonTasks.start { [self] in
            try await withTaskCancellationHandler {
                try await acquireThread(id: id)
            } onCancel: {
                let waiter = state.withLockedValue { $0.cancelWaiter(id: id) }
                waiter?.resume(throwing: CancellationError())
            }
            defer { releaseThread() }
            return try await withTaskExecutorPreference(executor) {
                try Task.checkCancellation()
                return try await work()
            }
        }
        guard state.withLockedValue({ $0.register(id: id, cancel: { task.cancel() }) }) else {
            task.cancel()
            throw APIError.shuttingDown(retryAfter: retryAfterSeconds)
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    fileprivate func register(id: Int, cancel: @escaping @Sendable () -> Void) -> Bool {
        state.withLockedValue { $0.register(id: id, cancel: cancel) }
    }

    fileprivate func shrink(id: Int, from old: Int, to new: Int) {
        state.withLockedValue { $0.bytes -= max(0, old - new) }
    }

    fileprivate func release(id: Int, bytes: Int) {
        state.withLockedValue { $0.release(id: id, bytes: bytes) }
    }

    private func acquireThread(id: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLockedValue { $0.acquire(id: id, continuation: continuation) }
            switch outcome {
            case .granted: continuation.resume()
            case .waiting: break
            case .cancelled: continuation.resume(throwing: CancellationError())
            case .stopping: continuation.resume(throwing: APIError.shuttingDown(retryAfter: retryAfterSeconds))
            }
        }
    }

    private func releaseThread() {
        let next = state.withLockedValue { $0.releaseThread() }
        next?.resume()
    }
}

/// One admitted query: its slot in the gate and the body bytes it reserved.
///
/// Release it (``release()``) when the query is over, whatever the outcome; releasing twice does nothing.
public final class QueryAdmission: Sendable {
    private let gate: QueryGate
    private let id: Int
    private let reserved: NIOLockedValueBox<Int?>

    fileprivate init(gate: QueryGate, id: Int, bytes: Int) {
        self.gate = gate
        self.id = id
        self.reserved = NIOLockedValueBox(bytes)
    }

    deinit { release() }

    /// The body bytes this query still holds in the budget.
    public var reservedBytes: Int { reserved.withLockedValue { $0 ?? 0 } }

    /// Lowers the reservation to `bytes` (the body turned out smaller than reserved, or is no longer
    /// needed), admitting other bodies sooner.
    public func reduceReservation(to bytes: Int) {
        let change = reserved.withLockedValue { value -> (Int, Int)? in
            guard let old = value, bytes < old else { return nil }
            value = max(0, bytes)
            return (old, max(0, bytes))
        }
        if let (old, new) = change { gate.shrink(id: id, from: old, to: new) }
    }

    /// Waits for a thread (in arrival order) and runs `work` on it.
    ///
    /// - Throws: `503 shutting_down` when the gate stops first; `CancellationError` when the calling
    ///   task is cancelled first; whatever `work` throws.
    public func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await gate.runAdmitted(id: id, work)
    }

    /// Runs `operation` (reading the body, then ``run(_:)``) in a child task that is cancelled when the
    /// gate stops, so a query still uploading at the end of the shutdown grace is answered too.
    ///
    /// - Throws: `503 shutting_down` when the gate has already stopped; whatever `operation` throws
    ///   (`CancellationError` once cancelled).
    public func cancellingOnStop<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = DaemonTasks.start { try await operation() }
        guard gate.register(id: id, cancel: { task.cancel() }) else {
            task.cancel()
            throw APIError.shuttingDown(retryAfter: gate.retryAfterSeconds)
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Gives the slot and the reserved bytes back.
    public func release() {
        let bytes = reserved.withLockedValue { value -> Int? in
            defer { value = nil }
            return value
        }
        if let bytes { gate.release(id: id, bytes: bytes) }
    }
}

/// The gate's bookkeeping: admitted queries, reserved bytes, threads in use and the queue for them.
/// A value type, so every transition is a plain function of the state (and tested as one).
struct GateState {
    enum Admission: Equatable { case admitted(Int), full, overBudget, stopping }
    enum Acquisition { case granted, waiting, cancelled, stopping }

    let capacity: Int
    let threads: Int
    private(set) var admitted = 0
    var bytes = 0
    private(set) var running = 0
    private(set) var stopping = false
    private var nextID = 0
    private var admittedIDs: Set<Int> = []
    /// Queries waiting for a thread, in arrival order.
    private var queue: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    /// Admissions cancelled before they joined the queue.
    private var cancelledEarly: Set<Int> = []
    /// How to cancel each admitted query that has started to run or wait.
    private var cancellers: [Int: [@Sendable () -> Void]] = [:]

    init(capacity: Int, threads: Int) {
        self.capacity = capacity
        self.threads = threads
    }

    /// The number of queries waiting for a thread.
    var waiting: Int { queue.count }

    mutating func admit(bytes: Int, budget: Int) -> Admission {
        if stopping { return .stopping }
        guard admitted < capacity else { return .full }
        guard bytes <= budget - self.bytes else { return .overBudget }
        admitted += 1
        self.bytes += bytes
        nextID += 1
        admittedIDs.insert(nextID)
        return .admitted(nextID)
    }

    mutating func register(id: Int, cancel: @escaping @Sendable () -> Void) -> Bool {
        guard !stopping else { return false }
        cancellers[id, default: []].append(cancel)
        return true
    }

    mutating func acquire(id: Int, continuation: CheckedContinuation<Void, any Error>) -> Acquisition {
        if cancelledEarly.remove(id) != nil { return .cancelled }
        if stopping { return .stopping }
        if running < threads && queue.isEmpty {
            running += 1
            return .granted
        }
        queue.append((id, continuation))
        return .waiting
    }

    /// Removes a cancelled query from the queue (returning its continuation to resume), or remembers
    /// the cancellation when it has not queued yet.
    mutating func cancelWaiter(id: Int) -> CheckedContinuation<Void, any Error>? {
        if let index = queue.firstIndex(where: { $0.id == id }) {
            return queue.remove(at: index).continuation
        }
        if admittedIDs.contains(id) { cancelledEarly.insert(id) }
        return nil
    }

    /// Frees a thread; returns the next waiter, now holding it.
    mutating func releaseThread() -> CheckedContinuation<Void, any Error>? {
        guard !queue.isEmpty else {
            running -= 1
            return nil
        }
        return queue.removeFirst().continuation
    }

    mutating func release(id: Int, bytes: Int) {
        admitted -= 1
        self.bytes -= bytes
        admittedIDs.remove(id)
        cancellers[id] = nil
        cancelledEarly.remove(id)
    }

    mutating func stop() -> (waiters: [CheckedContinuation<Void, any Error>], cancels: [@Sendable () -> Void]) {
        stopping = true
        let waiters = queue.map(\.continuation)
        queue.removeAll()
        return (waiters, cancellers.values.flatMap { $0 })
    }
}
