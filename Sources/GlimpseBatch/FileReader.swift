#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole picture files for the batch, refusing anything that is not a regular file.
///
/// FIFOs, sockets and devices are rejected before they are opened (opening a FIFO would block),
/// and files are opened non-blocking so a file swapped for a FIFO in between cannot hang a worker.
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
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missing(path: path) }
            throw .unreadable(path: path, reason: Self.message(code))
        }
        try Self.checkRegular(path: path, mode: info.st_mode)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: Self.message(errno)) }
        defer { close(fd) }
        // Re-check on the descriptor: the path may have been replaced since `stat`.
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: Self.message(errno)) }
        try Self.checkRegular(path: path, mode: info.st_mode)
        let size = Int(info.st_size)
        guard size <= maxBytes else { throw .tooLarge(path: path, bytes: size, limit: maxBytes) }
        return try Self.readAll(fd: fd, expected: size, limit: maxBytes, path: path)
    }

    private static func checkRegular(path: String, mode: mode_t) throws(BatchError) {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw .isDirectory(path: path)
        case S_IFIFO: throw .notRegularFile(path: path, kind: "FIFO")
        case S_IFSOCK: throw .notRegularFile(path: path, kind: "socket")
        case S_IFCHR: throw .notRegularFile(path: path, kind: "character device")
        case S_IFBLK: throw .notRegularFile(path: path, kind: "block device")
        default: throw .notRegularFile(path: path, kind: "special file")
        }
    }

    /// Reads until end of file. The only raw-pointer code of the batch: `read(2)` into the
    /// array's spare capacity, bounded by `limit`.
    private static func readAll(fd: Int32, expected: Int, limit: Int, path: String) throws(BatchError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expected + 1)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                // safe because `raw` is the whole of `chunk`, alive for this call.
                systemRead(fd, raw.baseAddress, raw.count)
            }
            if count == 0 { return bytes }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .unreadable(path: path, reason: message(code))
            }
            guard bytes.count + count <= limit else {
                throw .tooLarge(path: path, bytes: bytes.count + count, limit: limit)
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    private static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// `read(2)`, named so it does not clash with ``FileReader/read(_:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
