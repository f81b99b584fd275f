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
