#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseFiles

/// Where batch records go: standard output or a file, one `write(2)` per record so that an
/// interrupted run leaves at most one incomplete record at the end.
public final class OutputSink {
    /// The path shown in error messages (`-` for standard output).
    public let path: String
    private let fd: Int32
    private let ownsDescriptor: Bool

    /// A sink writing to standard output.
    public static func standardOutput() -> OutputSink {
        OutputSink(path: "-", fd: STDOUT_FILENO, owns: false)
    }

    /// Opens `path` for appending, creating it if needed, and takes an exclusive lock on it (`flock`),
    /// held until the sink is released, so that two runs can never write one output at once. Only once
    /// the lock is held is the file emptied (`fresh`) or cut to `truncatingTo` bytes (to drop an
    /// incomplete record left by an interrupted run).
    ///
    /// - Throws: ``BatchError/outputLocked(path:)`` when another process holds the lock;
    ///   ``BatchError/outputFailed(path:reason:)`` otherwise.
    public static func file(_ path: String, truncatingTo length: Int? = nil, fresh: Bool = false) throws(BatchError) -> OutputSink {
        let sink = try locked(path)
        if fresh { try sink.truncate(to: 0) }
        if let length { try sink.truncate(to: length) }
        return sink
    }

    /// Opens `path` for appending (creating it) and takes its exclusive lock, without changing it.
    ///
    /// - Throws: ``BatchError/outputLocked(path:)`` when another process holds the lock;
    ///   ``BatchError/outputFailed(path:reason:)`` otherwise.
    public static func locked(_ path: String) throws(BatchError) -> OutputSink {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .outputFailed(path: path, reason: String(cString: strerror(errno))) }
        let code = FileLock.lockExclusively(fd)
        if code != 0 {
            close(fd)
            if code == EWOULDBLOCK { throw .outputLocked(path: path) }
            throw .outputFailed(path: path, reason: "cannot lock it: " + String(cString: strerror(code)))
        }
        return OutputSink(path: path, fd: fd, owns: true)
    }

    /// Cuts the file to `length` bytes (appends then continue from there).
    ///
    /// - Throws: ``BatchError/outputFailed(path:reason:)``.
    public func truncate(to length: Int) throws(BatchError) {
        guard ftruncate(fd, off_t(length)) == 0 else {
            throw .outputFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private init(path: String, fd: Int32, owns: Bool) {
        self.path = path
        self.fd = fd
        self.ownsDescriptor = owns
    }

    deinit {
        // Closing the descriptor also releases its lock.
        if ownsDescriptor { close(fd) }
    }

    /// The current size of the output in bytes (0 for a pipe or terminal).
    public var size: Int {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return 0 }
        return Int(info.st_size)
    }

    /// Writes `text` whole, retrying short writes and interruptions.
    ///
    /// - Throws: ``BatchError/outputFailed(path:reason:)`` (a closed pipe, a full disk …).
    public func write(_ text: String) throws(BatchError) {
        var text = text
        let failure: Int32? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                // safe because offset < bytes.count and the buffer lives for this closure.
                let n = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let failure { throw .outputFailed(path: path, reason: String(cString: strerror(failure))) }
    }
}
