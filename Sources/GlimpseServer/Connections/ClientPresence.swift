import Synchronization

/// Whether the client of one connection is still there, so work for it can stop when it leaves.
///
/// The connection's ``RequestGuardHandler`` marks it gone when the client closes its side (end of
/// input) or the connection closes. Work started through ``run(_:)`` is cancelled at that moment.
public final class ClientPresence: Sendable {
    private struct State {
        var gone = false
        var nextID = 0
        var onGone: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Creates a presence for a connected client.
    public init() {}

    /// Whether the client has gone away.
    public var isGone: Bool { state.withLock { $0.gone } }

    /// Marks the client gone and cancels the work running for it. Later calls do nothing.
    public func markGone() {
        let callbacks = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.gone else { return [] }
            state.gone = true
            defer { state.onGone = [:] }
            return Array(state.onGone.values)
        }
        for callback in callbacks { callback() }
    }

    /// Runs `operation` in a child task that is cancelled if the client goes away (or the caller is
    /// cancelled) before it finishes.
    ///
    /// - Throws: `CancellationError` when the client went away; whatever `operation` throws.
    public func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = DaemonTasks.start { try await operation() }
        let id = state.withLock { state -> Int? in
            guard !state.gone else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.onGone[id] = { task.cancel() }
            return id
        }
        guard let id else {
            task.cancel()
            return try await task.value
        }
        defer { _ = state.withLock { $0.onGone.removeValue(forKey: id) } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
