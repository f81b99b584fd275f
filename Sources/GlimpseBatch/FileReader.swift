#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseFiles

/// Reads whole picture files for the batch under GlimpseFiles' one rule: regular files only
/// (FIFOs, sockets and devices are refused before they are opened), opened non-blocking, at most
/// ``maxBytes``. Failures are ``BatchError``s.
public struct FileReader: Sendable {
    /// The largest file accepted, in bytes.
    public var maxBytes: Int

    /// Creates a reader that accepts files up to `maxBytes` (default 64 MiB).
    public init(maxBytes: Int = 64 << 20) {
        self.maxBytes = maxBytes
    }

    /// Whether anything exists at `path` (following symbolic links).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Returns every byte of the file at `path`.
    ///
    /// - Throws: ``BatchError`` saying why the file was refused or could not be read.
    public func read(_ path: String) throws(BatchError) -> [UInt8] {
        do throws(FileError) {
            return try AtomicFile.readAll(path, maxBytes: maxBytes)
        } catch {
            throw BatchError(reading: error)
        }
    }
}

extension BatchError {
    /// The batch's error for a file that could not be read or was refused.
    init(reading error: FileError) {
        if let kind = error.refusedKind {
            self = .notRegularFile(path: error.path, kind: kind)
        } else if let bytes = error.refusedSize, let limit = error.sizeLimit {
            self = .tooLarge(path: error.path, bytes: bytes, limit: limit)
        } else if error.code == EISDIR {
            self = .isDirectory(path: error.path)
        } else if error.operation == .open, error.code == ENOENT || error.code == ENOTDIR {
            self = .missing(path: error.path)
        } else {
            self = .unreadable(path: error.path, reason: error.systemMessage)
        }
    }
}
