#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GRDB

/// A SQLite store's photo contents: one read-only file per content, `<sha256>.<ext>` in the folder
/// beside the database (`<store>.photos/`), which the row in `photo_contents` names (column `file`).
///
/// The files are the store's only copy of the photos' bytes (the database keeps their size, features and
/// names), and the served catalog's photo paths point at them, so a photo takes its size once on disk.
/// A file is written and flushed, with its folder, before the transaction that refers to it commits,
/// and removed after the transaction that drops the last reference commits; a transaction that does not
/// commit removes the files it created. What a crash leaves between those steps is a file no row names,
/// which ``sweep(keeping:)`` removes when the store is next opened for writing.
struct PhotoFiles: Sendable {
    /// The folder's path.
    let folder: String

    /// The path of the folder's file `file`.
    func path(_ file: String) -> String { folder + "/" + file }

    /// Whether `file` is the name of a content's file, `<sha256>.<ext>` as ``StoredPhoto/fileName(sha256:name:)``
    /// writes it, with `sha256` its content address. Nothing read from a row names a file before this holds.
    static func isFileName(_ file: String, sha256: String) -> Bool {
        StoredPhoto.isContentAddress(sha256) && file == StoredPhoto.fileName(sha256: sha256, name: file)
            && file.hasPrefix(sha256 + ".")
    }

    /// Makes sure the folder's file `file` holds `bytes` (whose SHA-256 the name carries), writing it
    /// durably when it is missing or holds anything else.
    ///
    /// - Returns: whether the file did not exist before (the caller removes it if its transaction fails).
    /// - Throws: ``StoreError/io(path:reason:)`` when the folder or the file cannot be written.
    func put(_ bytes: [UInt8], as file: String) throws(StoreError) -> Bool {
        let target = path(file)
        let size = AtomicFile.size(of: target)
        if size == bytes.count, (try? AtomicFile.readAll(target, maxBytes: bytes.count)) == bytes { return false }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder, reason: "cannot create the photo folder: \(error.localizedDescription)")
        }
        do throws(FileError) {
            try AtomicFile.replace(target, with: bytes)
        } catch {
            throw .io(path: target, reason: "cannot write the photo: \(error.reason)")
        }
        chmod(target, 0o444)
        return size == nil
    }

    /// The bytes of the content `sha256`, read from its file `file` and checked against its size and hash.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` when the name is not the content's, the file is
    ///   missing, or it holds other bytes; ``StoreError/io(path:reason:)`` when it cannot be read.
    func read(_ file: String, sha256: String, byteCount: Int) throws(StoreError) -> [UInt8] {
        guard Self.isFileName(file, sha256: sha256) else {
            throw .corrupt(path: folder, reason: "a photo's row names a file that is not its content address")
        }
        let target = path(file)
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try AtomicFile.readAll(target, maxBytes: byteCount)
        } catch {
            if error.code == ENOENT {
                throw .corrupt(path: target, reason: "the photo's file is missing; restore the photo folder from the "
                    + "backup taken with the database, or remove the photo and add it again")
            }
            if error.refusedSize != nil {
                throw .corrupt(path: target, reason: "the photo's file is larger than the photo")
            }
            throw .io(path: target, reason: error.reason)
        }
        guard bytes.count == byteCount, SHA256.hex(SHA256.hash(bytes)) == sha256 else {
            throw .corrupt(path: target, reason: "the photo's file does not hold the photo's bytes")
        }
        return bytes
    }

    /// The bytes of the content `sha256` as its row in `photo_contents` names them, read with
    /// ``read(_:sha256:byteCount:)``; `nil` when no row has this content.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` when the row names no file or the file is not the
    ///   content's; ``StoreError/io(path:reason:)`` when it cannot be read; the database's error when the
    ///   row cannot be read.
    func read(sha256: String, in db: Database) throws -> [UInt8]? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT file, byte_count FROM photo_contents WHERE sha256 = ?", arguments: [sha256])
        else { return nil }
        guard let file = row[0] as String? else {
            throw StoreError.corrupt(path: folder, reason: "a photo's row names no file (a damaged or forged row)")
        }
        return try read(file, sha256: sha256, byteCount: row[1])
    }

    /// Removes the folder's files `files`, where they exist; a file that cannot be removed is left for
    /// ``sweep(keeping:)``.
    func remove(_ files: some Sequence<String>) {
        for file in files where !file.contains("/") { _ = unlink(path(file)) }
    }

    /// Removes the files of the folder that are not in `keeping`: contents no row names any more, and
    /// interrupted writes' temporary files. Files whose names Glimpse never writes are left alone.
    ///
    /// Call it only while holding the store's writer's lock, before any edit runs.
    /// - Returns: how many files were removed.
    @discardableResult
    func sweep(keeping: Set<String>) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names where !keeping.contains(name) {
            let isOurs: Bool
            if name.hasPrefix("."), let tmp = name.range(of: ".tmp.") {
                isOurs = Self.isOwnName(String(name[name.index(after: name.startIndex)..<tmp.lowerBound]))
            } else {
                isOurs = Self.isOwnName(name)
            }
            if isOurs, unlink(path(name)) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether `name` is a name this folder's files take, `<sha256>.<ext>`.
    private static func isOwnName(_ name: String) -> Bool {
        guard let dot = name.firstIndex(of: ".") else { return false }
        return isFileName(name, sha256: String(name[..<dot]))
    }
}

/// The photo files one write transaction creates and stops using, so that they can be removed when
/// it does not commit (the created ones) or once it has (the unused ones).
final class PhotoFileJournal {
    /// The store's photo files.
    let files: PhotoFiles
    /// Files the transaction created, removed if it does not commit.
    private(set) var created: [String] = []
    /// Files of contents the transaction deleted, removed once it commits unless a row names them again.
    private(set) var released: [String] = []

    /// A journal for one transaction over `files`.
    init(_ files: PhotoFiles) {
        self.files = files
    }

    /// Writes `bytes` as `file` (see ``PhotoFiles/put(_:as:)``), noting it when created.
    func put(_ bytes: [UInt8], as file: String) throws(StoreError) {
        if try files.put(bytes, as: file) { created.append(file) }
    }

    /// Notes that the content whose file is `file` was deleted.
    func release(_ file: String) {
        released.append(file)
    }

    /// Removes the files the transaction created: it did not commit.
    func rollBack() {
        files.remove(created)
        created = []
    }

    /// Removes the released files that no row of `db` names, after the transaction committed.
    func commit(_ db: Database) throws {
        var unused: [String] = []
        for file in Set(released)
        where try Int.fetchOne(db, sql: "SELECT 1 FROM photo_contents WHERE file = ?", arguments: [file]) == nil {
            unused.append(file)
        }
        files.remove(unused)
        released = []
        created = []
    }
}
