// Whole-file I/O, and the one write loop of the package's file formats (`AtomicFile.writeAll`, which slot files share).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Crash-safe replacement of whole files, and whole-file reads.
///
/// After ``replace(_:with:)`` returns, the new contents are on disk; if the process or the machine
/// stops at any moment before, the file holds either its old contents or the new ones, never a mix,
/// plus at most a stale temporary file (`.<name>.tmp.<pid>.<n>` beside it) that
/// ``removeStaleTemporaryFiles(forTarget:)`` deletes. Any number of threads and processes may replace
/// the same file at once: each writes its own temporary file, and the last rename wins.
public enum AtomicFile {
    /// Numbers the temporary files of this process, so concurrent replacements never share one.
    private static let replacements = Atomic<Int>(0)

    /// The largest single `read` or `write` request (Linux transfers at most about 2 GiB per call).
    static let largestTransfer = 1 << 30

    /// Replaces the file at `path` with `bytes`, atomically and durably.
    ///
    /// The directory must exist. On failure the previous file, if any, is untouched and no temporary
    /// file is left behind (except when only flushing the directory failed: see
    /// ``FileError/isAfterRename``).
    /// - Throws: ``FileError`` naming the step that failed.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
        try replace(path) { (sink: inout AtomicFileSink) throws(FileError) in try sink.write(contentsOf: bytes) }
    }

    /// Replaces the file at `path` with what `body` writes to the sink it is handed, in as many pieces as
    /// it likes, atomically and durably: how a file too large to assemble in memory (a matcher's index)
    /// is written. The sink keeps a running CRC-32 of everything written, for formats that end in one.
    ///
    /// On failure, `body`'s included, the previous file is untouched and the temporary file removed, as
    /// with ``replace(_:with:)``.
    /// - Throws: ``FileError`` naming the step that failed, or what `body` throws.
    public static func replace(
        _ path: String, writing body: (inout AtomicFileSink) throws(FileError) -> Void
    ) throws(FileError) {
        let (directory, name) = split(path)
        let serial = replacements.add(1, ordering: .relaxed).newValue
        let temporary = directory + "/." + name + ".tmp.\(getpid()).\(serial)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, operation: .createTemporary, code: errno) }
        var closed = false
        var renamed = false
        defer {
            if !closed { _ = close(fd) }
            if !renamed { _ = unlink(temporary) }
        }
        var sink = AtomicFileSink(descriptor: fd, path: path)
        try body(&sink)
        guard fsync(fd) == 0 else { throw FileError(path: path, operation: .fsync, code: errno) }
        closed = true
        guard close(fd) == 0 else { throw FileError(path: path, operation: .close, code: errno) }
        guard rename(temporary, path) == 0 else { throw FileError(path: path, operation: .rename, code: errno) }
        renamed = true
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw FileError(path: path, operation: .openDirectory, code: errno) }
        defer { _ = close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw FileError(path: path, operation: .fsyncDirectory, code: errno) }
    }

    /// The size in bytes of the file at `path`, or `nil` when it cannot be examined.
    public static func size(of path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// Deletes the temporary files that interrupted replacements left next to `path`; returns how
    /// many were removed.
    ///
    /// Call it at startup, before this or another process starts replacing `path`: it would also
    /// delete the temporary file of a replacement in progress.
    @discardableResult
    public static func removeStaleTemporaryFiles(forTarget path: String) -> Int {
        let (directory, name) = split(path)
        guard let dir = opendir(directory) else { return 0 }
        defer { closedir(dir) }
        let prefix = "." + name + ".tmp."
        var removed = 0
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if entryName.hasPrefix(prefix), unlink(directory + "/" + entryName) == 0 { removed += 1 }
        }
        return removed
    }

    /// The directory (`.` when none, `/` for the root) and the last component of `path`.
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

extension AtomicFile {
    /// Writes all of `raw` to the open file `fd`, at its current position or, with `offset`, at that
    /// offset (`pwrite`), retrying short writes and interrupted calls.
    ///
    /// - Returns: 0, or the `errno` of the failure (`EIO` when the system writes nothing).
    package static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer, at offset: Int?) -> Int32 {
        var done = 0
        while done < raw.count {
            let chunk = min(raw.count - done, largestTransfer)
            let start = raw.baseAddress.map { $0 + done }
            let written = if let offset { pwrite(fd, start, chunk, off_t(offset + done)) } else { write(fd, start, chunk) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            done += written
        }
        return 0
    }
}

/// Where ``AtomicFile/replace(_:writing:)`` hands its writer the temporary file: bytes appended in
/// order, counted and checksummed as they go.
public struct AtomicFileSink: ~Copyable {
    private let descriptor: Int32
    private let path: String
    /// The number of bytes written so far.
    public private(set) var count = 0
    /// The CRC-32 of every byte written so far.
    public private(set) var checksum = CRC32()

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Appends `raw` to the file.
    /// - Throws: ``FileError`` with the operation ``FileError/Operation/write`` (`ENOSPC` on a full disk).
    public mutating func write(_ raw: UnsafeRawBufferPointer) throws(FileError) {
        let code = AtomicFile.writeAll(descriptor, raw, at: nil)
        guard code == 0 else { throw FileError(path: path, operation: .write, code: code) }
        checksum.update(bytes: raw)
        count += raw.count
    }

    /// Appends the bytes of `values`, as they lie in memory (little-endian on every platform Glimpse runs on).
    /// - Throws: as ``write(_:)``.
    public mutating func write<T: BitwiseCopyable>(contentsOf values: [T]) throws(FileError) {
        let code = values.withUnsafeBytes { raw in
            let code = AtomicFile.writeAll(descriptor, raw, at: nil)
            if code == 0 { checksum.update(bytes: raw) }
            return code
        }
        guard code == 0 else { throw FileError(path: path, operation: .write, code: code) }
        count += values.count * MemoryLayout<T>.stride
    }
}
