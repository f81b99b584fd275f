import Foundation
import GlimpseCatalog
import GlimpseStore
import GRDB

/// The store's tables, versioned: migration `n` takes a store from schema version `n` to `n + 1`; the
/// version lives in `store_meta` (a table a PostgreSQL store can have alike). The SQL is kept to what
/// SQLite and PostgreSQL both accept.
///
/// Version 2 keeps the photos' bytes in files (``PhotoFiles``) rather than in `photo_contents.bytes`,
/// which stays empty: its migration writes each content's file and empties its row in one transaction.
enum SQLiteSchema {
    /// The schema version this build reads and writes.
    static let version = 2

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
        // The bytes move to files; `file` names each content's file in the photo folder.
        "ALTER TABLE photo_contents ADD COLUMN file TEXT;",
    ]

    /// The schema version of an open store: 0 when it has no tables yet.
    static func currentVersion(_ db: Database) throws -> Int {
        guard try db.tableExists("store_meta") else { return 0 }
        return Int(try String.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'schema_version'") ?? "0") ?? 0
    }

    /// Runs the migrations from `found` to ``version``, and gives a new store its id.
    ///
    /// - Returns: how many photo contents moved from the database to files.
    @discardableResult
    static func migrate(_ db: Database, from found: Int, storeID: String, files: PhotoFiles) throws -> Int {
        var moved = 0
        for step in found..<version {
            try db.execute(sql: migrations[step])
            if step == 1 { moved = try moveBytesToFiles(db, files: files) }
        }
        if found == 0 {
            try db.execute(sql: "INSERT INTO store_meta (key, value) VALUES ('store_id', ?), ('sequence', '0'), "
                + "('labels_revision', '0'), ('schema_version', ?)", arguments: [storeID, String(version)])
        } else {
            try db.execute(sql: "UPDATE store_meta SET value = ? WHERE key = 'schema_version'", arguments: [String(version)])
        }
        return moved
    }

    /// Writes every content still held in `photo_contents.bytes` as its file and empties the row. The
    /// transaction commits after every file is on disk; if it does not, the files stay for the next try.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` for bytes that are not their content address's,
    ///   ``StoreError/io(path:reason:)`` when a file cannot be written (the store stays at version 1).
    static func moveBytesToFiles(_ db: Database, files: PhotoFiles) throws -> Int {
        let shas = try String.fetchAll(db, sql: "SELECT sha256 FROM photo_contents WHERE file IS NULL ORDER BY sha256")
        for sha in shas {
            guard StoredPhoto.isContentAddress(sha),
                  let data = try Data.fetchOne(db, sql: "SELECT bytes FROM photo_contents WHERE sha256 = ?", arguments: [sha])
            else { throw StoreError.corrupt(path: files.folder, reason: "a photo's SHA-256 is not 64 hexadecimal digits") }
            let bytes = [UInt8](data)
            guard SHA256.hex(SHA256.hash(bytes)) == sha else {
                throw StoreError.corrupt(path: files.folder, reason: "photo \(sha): its bytes do not match its SHA-256")
            }
            let name = try String.fetchOne(
                db, sql: "SELECT name FROM photos WHERE sha256 = ? ORDER BY place_id, position LIMIT 1", arguments: [sha])
            let file = StoredPhoto.fileName(sha256: sha, name: name ?? "")
            _ = try files.put(bytes, as: file)
            try db.execute(sql: "UPDATE photo_contents SET file = ?, bytes = X'' WHERE sha256 = ?", arguments: [file, sha])
        }
        return shas.count
    }
}
