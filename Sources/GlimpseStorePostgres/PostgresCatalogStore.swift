public import Foundation
public import GlimpseStore
public import GlimpseFiles
public import Logging
import PostgresNIO
import Synchronization

/// The catalog store in a PostgreSQL database, which several daemons on several hosts may write at
/// once: every edit is one transaction that locks the store's sequence first (so edits serialise),
/// is validated inside it as the SQLite store validates it, appends one change-log entry and notifies
/// `glimpse_catalog` with its sequence number. Photos' bytes and features are kept in the database.
///
/// Queries run on a pool of connections (postgres-nio's `PostgresClient`). Every call has deadlines:
/// one that cannot get a connection within the connect timeout, or whose statements have not ended
/// twice the statement timeout after it got one, throws ``StoreError/unavailable(reason:)`` at once
/// (the connection is then closed and never lent again); the server itself ends a statement or a wait
/// for a lock after the statement timeout. A cancelled call returns at once too.
/// ``changeSignals()`` listens on a connection of its own and reconnects when it drops.
public final class PostgresCatalogStore: CatalogStore {
    /// The store's id, made when its tables were created.
    public let storeID: String
    /// The schema version (``PostgresSchema/version`` once open).
    public let schemaVersion: Int
    /// Where the store is, for messages: a `postgres://` URL without the password.
    public let target: String

    let settings: ConnectionSettings
    let client: PostgresClient
    let logger: Logger
    /// Where the store's own tasks run (the pool, leases and their deadlines, change listeners); `nil`
    /// for Swift's global concurrent executor.
    let taskExecutor: (any TaskExecutor)?
    private let state: Mutex<Lifecycle>

    private struct Lifecycle {
        var runTask: Task<Void, Never>?
        var listeners: [Int: Task<Void, Never>] = [:]
        var nextListener = 0
        var closed = false
    }

    /// Opens the store in the database that `url` names (`postgres://user:password@host:port/db?sslmode=…`
    /// or `postgresql://…`; a host starting with `/` is a Unix-socket directory), or with no URL the one
    /// the libpq variables of `environment` name (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`,
    /// `PGDATABASE`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGCONNECT_TIMEOUT`); creates or migrates its tables.
    ///
    /// TLS follows `sslmode`: `disable`; `allow` and `prefer` (the default) use TLS when the server offers
    /// it, without verifying the certificate; `require` insists on TLS, unverified; `verify-ca` and
    /// `verify-full` verify the certificate against the system's roots or `sslrootcert` (and the host
    /// name, for `verify-full`). Unix sockets never use TLS.
    ///
    /// `taskExecutor` is where the store's own tasks run: the connection pool, each lease and its
    /// deadline, and the change listeners. The default, `nil`, is Swift's global concurrent executor,
    /// right for a daemon. A process whose global executor may be held by long computations for longer
    /// than the connect timeout (a test suite computing on every core) gives the store an executor of its
    /// own, so that a lease's many steps are not measured against a deadline that needs only one.
    ///
    /// - Throws: ``StoreError/invalid(reason:)`` for a malformed URL or setting,
    ///   ``StoreError/unavailable(reason:)`` when the server cannot be reached within the connect
    ///   timeout (`connect_timeout`, default 10 s), ``StoreError/schemaTooNew(path:found:supported:)``
    ///   when a newer Glimpse made the tables.
    public static func open(
        url: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "glimpse.store.postgres"),
        taskExecutor: (any TaskExecutor)? = nil, statementTimeout: Duration = .seconds(5)
    ) async throws(StoreError) -> PostgresCatalogStore {
        var parsed = try ConnectionSettings.parse(url: url, environment: environment)
        guard statementTimeout > .zero else {
            throw .invalid(reason: "the statement timeout must be positive; give a duration such as 5 s")
        }
        parsed.statementTimeout = statementTimeout
        let settings = parsed
        let client = PostgresClient(configuration: settings.clientConfiguration(), backgroundLogger: logger)
        let runTask = Task(executorPreference: taskExecutor) { await client.run() }
        do {
            let storeID = try await Self.lease(client, settings: settings, logger: logger, on: taskExecutor,
                                               runLimit: Self.bulkLimit) { session in
                try await PostgresSchema.migrate(session, target: settings.target)
            }
            return PostgresCatalogStore(settings: settings, client: client, logger: logger, taskExecutor: taskExecutor,
                                        runTask: runTask, storeID: storeID)
        } catch {
            runTask.cancel()
            await runTask.value
            throw error
        }
    }

    private init(settings: ConnectionSettings, client: PostgresClient, logger: Logger, taskExecutor: (any TaskExecutor)?,
                 runTask: Task<Void, Never>, storeID: String) {
        self.settings = settings
        self.client = client
        self.logger = logger
        self.taskExecutor = taskExecutor
        self.storeID = storeID
        self.schemaVersion = PostgresSchema.version
        self.target = settings.target
        state = Mutex(Lifecycle(runTask: runTask))
    }

    // MARK: - Connections

    /// How long a call that reads or writes the whole catalog (opening the store, reading the catalog)
    /// may run: its statements have no server-side limit.
    static let bulkLimit = Duration.seconds(600)

    /// Runs `body` on a leased connection of this store's pool, within the connect timeout and then
    /// `runLimit` (by default the settings' call timeout).
    func lease<T: Sendable>(
        runLimit: Duration? = nil, _ body: @escaping @Sendable (PostgresSession) async throws -> T
    ) async throws(StoreError) -> T {
        try await Self.lease(client, settings: settings, logger: logger, on: taskExecutor, runLimit: runLimit, body)
    }

    /// Runs `body` in a read-only transaction on one snapshot of the database; with `bulk`, without
    /// the statement timeout and within ``bulkLimit``.
    func snapshot<T: Sendable>(
        bulk: Bool = false, _ body: @escaping @Sendable (PostgresRows) async throws -> T
    ) async throws(StoreError) -> T {
        try await lease(runLimit: bulk ? Self.bulkLimit : nil) { session in
            try await session.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { session in
                if bulk { try await session.run("SET LOCAL statement_timeout = 0") }
                return try await body(PostgresRows(session: session))
            }
        }
    }

    // MARK: - CatalogStore

    /// Everything but the photos' bytes (see ``CatalogStore/read(featuresKey:)``).
    public func read(featuresKey: String?) async throws(StoreError) -> StoredCatalog {
        let storeID = self.storeID
        return try await snapshot(bulk: true) { rows in
            try await rows.catalog(storeID: storeID, features: FeatureChoice(featuresKey: featuresKey))
        }
    }

    /// The bytes of the photo with this SHA-256.
    public func photoBytes(sha256: String) async throws(StoreError) -> [UInt8] {
        let data = try await lease { session in
            try await session.value("SELECT bytes FROM photo_contents WHERE sha256 = \(sha256)", as: Data.self)
        }
        guard let data else { throw .notFound(type: "photo", id: sha256) }
        return [UInt8](data)
    }

    /// Applies `edit` in one transaction, serialised with every other writer's, validated inside it.
    /// Replacing the whole catalog may take as long as the catalog is large (``bulkLimit``, no
    /// statement timeout); every other edit has the call deadlines.
    public func apply(_ edit: CatalogEdit) async throws(StoreError) -> AppliedEdit {
        let bulk = if case .replaceCatalog = edit { true } else { false }
        return try await lease(runLimit: bulk ? Self.bulkLimit : nil) { session in
            try await session.transaction { session in
                if bulk { try await session.run("SET LOCAL statement_timeout = 0") }
                return try await PostgresEditTransaction(session).apply(edit)
            }
        }
    }

    /// Stores re-extracted features of a photo; the sequence number does not change.
    public func storeFeatures(_ features: EncodedFeatures, sha256: String, featuresKey: String) async throws(StoreError) {
        let blob = Data(features.bytes)
        let updated = try await lease { session in
            try await session.rows("""
                UPDATE photo_contents SET features = \(blob), features_key = \(featuresKey) WHERE sha256 = \(sha256)
                RETURNING sha256
                """).count
        }
        if updated == 0 { throw .notFound(type: "photo", id: sha256) }
    }

    /// The change log after `sequence`, oldest first.
    public func changes(after sequence: Int64) async throws(StoreError) -> [CatalogChange] {
        try await snapshot { rows in try await rows.changes(after: sequence) }
    }

    /// What changed after `sequence`, read in one snapshot (see ``CatalogStore/delta(after:featuresKey:)``).
    public func delta(after sequence: Int64, featuresKey: String?) async throws(StoreError) -> CatalogDelta {
        let storeID = self.storeID
        return try await snapshot { rows in
            try await rows.delta(after: sequence, storeID: storeID, features: FeatureChoice(featuresKey: featuresKey))
        }
    }

    /// A new stream of signs that the store changed, heard on a connection of its own that listens on
    /// `glimpse_catalog`: `.changed(sequence: nil)` once listening (catch up from the sequence last
    /// read, since edits before then went unheard), `.changed(sequence:)` for every committed edit (this store's too),
    /// `.connectionLost` once when that connection drops (or cannot be made), `.connectionRestored`
    /// when listening again after reconnecting (0.1 s doubling to 5 s between attempts). The stream
    /// ends when the store is closed or the consumer stops iterating.
    public func changeSignals() -> AsyncStream<StoreSignal>? {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreSignal.self, bufferingPolicy: .bufferingNewest(1024))
        let listener = ChangeListener(settings: settings, logger: logger, continuation: continuation)
        state.withLock { state in
            guard !state.closed else {
                continuation.finish()
                return
            }
            let id = state.nextListener
            state.nextListener += 1
            let task = Task(executorPreference: taskExecutor) { await listener.run() }
            state.listeners[id] = task
            continuation.onTermination = { [weak self] _ in
                task.cancel()
                self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// Stops the change listeners and the connection pool; the store must not be used afterwards.
    public func close() async {
        let (listeners, runTask) = state.withLock { state in
            state.closed = true
            defer {
                state.listeners = [:]
                state.runTask = nil
            }
            return (Array(state.listeners.values), state.runTask)
        }
        for listener in listeners { listener.cancel() }
        for listener in listeners { await listener.value }
        runTask?.cancel()
        await runTask?.value
    }

    deinit {
        state.withLock { state in
            for listener in state.listeners.values { listener.cancel() }
            state.runTask?.cancel()
        }
    }
}
