import Foundation
import GlimpseCatalog
import GlimpseFiles

/// A folder of a store's photos as files, named by content (`<sha256>.<ext>`), so that a ``Catalog``
/// built from a store has photo paths like one read from a folder. Files are written read-only and
/// atomically when missing (or of the wrong size) from the store's bytes. For a store that keeps its
/// photos in a database (PostgreSQL) the folder is a cache, and deleting it loses nothing; a SQLite
/// store keeps its photos as files in this very folder (`SQLiteCatalogStore.photoFolder`), so every
/// file is already there and nothing is written twice. A file is named only after a checked content
/// address (``StoredPhoto/isContentAddress(_:)``) and written only with bytes whose SHA-256 is that address.
public struct PhotoFolder: Sendable {
    /// The folder's path.
    public let path: String

    /// A folder at `path` (created when photos are first written).
    public init(path: String) {
        self.path = path
    }

    /// The file a stored photo is materialised as.
    public func file(for photo: StoredPhoto) -> String { path + "/" + photo.fileName }

    /// Writes `photos` that are missing from the folder, from their own bytes: an edit's new photos,
    /// written once the edit is committed (a refused edit leaves nothing behind).
    ///
    /// - Throws: ``StoreError/photoCache(path:reason:)`` when the folder or a file cannot be written.
    public func write(_ photos: some Sequence<NewPhoto>) throws(StoreError) {
        var created = false
        for photo in photos {
            if !created {
                try createFolder()
                created = true
            }
            let file = path + "/" + StoredPhoto.fileName(sha256: photo.sha256, name: photo.name)
            if AtomicFile.size(of: file) != photo.bytes.count { try store(photo.bytes, sha256: photo.sha256, as: file) }
        }
    }

    /// Writes every photo of `places` missing from the folder, reading its bytes from `store`.
    ///
    /// - Returns: the number of files written.
    /// - Throws: ``StoreError/photoCache(path:reason:)`` when the folder or a file cannot be written, and the
    ///   store's errors when bytes cannot be read.
    @discardableResult
    public func materialize(_ places: some Sequence<StoredPlace>, from store: any CatalogStore) async throws(StoreError) -> Int {
        try createFolder()
        var written = 0
        var seen = Set<String>()
        for place in places {
            for photo in place.photos where seen.insert(photo.fileName).inserted {
                let file = file(for: photo)
                if AtomicFile.size(of: file) == photo.byteCount { continue }
                try self.store(try await store.photoBytes(sha256: photo.sha256), sha256: photo.sha256, as: file)
                written += 1
            }
        }
        return written
    }

    /// Writes `bytes` as the folder's file `fileName` (`<sha256>.<ext>`), when they are that photo's bytes
    /// and the file is missing or of another size.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` when `fileName` does not name these bytes,
    ///   ``StoreError/photoCache(path:reason:)`` when the file cannot be written.
    public func refill(_ fileName: String, with bytes: [UInt8]) throws(StoreError) {
        guard let dot = fileName.firstIndex(of: "."), !fileName.contains("/"),
              fileName == StoredPhoto.fileName(sha256: String(fileName[..<dot]), name: fileName)
        else { throw .corrupt(path: "the photo cache", reason: "a file name that is not a photo's content address") }
        let file = path + "/" + fileName
        guard AtomicFile.size(of: file) != bytes.count else { return }
        try createFolder()
        try store(bytes, sha256: String(fileName[..<dot]), as: file)
    }

    /// What is wrong with the folder's files for `places`: a file of another size, or whose bytes are
    /// not the photo's (a missing file is no problem: it is written when next needed).
    public func problems(places: [StoredPlace]) -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for place in places {
            for photo in place.photos where seen.insert(photo.fileName).inserted {
                let file = file(for: photo)
                guard let size = AtomicFile.size(of: file) else { continue }
                let bytes: [UInt8]
                do throws(FileError) { bytes = try AtomicFile.readAll(file, maxBytes: size) } catch {
                    problems.append("photo cache file \(photo.fileName) cannot be read: \(error.reason)")
                    continue
                }
                if size != photo.byteCount || SHA256.hex(SHA256.hash(bytes)) != photo.sha256 {
                    problems.append("photo cache file \(photo.fileName) does not hold the photo's bytes; delete it "
                        + "(the daemon writes it again from the store)")
                }
            }
        }
        return problems
    }

    private func createFolder() throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .photoCache(path: path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
    }

    /// Writes `bytes` as `file`, atomically and read-only, once `sha256` is known to be their content address.
    private func store(_ bytes: [UInt8], sha256: String, as file: String) throws(StoreError) {
        guard StoredPhoto.isContentAddress(sha256), SHA256.hex(SHA256.hash(bytes)) == sha256 else {
            throw .corrupt(path: "the photo cache", reason: "a stored photo's bytes do not match its SHA-256")
        }
        do throws(FileError) {
            try AtomicFile.replace(file, with: bytes)
        } catch {
            throw .photoCache(path: file, reason: error.reason)
        }
        chmod(file, 0o444)
    }
}
