import Foundation
import GlimpseStore
import PostgresNIO

/// One leased connection and the logger its queries log to: runs statements and transactions.
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger

    /// Runs a statement, reading and discarding its rows.
    ///
    /// The rows are read to the end because postgres-nio returns from `query` as soon as the row
    /// description arrives: an error the server sends after it (a `lock_timeout` on a
    /// `SELECT … FOR UPDATE`, a statement cancelled mid-way) is only thrown while reading. Left
    /// unread, it would abort the transaction silently and the next statement would fail instead
    /// ("current transaction is aborted", SQLSTATE 25P02), hiding the cause.
    func run(_ query: PostgresQuery) async throws {
        try checkOpen()
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    /// Every row of a query.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try checkOpen()
        return try await connection.query(query, logger: logger).collect()
    }

    /// Refuses to send a statement on a closed connection: postgres-nio would never answer it.
    private func checkOpen() throws {
        if connection.isClosed { throw PostgresErrors.ConnectionClosed() }
    }

    /// The first column of the first row, `nil` without rows.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        try await rows(query).first?.decode(T.self)
    }

    /// Runs `body` in a transaction begun by `begin`: committed when it returns, rolled back when it throws.
    func transaction<T>(_ begin: PostgresQuery = "BEGIN", _ body: (PostgresSession) async throws -> T) async throws -> T {
        try await run(begin)
        let value: T
        do {
            value = try await body(self)
        } catch {
            // A transaction that cannot be rolled back leaves the connection unusable: it is closed.
            do { try await run("ROLLBACK") } catch { PostgresCatalogStore.drop(connection) }
            throw error
        }
        try await run("COMMIT")
        return value
    }
}

/// The store's tables on PostgreSQL, versioned like the SQLite store's: migration `n` takes schema
/// version `n` to `n + 1`, and the version lives in `store_meta`. Photos' bytes and features are in the
/// database, so a daemon on a new host starts from the database alone.
enum PostgresSchema {
    /// The schema version this build reads and writes.
    static let version = 1

    /// The advisory lock key a migration holds, so two daemons starting at once migrate one after the other.
    static let migrationLock: Int64 = 0x676C_696D_7073_6531  // "glimpse1"

    /// Migration `n` brings schema version `n` to `n + 1`: its statements, run in order.
    static let migrations: [[PostgresQuery]] = [
        [
            "CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE labels (position BIGINT PRIMARY KEY, label TEXT NOT NULL UNIQUE)",
            """
            CREATE TABLE collections (id TEXT PRIMARY KEY, position BIGINT NOT NULL UNIQUE, name TEXT NOT NULL,
                summary TEXT NOT NULL, revision BIGINT NOT NULL)
            """,
            """
            CREATE TABLE places (id TEXT PRIMARY KEY, position BIGINT NOT NULL UNIQUE, fields TEXT NOT NULL,
                revision BIGINT NOT NULL)
            """,
            "CREATE INDEX places_by_revision ON places (revision)",
            """
            CREATE TABLE photo_contents (sha256 TEXT PRIMARY KEY, bytes BYTEA NOT NULL, byte_count BIGINT NOT NULL,
                features BYTEA, features_key TEXT)
            """,
            """
            CREATE TABLE photos (place_id TEXT NOT NULL REFERENCES places(id) ON DELETE CASCADE,
                position BIGINT NOT NULL, sha256 TEXT NOT NULL REFERENCES photo_contents(sha256), name TEXT NOT NULL,
                credit TEXT, PRIMARY KEY (place_id, position), UNIQUE (place_id, sha256))
            """,
            "CREATE INDEX photos_by_sha256 ON photos (sha256)",
            "CREATE INDEX photos_by_name ON photos (name)",
            """
            CREATE TABLE changes (sequence BIGINT PRIMARY KEY, at_ms BIGINT NOT NULL, kind TEXT NOT NULL,
                entity_type TEXT NOT NULL, entity_id TEXT NOT NULL)
            """,
        ],
    ]

    /// Brings the database to ``version`` in one transaction under the migration lock, giving a new
    /// store its id.
    ///
    /// - Returns: the store's id.
    /// - Throws: ``StoreError/schemaTooNew(path:found:supported:)`` when a newer Glimpse wrote it.
    static func migrate(_ session: PostgresSession, target: String) async throws -> String {
        try await session.transaction { session in
            // A migration may take as long as the tables are large, and waits for another daemon's.
            try await session.run("SET LOCAL statement_timeout = 0")
            try await session.run("SET LOCAL lock_timeout = 0")
            try await session.run("SELECT pg_advisory_xact_lock(\(migrationLock))")
            var found = 0
            if try await session.value("SELECT to_regclass('store_meta') IS NOT NULL", as: Bool.self) == true {
                let text = try await session.value("SELECT value FROM store_meta WHERE key = 'schema_version'", as: String.self)
                found = text.flatMap { Int($0) } ?? 0
            }
            guard found <= version else { throw StoreError.schemaTooNew(path: target, found: found, supported: version) }
            for step in found..<version {
                for statement in migrations[step] { try await session.run(statement) }
            }
            if found == 0 {
                let id = UUID().uuidString.lowercased()
                try await session.run("""
                    INSERT INTO store_meta (key, value) VALUES ('store_id', \(id)), ('sequence', '0'),
                    ('labels_revision', '0'), ('schema_version', \(String(version)))
                    """)
            } else if found < version {
                try await session.run("UPDATE store_meta SET value = \(String(version)) WHERE key = 'schema_version'")
            }
            return try StoredCatalog.checkedStoreID(
                try await session.value("SELECT value FROM store_meta WHERE key = 'store_id'", as: String.self) ?? "",
                of: "the catalog database")
        }
    }
}
