#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Opens `path` for appending, creating it if needed, after cutting it to `truncatingTo` bytes
    /// when given (to drop an incomplete record left by an interrupted run).
    ///
    /// - Throws: ``BatchError/outputFailed(path:reason:)``.
    public static func file(_ path: String, truncatingTo length: Int? = nil, fresh: Bool = false) throws(BatchError) -> OutputSink {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (fresh ? O_TRUNC : 0)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { throw .outputFailed(path: path, reason: String(cString: strerror(errno))) }
        if let length, ftruncate(fd, off_t(length)) != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .outputFailed(path: path, reason: reason)
        }
        return OutputSink(path: path, fd: fd, owns: true)
    }

    private init(path: String, fd: Int32, owns: Bool) {
        self.path = path
        self.fd = fd
        self.ownsDescriptor = owns
    }

    deinit {
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
