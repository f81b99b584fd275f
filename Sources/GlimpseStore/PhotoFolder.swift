import Foundation
import GlimpseFiles

/// A folder of a store's photos as files, named by content (`<sha256>.<ext>`), so that a ``Catalog``
/// built from a store has photo paths like one read from a folder. It is a cache: files are written
/// read-only and atomically when missing (or of the wrong size) from the store's bytes, and deleting
/// the folder loses nothing.
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
    /// written before the edit is committed, so that serving it afterwards writes nothing (a file whose
    /// edit is then refused is an unused cache entry, named by its content).
    ///
    /// - Throws: ``StoreError/io(path:reason:)`` when the folder or a file cannot be written.
    public func write(_ photos: some Sequence<NewPhoto>) throws(StoreError) {
        var created = false
        for photo in photos {
            if !created {
                try createFolder()
                created = true
            }
            let file = path + "/" + StoredPhoto.fileName(sha256: photo.sha256, name: photo.name)
            if AtomicFile.size(of: file) != photo.bytes.count { try store(photo.bytes, as: file) }
        }
    }

    /// Writes every photo of `places` missing from the folder, reading its bytes from `store`.
    ///
    /// - Returns: the number of files written.
    /// - Throws: ``StoreError/io(path:reason:)`` when the folder or a file cannot be written, and the
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
                try self.store(try await store.photoBytes(sha256: photo.sha256), as: file)
                written += 1
            }
        }
        return written
    }

    private func createFolder() throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .io(path: path, reason: "cannot create the photo folder: \(error.localizedDescription)")
        }
    }

    /// Writes `bytes` as `file`, atomically and read-only.
    private func store(_ bytes: [UInt8], as file: String) throws(StoreError) {
        do throws(FileError) {
            try AtomicFile.replace(file, with: bytes)
        } catch {
            throw .io(path: file, reason: error.reason)
        }
        chmod(file, 0o444)
    }
}
