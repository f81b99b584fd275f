import Synchronization

/// A condition a test waited for that did not hold in time.
public struct PollTimeout: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String
    /// How long.
    public let limit: Duration

    /// A sentence for the test's failure.
    public var description: String { "\(what): not reached within \(limit)" }
}

/// Checks `condition` every `interval` until it holds, for at most `limit`: how a test waits for a
/// state the code under test reaches on its own (a count of queued queries, a file appearing), rather
/// than sleeping for a time that a busy machine may not honour. The limit is generous on purpose: it
/// only bounds a test that would otherwise hang.
///
/// - Throws: ``PollTimeout`` when `limit` passes first; `CancellationError` when the task is cancelled.
public func poll(
    every interval: Duration = .milliseconds(10), upTo limit: Duration = .seconds(60), _ what: String,
    until condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while !(try await condition()) {
        guard ContinuousClock.now < deadline else { throw PollTimeout(what: what, limit: limit) }
        try await Task.sleep(for: interval)
    }
}

/// Whether `condition` comes to hold within `limit`, checked as ``poll(every:upTo:_:until:)`` checks it:
/// for helpers that report the outcome themselves (a daemon that exited instead of listening says why).
public func eventually(
    every interval: Duration = .milliseconds(10), upTo limit: Duration = .seconds(60),
    _ condition: () async -> Bool
) async -> Bool {
    do {
        try await poll(every: interval, upTo: limit, "a condition", until: condition)
        return true
    } catch {
        return false
    }
}

/// A count raised on one thread or task and read on others: what a test's clients report (connections
/// opened, answers received) for ``poll(every:upTo:_:until:)`` to wait on.
public final class SharedCount: Sendable {
    private let count = Atomic<Int>(0)

    /// A count at zero.
    public init() {}

    /// The count now.
    public var value: Int { count.load(ordering: .acquiring) }

    /// Adds one.
    public func increment() { count.add(1, ordering: .acquiringAndReleasing) }
}
