// Whole-file I/O: the only place in the package's file formats that calls the C library's file functions.
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
    private static let largestTransfer = 1 << 30

    /// Replaces the file at `path` with `bytes`, atomically and durably.
    ///
    /// The directory must exist. On failure the previous file, if any, is untouched and no temporary
    /// file is left behind (except when only flushing the directory failed: see
    /// ``FileError/isAfterRename``).
    /// - Throws: ``FileError`` naming the step that failed.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
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
        let writeError: Int32 = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = posixWrite(fd, raw.baseAddress.map { $0 + offset }, min(raw.count - offset, largestTransfer))
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return 0
        }
        guard writeError == 0 else { throw FileError(path: path, operation: .write, code: writeError) }
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

    /// Reads the whole file at `path`, first handing its leading `peekBytes` bytes and its size to
    /// `check`, which may throw before the rest is read, so a file with a bad header or an impossible
    /// size never causes a large allocation.
    ///
    /// - Parameters:
    ///   - peekBytes: how many leading bytes `check` sees (all of them when the file is shorter).
    ///   - mapError: turns a failure to open or read the file into the caller's error type.
    ///   - check: receives the leading bytes and the file's size in bytes; throws to refuse the file.
    /// - Returns: the file's contents.
    /// - Throws: what `check` throws, or `mapError` of a ``FileError``.
    public static func read<Failure: Error>(
        _ path: String, peekBytes: Int, mapError: (FileError) -> Failure,
        check: (_ head: [UInt8], _ size: Int) throws(Failure) -> Void
    ) throws(Failure) -> [UInt8] {
        let fd: Int32
        let size: Int
        var bytes: [UInt8]
        do throws(FileError) {
            fd = try openForReading(path)
        } catch {
            throw mapError(error)
        }
        defer { _ = close(fd) }
        do throws(FileError) {
            size = try fileSize(fd, path)
            bytes = [UInt8](repeating: 0, count: min(size, max(peekBytes, 0)))
            let headError = readFully(fd, into: &bytes, from: 0)
            guard headError == 0 else { throw FileError(path: path, operation: .read, code: headError) }
        } catch {
            throw mapError(error)
        }
        try check(bytes, size)
        guard size > bytes.count else { return bytes }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: size - start))
        let restError = readFully(fd, into: &bytes, from: start)
        guard restError == 0 else { throw mapError(FileError(path: path, operation: .read, code: restError)) }
        return bytes
    }

    /// The whole contents of the file at `path`.
    /// - Throws: ``FileError`` when it cannot be opened or read.
    public static func readAll(_ path: String) throws(FileError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { _ = close(fd) }
        var bytes = [UInt8](repeating: 0, count: try fileSize(fd, path))
        let error = readFully(fd, into: &bytes, from: 0)
        guard error == 0 else { throw FileError(path: path, operation: .read, code: error) }
        // The file may have grown since it was measured (or reports no size, like files in /proc).
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: .read, code: errno)
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
        }
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

    private static func openForReading(_ path: String) throws(FileError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: .open, code: errno) }
        return fd
    }

    private static func fileSize(_ fd: Int32, _ path: String) throws(FileError) -> Int {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw FileError(path: path, operation: .stat, code: errno) }
        return max(Int(status.st_size), 0)
    }

    /// Reads into `bytes[start...]` until it is full; returns 0 or the errno (`EIO` when the file
    /// ended first, that is, it shrank while being read).
    private static func readFully(_ fd: Int32, into bytes: inout [UInt8], from start: Int) -> Int32 {
        bytes.withUnsafeMutableBytes { raw in
            var offset = start
            while offset < raw.count {
                let got = posixRead(fd, raw.baseAddress.map { $0 + offset }, min(raw.count - offset, largestTransfer))
                if got < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if got == 0 { return EIO }
                offset += got
            }
            return 0
        }
    }

    /// The directory (`.` when none, `/` for the root) and the last component of `path`.
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

// The C library's read and write under names that `AtomicFile.read` does not shadow.

@inline(__always)
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

@inline(__always)
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
