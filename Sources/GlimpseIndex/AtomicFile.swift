// File I/O of index files: the only place in the module that calls the C library's file functions.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Crash-safe whole-file writes and size-checked reads.
///
/// A save writes a temporary file in the target's directory (`.<name>.tmp.<pid>.<n>`, created exclusively),
/// loops over short writes and `EINTR`, `fsync`s and closes it, renames it over the target and `fsync`s
/// the directory. A crash at any moment leaves either the old file or the new one, plus at most a stale
/// temporary file that ``removeStaleTemporaryFiles(forTarget:)`` deletes (call it at startup, before any save).
enum AtomicFile {
    /// Numbers the temporary files of this process, so concurrent saves never share one.
    private static let saves = Atomic<Int>(0)

    /// Replaces the file at `path` with `bytes`, durably and atomically.
    static func write(_ bytes: [UInt8], to path: String) throws(IndexFileError) {
        let (directory, name) = split(path)
        let serial = saves.add(1, ordering: .relaxed).newValue
        let temporary = directory + "/." + name + ".tmp.\(getpid()).\(serial)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "open", errno) }
        var closed = false
        var renamed = false
        defer {
            if !closed { _ = close(fd) }
            if !renamed { _ = unlink(temporary) }
        }
        let writeError: Int32 = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let chunk = min(raw.count - offset, 1 << 30)
                let written = Glibc_write(fd, raw.baseAddress.map { $0 + offset }, chunk)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return 0
        }
        guard writeError == 0 else { throw failure(path, "write", writeError) }
        guard fsync(fd) == 0 else { throw failure(path, "fsync", errno) }
        closed = true
        guard close(fd) == 0 else { throw failure(path, "close", errno) }
        guard rename(temporary, path) == 0 else { throw failure(path, "rename", errno) }
        renamed = true
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { throw failure(path, "open directory", errno) }
        defer { _ = close(directoryFD) }
        guard fsync(directoryFD) == 0 else { throw failure(path, "fsync directory", errno) }
    }

    /// Reads the whole file at `path`, first handing its leading `peekBytes` and its size to `check`,
    /// which may throw before the rest is read (so a bad header never causes a large allocation).
    static func read(
        _ path: String, peekBytes: Int, check: (UnsafeRawBufferPointer, Int) throws(IndexFileError) -> Void
    ) throws(IndexFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotRead(path: path, errno: errno) }
        defer { _ = close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .cannotRead(path: path, errno: errno) }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: min(size, peekBytes))
        let headError = readFully(fd, into: &bytes, from: 0)
        guard headError == 0 else { throw .cannotRead(path: path, errno: headError) }
        try withBytes(of: bytes) { (head) throws(IndexFileError) in try check(head, size) }
        guard size > bytes.count else { return bytes }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: size - start))
        let restError = readFully(fd, into: &bytes, from: start)
        guard restError == 0 else { throw .cannotRead(path: path, errno: restError) }
        return bytes
    }

    /// The size in bytes of the file at `path`, or `nil` when it cannot be examined.
    static func size(of path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// Deletes temporary files a crashed save left next to `path`; returns how many were removed.
    @discardableResult
    static func removeStaleTemporaryFiles(forTarget path: String) -> Int {
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

    /// Reads into `bytes[start...]` until full; returns 0 or the errno (EIO when the file shrank).
    private static func readFully(_ fd: Int32, into bytes: inout [UInt8], from start: Int) -> Int32 {
        bytes.withUnsafeMutableBytes { raw in
            var offset = start
            while offset < raw.count {
                let got = Glibc_read(fd, raw.baseAddress.map { $0 + offset }, min(raw.count - offset, 1 << 30))
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

    private static func failure(_ path: String, _ operation: String, _ code: Int32) -> IndexFileError {
        if code == ENOSPC || code == EDQUOT { return .noSpace(path: path) }
        return .cannotWrite(path: path, operation: operation, errno: code)
    }

    /// The directory (`.` when none) and the last component of `path`.
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

@inline(__always)
private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

@inline(__always)
private func Glibc_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

extension IndexFile {
    /// Saves `index` to `path` atomically and durably (temporary file, `fsync`, `rename`, directory `fsync`).
    /// - Throws: ``IndexFileError/noSpace(path:)`` or ``IndexFileError/cannotWrite(path:operation:errno:)``;
    ///   the previous file at `path`, if any, is then untouched.
    public static func save(_ index: FlatIndex, to path: String, tag: String = "") throws(IndexFileError) {
        try AtomicFile.write(encode(index, tag: tag), to: path)
    }

    /// Saves `index` to `path` atomically and durably (temporary file, `fsync`, `rename`, directory `fsync`).
    /// - Throws: ``IndexFileError/noSpace(path:)`` or ``IndexFileError/cannotWrite(path:operation:errno:)``;
    ///   the previous file at `path`, if any, is then untouched.
    public static func save(_ index: Int8FlatIndex, to path: String, tag: String = "") throws(IndexFileError) {
        try AtomicFile.write(encode(index, tag: tag), to: path)
    }

    /// Saves `index` to `path` atomically and durably (temporary file, `fsync`, `rename`, directory `fsync`).
    /// - Throws: ``IndexFileError/noSpace(path:)`` or ``IndexFileError/cannotWrite(path:operation:errno:)``;
    ///   the previous file at `path`, if any, is then untouched.
    public static func save(_ index: HNSWIndex, to path: String, tag: String = "") throws(IndexFileError) {
        try AtomicFile.write(encode(index, tag: tag), to: path)
    }

    /// Loads and fully validates the index file at `path`.
    ///
    /// The header is checked against the file size before the rest is read, and the checksum before
    /// anything is decoded.
    /// - Parameters:
    ///   - expectedDimension: when given, a file of another dimension is refused.
    ///   - expectedTag: when given, a file with another tag is refused.
    /// - Throws: ``IndexFileError`` naming the first check that failed.
    public static func load(
        from path: String, expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> LoadedIndex {
        let bytes = try AtomicFile.read(path, peekBytes: headerSize) { (head, size) throws(IndexFileError) in
            let header = try readHeader(head, expectedDimension: expectedDimension)
            guard let expected = header.fileSize else { throw .malformed("section lengths overflow") }
            guard size >= expected else { throw .truncated(expectedBytes: expected, actualBytes: size) }
            guard size == expected else { throw .trailingBytes(expectedBytes: expected, actualBytes: size) }
        }
        return try decode(bytes, expectedDimension: expectedDimension, expectedTag: expectedTag)
    }

    /// Loads the index file at `path` and requires it to hold a ``FlatIndex``.
    /// - Throws: ``IndexFileError/kindMismatch(expected:found:)`` for another kind, or any load error.
    public static func loadFlat(
        from path: String, expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> FlatIndex {
        let loaded = try load(from: path, expectedDimension: expectedDimension, expectedTag: expectedTag)
        guard case let .flat(index) = loaded.content else {
            throw .kindMismatch(expected: Kind.flat.description, found: loaded.kind.description)
        }
        return index
    }

    /// Loads the index file at `path` and requires it to hold an ``HNSWIndex``.
    /// - Throws: ``IndexFileError/kindMismatch(expected:found:)`` for another kind, or any load error.
    public static func loadHNSW(
        from path: String, expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> HNSWIndex {
        let loaded = try load(from: path, expectedDimension: expectedDimension, expectedTag: expectedTag)
        guard case let .hnsw(index) = loaded.content else {
            throw .kindMismatch(expected: Kind.hnsw.description, found: loaded.kind.description)
        }
        return index
    }

    /// Deletes temporary files that an interrupted save left next to `path`; returns how many were removed.
    ///
    /// Call it at startup, before this or another process starts saving to `path`.
    @discardableResult
    public static func removeStaleTemporaryFiles(forTarget path: String) -> Int {
        AtomicFile.removeStaleTemporaryFiles(forTarget: path)
    }
}
