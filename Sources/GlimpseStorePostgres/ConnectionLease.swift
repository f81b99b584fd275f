import GlimpseStore
import Logging
import PostgresNIO

extension PostgresCatalogStore {
    /// Runs `body` on a leased connection, mapping errors, within two deadlines (``CallRace``): a
    /// connection not leased within the connect timeout (the server is down or unreachable) is
    /// ``StoreError/unavailable(reason:)``, thrown as soon as the timeout passes; a body that has not
    /// ended `runLimit` after the lease (a server that stopped answering, a connection that closed
    /// under a statement) is ``StoreError/unavailable(reason:)`` too, and its connection is closed so
    /// that the pool never lends it again. A cancelled caller is answered at once the same way. The
    /// lease and its deadlines run as tasks preferring `executor` (`nil`: the global concurrent executor).
    static func lease<T: Sendable>(
        _ client: PostgresClient, settings: ConnectionSettings, logger: Logger, on executor: (any TaskExecutor)?,
        runLimit: Duration? = nil, sleep: @escaping CallRace<T>.Sleep = { try await Task.sleep(for: $0) },
        _ body: @escaping @Sendable (PostgresSession) async throws -> T
    ) async throws(StoreError) -> T {
        let target = settings.target
        let run = runLimit ?? settings.callTimeout
        let limits = CallRace<T>.Limits(
            wait: settings.connectTimeout,
            waitExpired: .unavailable(reason: "no connection to \(target) within \(settings.connectTimeout.components.seconds) s"),
            run: run,
            runExpired: .unavailable(reason: "\(target) did not answer within \(run.components.seconds) s; "
                + "the connection was dropped"))
        return try await CallRace.run(limits: limits, executor: executor, sleep: sleep,
                                      mapError: { PostgresErrors.storeError($0, target: target) }) { race in
            try await client.withConnection { connection in
                guard !connection.isClosed else { throw PostgresErrors.ConnectionClosed() }
                guard race.enter(onAbandon: { Self.drop(connection) }) else { throw CancellationError() }
                do {
                    return try await body(PostgresSession(connection: connection, logger: logger))
                } catch {
                    // A connection that failed under a statement, or whose transaction could not be
                    // ended, is closed before the pool takes it back: it is never lent again.
                    if PostgresErrors.leavesConnectionUnusable(error) || connection.isClosed { Self.drop(connection) }
                    throw error
                }
            }
        }
    }

    /// Closes `connection` now (the pool notices and removes it); a close that fails is no concern.
    static func drop(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in }
    }
}
