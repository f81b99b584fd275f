import GRDB

/// The store's tables, versioned: migration `n` takes a store from schema version `n` to `n + 1`; the
/// version lives in `store_meta` (a table a PostgreSQL store can have alike). The SQL is kept to what
/// SQLite and PostgreSQL both accept.
enum SQLiteSchema {
    /// The schema version this build reads and writes.
    static let version = 1

    /// Migration `n` brings schema version `n` to `n + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE labels (position INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE);
        CREATE TABLE collections (
            id TEXT PRIMARY KEY, position INTEGER NOT NULL UNIQUE, name TEXT NOT NULL, summary TEXT NOT NULL,
            revision INTEGER NOT NULL);
        CREATE TABLE places (id TEXT PRIMARY KEY, position INTEGER NOT NULL UNIQUE, fields TEXT NOT NULL,
            revision INTEGER NOT NULL);
        CREATE TABLE photo_contents (sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL, byte_count INTEGER NOT NULL,
            features BLOB, features_key TEXT);
        CREATE TABLE photos (
            place_id TEXT NOT NULL REFERENCES places(id) ON DELETE CASCADE, position INTEGER NOT NULL,
            sha256 TEXT NOT NULL REFERENCES photo_contents(sha256), name TEXT NOT NULL, credit TEXT,
            PRIMARY KEY (place_id, position), UNIQUE (place_id, sha256));
        CREATE INDEX photos_by_sha256 ON photos (sha256);
        CREATE INDEX photos_by_name ON photos (name);
        CREATE TABLE changes (sequence INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, kind TEXT NOT NULL,
            entity_type TEXT NOT NULL, entity_id TEXT NOT NULL);
        """,
    ]

    /// The schema version of an open store: 0 when it has no tables yet.
    static func currentVersion(_ db: Database) throws -> Int {
        guard try db.tableExists("store_meta") else { return 0 }
        return Int(try String.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'schema_version'") ?? "0") ?? 0
    }

    /// Runs the migrations from `found` to ``version``, and gives a new store its id.
    static func migrate(_ db: Database, from found: Int, storeID: String) throws {
        for step in found..<version {
            try db.execute(sql: migrations[step])
        }
        if found == 0 {
            try db.execute(sql: "INSERT INTO store_meta (key, value) VALUES ('store_id', ?), ('sequence', '0'), "
                + "('labels_revision', '0'), ('schema_version', ?)", arguments: [storeID, String(version)])
        } else {
            try db.execute(sql: "UPDATE store_meta SET value = ? WHERE key = 'schema_version'", arguments: [String(version)])
        }
    }
}
