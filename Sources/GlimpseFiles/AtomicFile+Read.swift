// The one whole-file reader of the package: every file Glimpse reads whole (pictures, models, index
// files, the feature cache) goes through `AtomicFile.read` or `AtomicFile.readAll`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AtomicFile {
    /// Reads the whole file at `path`, first handing its leading `peekBytes` bytes and its size to
    /// `check`, which may throw before the rest is read, so a file with a bad header or an impossible
    /// size never causes a large allocation.
    ///
    /// The rule for every whole-file read: only regular files are read. A FIFO, socket or device is
    /// refused before it is opened (opening a FIFO would block) and a directory as `EISDIR`; the file
    /// is opened non-blocking and checked again on the descriptor, in case the path was swapped in
    /// between. A file larger than `maxBytes` is refused before it is read, and so is one that grows
    /// past it while being read. The file is read to its end, so files that report no size (such as
    /// those in `/proc`) are read whole.
    ///
    /// - Parameters:
    ///   - maxBytes: the largest file accepted.
    ///   - peekBytes: how many leading bytes `check` sees (all of them when the file is shorter).
    ///   - mapError: turns a failure to open, examine or read the file, or its refusal, into the
    ///     caller's error type.
    ///   - check: receives the leading bytes and the file's size in bytes; throws to refuse the file.
    /// - Returns: the file's contents.
    /// - Throws: what `check` throws, or `mapError` of a ``FileError``.
    public static func read<Failure: Error>(
        _ path: String, maxBytes: Int = .max, peekBytes: Int, mapError: (FileError) -> Failure,
        check: (_ head: [UInt8], _ size: Int) throws(Failure) -> Void
    ) throws(Failure) -> [UInt8] {
        let file: OpenFile
        var bytes: [UInt8]
        do throws(FileError) {
            file = try OpenFile(path, maxBytes: maxBytes)
            bytes = try file.read(upTo: min(file.size, max(peekBytes, 0)))
        } catch {
            throw mapError(error)
        }
        defer { file.close() }
        try check(bytes, file.size)
        do throws(FileError) {
            try file.readRest(into: &bytes, expected: file.size)
        } catch {
            throw mapError(error)
        }
        return bytes
    }

    /// The whole contents of the file at `path`, under the rule of ``read(_:maxBytes:peekBytes:mapError:check:)``.
    /// - Throws: ``FileError`` when the file cannot be opened or read, or is refused.
    public static func readAll(_ path: String, maxBytes: Int = .max) throws(FileError) -> [UInt8] {
        try read(path, maxBytes: maxBytes, peekBytes: 0, mapError: { $0 }) { (_, _) throws(FileError) in }
    }
}

/// A regular file opened for reading, with its size.
struct OpenFile {
    let path: String
    let fd: Int32
    let size: Int
    let maxBytes: Int

    /// Opens `path` after checking, by the path and again by the descriptor, that it is a regular file
    /// of at most `maxBytes` bytes.
    init(_ path: String, maxBytes: Int) throws(FileError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileError(path: path, operation: .open, code: errno) }
        try Self.checkKind(status.st_mode, path: path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, operation: .open, code: errno) }
        guard fstat(fd, &status) == 0 else {
            let code = errno
            _ = posixClose(fd)
            throw FileError(path: path, operation: .stat, code: code)
        }
        let size = max(Int(status.st_size), 0)
        do throws(FileError) {
            try Self.checkKind(status.st_mode, path: path)
            guard size <= maxBytes else { throw FileError(path: path, tooLarge: size, limit: maxBytes) }
        } catch {
            _ = posixClose(fd)
            throw error
        }
        self.path = path
        self.fd = fd
        self.size = size
        self.maxBytes = maxBytes
    }

    /// Refuses anything but a regular file: a directory as `EISDIR`, like a read of it would fail.
    static func checkKind(_ mode: mode_t, path: String) throws(FileError) {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw FileError(path: path, operation: .read, code: EISDIR)
        case S_IFIFO: throw FileError(path: path, notRegular: "FIFO")
        case S_IFSOCK: throw FileError(path: path, notRegular: "socket")
        case S_IFCHR: throw FileError(path: path, notRegular: "character device")
        case S_IFBLK: throw FileError(path: path, notRegular: "block device")
        default: throw FileError(path: path, notRegular: "special file")
        }
    }

    func close() { _ = posixClose(fd) }

    /// `prefix` followed by up to `count` bytes from the current position: fewer only when the file
    /// ends first. Reads straight into the new array.
    func read(upTo count: Int, after prefix: [UInt8] = []) throws(FileError) -> [UInt8] {
        // Nothing to read: an empty array as it is. `Array(unsafeUninitializedCapacity: 0)` stores its
        // count into the one shared empty-array storage, a data race between threads reading files at
        // once (ThreadSanitizer reports it).
        guard count > 0 || !prefix.isEmpty else { return [] }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: prefix.count + count) { buffer, initialized in
            for byte in prefix {
                buffer[initialized] = byte
                initialized += 1
            }
            let raw = UnsafeMutableRawBufferPointer(buffer)
            let end = prefix.count + count
            while initialized < end {
                let got = posixRead(fd, raw.baseAddress.map { $0 + initialized },
                                    min(end - initialized, AtomicFile.largestTransfer))
                if got < 0, errno == EINTR { continue }
                if got < 0 { failure = errno }
                if got <= 0 { return }
                initialized += got
            }
        }
        guard failure == 0 else { throw FileError(path: path, operation: .read, code: failure) }
        return bytes
    }

    /// Reads from the current position to the end of the file onto `bytes`, expecting `expected`
    /// bytes in all but following the file if it grew, up to ``maxBytes``.
    func readRest(into bytes: inout [UInt8], expected: Int) throws(FileError) {
        if expected > bytes.count {
            bytes = try read(upTo: expected - bytes.count, after: bytes)
        }
        // The file may have grown since it was measured (or reports no size, like files in /proc).
        while true {
            let chunk = try read(upTo: 1 << 16)
            if chunk.isEmpty { return }
            guard bytes.count + chunk.count <= maxBytes else {
                throw FileError(path: path, tooLarge: bytes.count + chunk.count, limit: maxBytes)
            }
            bytes += chunk
        }
    }
}

// The C library's read and close under names that `OpenFile`'s methods do not shadow.

@inline(__always)
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always)
private func posixClose(_ fd: Int32) -> Int32 {
    close(fd)
}
