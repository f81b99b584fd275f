import GlimpseStore
import Logging
import PostgresNIO
import Synchronization

/// Listens on `glimpse_catalog` on a connection of its own and turns what it hears into
/// ``StoreSignal``s; when the connection drops (or cannot be made) it says so once, then reconnects
/// with capped exponential backoff and says when it listens again.
///
/// Connecting and starting to listen are bounded by the connect timeout plus the statement timeout
/// (``CallRace``): a server that accepts the connection but does not answer is a lost connection,
/// not a listener waiting forever.
struct ChangeListener: Sendable {
    /// The first wait before reconnecting; it doubles up to ``longestWait``.
    static let firstWait = Duration.milliseconds(100)
    /// The longest wait between reconnection attempts.
    static let longestWait = Duration.seconds(5)

    let settings: ConnectionSettings
    let logger: Logger
    let continuation: AsyncStream<StoreSignal>.Continuation

    /// Listens until the task is cancelled, then finishes the stream. Once first listening it yields
    /// `.changed(sequence: nil)`: edits committed before then were not heard, so the consumer catches
    /// up from the sequence it last read.
    func run() async {
        defer { continuation.finish() }
        let progress = Progress()
        while !Task.isCancelled {
            let reason: String
            do throws(StoreError) {
                try await listenOnce { [continuation] in
                    switch progress.listening() {
                    case .first: continuation.yield(.changed(sequence: nil))
                    case .again: continuation.yield(.connectionRestored)
                    case .still: break
                    }
                }
                reason = "the server ended the notification stream"
            } catch {
                reason = error.description
            }
            if Task.isCancelled { break }
            let (newlyLost, wait) = progress.lost()
            if newlyLost {
                logger.warning("catalog change listener lost its connection", metadata: ["reason": "\(reason)"])
                continuation.yield(.connectionLost(reason: reason))
            }
            do {
                try await Task.sleep(for: wait)
            } catch {
                break
            }
        }
    }

    /// Whether the listener listened before and lost its connection since, and the next wait.
    private final class Progress: Sendable {
        enum Listening { case first, again, still }
        private struct State {
            var first = true
            var lost = false
            var wait = ChangeListener.firstWait
        }
        private let state = Mutex(State())

        /// The listener listens (again): what to say about it.
        func listening() -> Listening {
            state.withLock { state in
                defer {
                    state.first = false
                    state.lost = false
                    state.wait = ChangeListener.firstWait
                }
                return state.lost ? .again : state.first ? .first : .still
            }
        }

        /// The connection was lost or could not be made: whether that is news, and how long to wait.
        func lost() -> (newly: Bool, wait: Duration) {
            state.withLock { state in
                defer {
                    state.lost = true
                    state.wait = min(state.wait * 2, ChangeListener.longestWait)
                }
                return (!state.lost, state.wait)
            }
        }
    }

    /// Connects, listens, calls `listening` once the `LISTEN` took effect, and yields every
    /// notification until the connection drops or the task is cancelled.
    private func listenOnce(listening: @escaping @Sendable () -> Void) async throws(StoreError) {
        var made = try settings.connectionConfiguration()
        made.options.additionalStartupParameters = settings.startupParameters(name: "glimpse-listener")
        let configuration = made
        let target = settings.target, logger = self.logger, continuation = self.continuation
        let setUp = settings.connectTimeout + settings.statementTimeout
        let limits = CallRace<Void>.Limits(
            wait: setUp,
            waitExpired: .unavailable(reason: "could not listen on \(target) within \(setUp.components.seconds) s"),
            run: nil, runExpired: .unavailable(reason: ""))
        try await CallRace.run(limits: limits, mapError: { PostgresErrors.storeError($0, target: target) }) { race in
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            guard race.hold(onAbandon: { PostgresCatalogStore.drop(connection) }) else {
                PostgresCatalogStore.drop(connection)
                throw CancellationError()
            }
            do {
                try await connection.listen(on: PostgresEditTransaction.channel) { notifications in
                    guard race.enter(onAbandon: { PostgresCatalogStore.drop(connection) }) else { throw CancellationError() }
                    listening()
                    for try await notification in notifications {
                        continuation.yield(.changed(sequence: Int64(notification.payload)))
                    }
                }
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        }
    }
}
