import Foundation
import GlimpseCatalog
public import GlimpseFiles
public import GlimpseStore
import GRDB
import Synchronization

/// The catalog store in one SQLite file (WAL, `synchronous=FULL`, foreign keys on), with a writer's
/// lock beside it (`<path>.lock`) and its photos' bytes in files beside it, `<path>.photos/<sha256>.<ext>`
/// (``PhotoFiles``): the database and that folder are the store, and a backup copies both.
///
/// A store opened for writing holds an exclusive advisory lock for its life: the daemon holds it while
/// it serves, and `glimpse catalog` edits take it too, so two processes never write one store at cross
/// purposes. Opened for reading, it takes no lock and never writes.
public final class SQLiteCatalogStore: CatalogStore {
    /// How a store is opened.
    public enum Mode: Sendable {
        /// Reads and writes; takes the writer's lock, and runs migrations.
        case write
        /// Reads only; no lock; the schema must be current.
        case read
    }

    /// The database file's path.
    public let path: String
    /// The store's id, made when it was created.
    public let storeID: String
    /// The schema version (``SQLiteSchema/version`` once open).
    public let schemaVersion: Int
    /// How many photo files no row names (left by a crash between writing a photo and committing, or
    /// between committing and removing one) were removed when the store was opened for writing.
    public let strayPhotoFilesRemoved: Int
    /// How many photos moved from the database to the photo folder when the store was opened (a store
    /// of schema version 1, which kept them in the database).
    public let photosMovedToFiles: Int
    let queue: DatabaseQueue
    let photoFiles: PhotoFiles
    private let lock: Mutex<FileLock?>

    /// Opens the store at `path`: takes the writer's lock (in ``Mode/write``), runs the migrations and a
    /// quick integrity check.
    ///
    /// - Parameter create: make the file (and its folder) when missing; otherwise a missing file is an error.
    /// - Throws: ``StoreError/busy(path:holder:)`` at once when another process holds the store for
    ///   writing, ``StoreError/schemaTooNew(path:found:supported:)``, ``StoreError/corrupt(path:reason:)``
    ///   when the integrity check fails, ``StoreError/io(path:reason:)`` otherwise.
    public static func open(path: String, create: Bool = false, mode: Mode = .write) throws(StoreError) -> SQLiteCatalogStore {
        let exists = FileManager.default.fileExists(atPath: path)
        // SQLite would take an empty file for a new database, and a daemon would fill it again from its
        // catalog folder: a store that was truncated to nothing is refused, never silently refilled.
        if exists, AtomicFile.size(of: path) == 0 {
            throw .corrupt(path: path, reason: "the file is empty (0 bytes), which a store never is; restore it from a "
                + "backup, or remove the file to start a new store")
        }
        if !exists {
            guard create, mode == .write else {
                throw .io(path: path, reason: "there is no store there; create one with `glimpse catalog import FOLDER --store \(path)`")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            } catch {
                throw .io(path: path, reason: "cannot create its folder: \(error.localizedDescription)")
            }
        }
        var lock: FileLock?
        if mode == .write {
            do throws(FileLock.Failure) {
                lock = try FileLock.acquire(path + ".lock")
            } catch {
                switch error {
                case .held(_, let holder): throw .busy(path: path, holder: holder)
                case .failed(let lockPath, let reason): throw .io(path: lockPath, reason: reason)
                }
            }
        }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let files = PhotoFiles(folder: path + ".photos")
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let opened = try queue.writeWithoutTransaction { db throws -> Opened in
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard check == ["ok"] else {
                    throw StoreError.corrupt(path: path, reason: check.prefix(3).joined(separator: "; "))
                }
                if mode == .write { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
                let found = try SQLiteSchema.currentVersion(db)
                guard found <= SQLiteSchema.version else {
                    throw StoreError.schemaTooNew(path: path, found: found, supported: SQLiteSchema.version)
                }
                var moved = 0
                if found < SQLiteSchema.version {
                    guard mode == .write else {
                        throw StoreError.io(path: path, reason: "its schema is version \(found); open it for writing "
                            + "once (any `glimpse catalog` edit, or the daemon) to bring it to \(SQLiteSchema.version)")
                    }
                    try db.inTransaction {
                        moved = try SQLiteSchema.migrate(db, from: found, storeID: UUID().uuidString.lowercased(), files: files)
                        return .commit
                    }
                    // The moved bytes' pages are given back to the file system; without the room to
                    // rewrite the database they stay free pages, which later edits reuse.
                    if moved > 0 { try? db.execute(sql: "VACUUM") }
                }
                let id = try StoredCatalog.checkedStoreID(
                    try String.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'store_id'") ?? "", of: path)
                let swept = mode == .write ? files.sweep(keeping: try Self.namedPhotoFiles(db)) : 0
                return Opened(storeID: id, moved: moved, swept: swept)
            }
            return SQLiteCatalogStore(path: path, queue: queue, lock: lock, files: files, opened: opened)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// What opening found and did.
    private struct Opened: Sendable {
        let storeID: String
        let moved: Int
        let swept: Int
    }

    private init(path: String, queue: DatabaseQueue, lock: FileLock?, files: PhotoFiles, opened: Opened) {
        self.path = path
        self.queue = queue
        self.lock = Mutex(lock)
        self.photoFiles = files
        self.storeID = opened.storeID
        self.schemaVersion = SQLiteSchema.version
        self.photosMovedToFiles = opened.moved
        self.strayPhotoFilesRemoved = opened.swept
    }

    /// Every file of the photo folder a row names: each content's file, and the file each photo's own
    /// name gives it (``PhotoFolder`` writes one for a photo whose name's extension differs from the
    /// content's file).
    private static func namedPhotoFiles(_ db: Database) throws -> Set<String> {
        var named = Set(try String.fetchAll(db, sql: "SELECT file FROM photo_contents WHERE file IS NOT NULL"))
        let rows = try Row.fetchCursor(db, sql: "SELECT sha256, name FROM photos")
        while let row = try rows.next() {
            named.insert(StoredPhoto.fileName(sha256: row[0], name: row[1]))
        }
        return named
    }

    /// Maps a GRDB or store error thrown inside a database access to a ``StoreError``.
    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return .corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .io(path: path, reason: "the database is locked by another process; retry")
            default:
                return .io(path: path, reason: error.message ?? "\(error.resultCode)")
            }
        }
        return .io(path: path, reason: String(describing: error))
    }

    /// Runs `body` in a write transaction, mapping its errors.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await queue.write(body)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Runs `body` on a consistent snapshot, mapping its errors.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await queue.read(body)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    // MARK: - CatalogStore

    /// Everything but the photos' bytes (see ``CatalogStore/read(featuresKey:)``).
    public func read(featuresKey: String?) async throws(StoreError) -> StoredCatalog {
        let storeID = self.storeID
        return try await read { db in
            try StoreRows(db).catalog(storeID: storeID, features: FeatureChoice(featuresKey: featuresKey))
        }
    }

    /// The bytes of the photo with this SHA-256, read from its file and checked against its hash.
    ///
    /// - Throws: ``StoreError/notFound(type:id:)`` when no photo has these bytes,
    ///   ``StoreError/corrupt(path:reason:)`` when its file is missing or holds other bytes.
    public func photoBytes(sha256: String) async throws(StoreError) -> [UInt8] {
        let files = photoFiles
        // Read on the database's queue, which this process's edits also hold while they remove files: no
        // edit of this process removes the file between the row and the read.
        let bytes: [UInt8]?
        do throws(StoreError) {
            bytes = try await read { db in try files.read(sha256: sha256, in: db) }
        } catch {
            // A store opened for reading shares its files with the writer in another process (a daemon),
            // which may have deleted the photo, row and file, since the row was read: that is no damage.
            if case .corrupt = error,
               try await read({ db in try Int.fetchOne(db, sql: "SELECT 1 FROM photo_contents WHERE sha256 = ?", arguments: [sha256]) }) == nil {
                throw .notFound(type: "photo", id: sha256)
            }
            throw error
        }
        guard let bytes else { throw .notFound(type: "photo", id: sha256) }
        return bytes
    }

    /// Stores re-extracted features of a photo; the sequence number does not change.
    public func storeFeatures(_ features: EncodedFeatures, sha256: String, featuresKey: String) async throws(StoreError) {
        let blob = Data(features.bytes)
        let updated = try await write { db in
            try db.execute(sql: "UPDATE photo_contents SET features = ?, features_key = ? WHERE sha256 = ?",
                           arguments: [blob, featuresKey, sha256])
            return db.changesCount
        }
        if updated == 0 { throw .notFound(type: "photo", id: sha256) }
    }

    /// The change log after `sequence`, oldest first.
    public func changes(after sequence: Int64) async throws(StoreError) -> [CatalogChange] {
        try await read { db in try StoreRows(db).changes(after: sequence) }
    }

    /// What changed after `sequence`, read in one snapshot (see ``CatalogStore/delta(after:featuresKey:)``).
    public func delta(after sequence: Int64, featuresKey: String?) async throws(StoreError) -> CatalogDelta {
        let storeID = self.storeID
        return try await read { db in
            try StoreRows(db).delta(after: sequence, storeID: storeID, features: FeatureChoice(featuresKey: featuresKey))
        }
    }

    /// `nil`: a SQLite store has one writer, the process holding its lock, which knows its own edits.
    public func changeSignals() -> AsyncStream<StoreSignal>? { nil }

    /// Closes the database and releases the writer's lock; the store must not be used afterwards.
    public func close() async {
        try? queue.close()
        lock.withLock { $0 = nil }
    }

    /// Applies `edit` in one transaction, validated inside it against the stored state. Its new photos'
    /// files are on disk before it commits; the files it created are removed when it does not commit, and
    /// the files of photos it stopped using once it has.
    public func apply(_ edit: CatalogEdit) async throws(StoreError) -> AppliedEdit {
        let files = photoFiles
        do {
            return try await queue.writeWithoutTransaction { db throws -> AppliedEdit in
                let journal = PhotoFileJournal(files)
                var applied: AppliedEdit?
                do {
                    try db.inTransaction {
                        applied = try EditTransaction(db, files: journal).apply(edit)
                        return .commit
                    }
                } catch {
                    journal.rollBack()
                    throw error
                }
                // Committed: a file no row names any more goes; one that cannot be removed now is swept
                // at the next open.
                try? journal.commit(db)
                guard let applied else { throw StoreError.io(path: files.folder, reason: "the edit's transaction ended without an outcome") }
                return applied
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }
}
