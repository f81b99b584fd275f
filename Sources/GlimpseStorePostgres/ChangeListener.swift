import GlimpseStore
import Logging
import PostgresNIO

/// Listens on `glimpse_catalog` on a connection of its own and turns what it hears into
/// ``StoreSignal``s; when the connection drops it says so once, then reconnects with capped
/// exponential backoff and says when it listens again.
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
        var lost = false
        var first = true
        var wait = Self.firstWait
        while !Task.isCancelled {
            let reason: String
            do {
                try await listenOnce {
                    if lost { continuation.yield(.connectionRestored) } else if first { continuation.yield(.changed(sequence: nil)) }
                    first = false
                    lost = false
                    wait = Self.firstWait
                }
                reason = "the server ended the notification stream"
            } catch {
                reason = PostgresErrors.storeError(error, target: settings.target).description
            }
            if Task.isCancelled { break }
            if !lost {
                logger.warning("catalog change listener lost its connection", metadata: ["reason": "\(reason)"])
                continuation.yield(.connectionLost(reason: reason))
                lost = true
            }
            do {
                try await Task.sleep(for: wait)
            } catch {
                break
            }
            wait = min(wait * 2, Self.longestWait)
        }
    }

    /// Connects, listens, calls `listening` once the `LISTEN` took effect, and yields every
    /// notification until the connection drops or the task is cancelled.
    private func listenOnce(listening: () -> Void) async throws {
        var configuration = try settings.connectionConfiguration()
        configuration.options.additionalStartupParameters = [("application_name", "glimpse-listener")]
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            try await connection.listen(on: PostgresEditTransaction.channel) { notifications in
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
