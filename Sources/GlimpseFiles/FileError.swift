#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be written, read or examined: which file, which step failed, and the
/// system's reason.
///
/// Modules that own a file format map it into their own error type; ``description`` is a complete
/// sentence for callers that show it as it is.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step of a read or a replacement that failed.
    public enum Operation: Sendable, Equatable, CustomStringConvertible {
        /// Creating the temporary file a replacement writes first (in the target's directory).
        case createTemporary
        /// Opening the file to read it.
        case open
        /// Finding the size of the opened file.
        case stat
        /// Reading the file.
        case read
        /// Writing the temporary file.
        case write
        /// Flushing the temporary file to disk.
        case fsync
        /// Closing the temporary file.
        case close
        /// Renaming the temporary file over the target.
        case rename
        /// Opening the target's directory to flush it, after the rename.
        case openDirectory
        /// Flushing the target's directory, after the rename.
        case fsyncDirectory
        /// Checking that the file is a regular file (reads refuse FIFOs, sockets and devices).
        case checkKind
        /// Checking the file's size against the reader's limit.
        case checkSize
        /// Opening a file that is updated in place (a slot file), creating it if asked.
        case openForUpdate
        /// Making room in a file updated in place (`fallocate`), so a full disk fails here, not later.
        case allocate
        /// Writing into a file updated in place, at an offset (`pwrite`).
        case writeInPlace
        /// Flushing a file updated in place to disk (`fdatasync`).
        case flush
        /// Mapping a file into memory (`mmap`).
        case map

        /// The system call that failed: `open`, `fstat`, `read`, `write`, `fsync`, `close`, `rename`,
        /// `open directory` or `fsync directory`.
        public var systemCall: String {
            switch self {
            case .createTemporary, .open: "open"
            case .stat, .checkKind, .checkSize: "fstat"
            case .read: "read"
            case .write: "write"
            case .fsync: "fsync"
            case .close: "close"
            case .rename: "rename"
            case .openDirectory: "open directory"
            case .fsyncDirectory: "fsync directory"
            case .openForUpdate: "open"
            case .allocate: "fallocate"
            case .writeInPlace: "pwrite"
            case .flush: "fdatasync"
            case .map: "mmap"
            }
        }

        /// What was being done, in words.
        public var description: String {
            switch self {
            case .createTemporary: "creating the temporary file"
            case .open: "opening the file"
            case .stat: "examining the file"
            case .read: "reading the file"
            case .write: "writing the temporary file"
            case .fsync: "flushing the temporary file to disk"
            case .close: "closing the temporary file"
            case .rename: "renaming the temporary file into place"
            case .openDirectory: "opening the directory to flush it"
            case .fsyncDirectory: "flushing the directory to disk"
            case .checkKind: "checking that it is a regular file"
            case .checkSize: "checking its size"
            case .openForUpdate: "opening the file for writing"
            case .allocate: "making room in the file"
            case .writeInPlace: "writing into the file"
            case .flush: "flushing the file to disk"
            case .map: "mapping the file into memory"
            }
        }

        /// Whether the step belongs to reading a file (as opposed to replacing one).
        public var isRead: Bool {
            switch self {
            case .open, .stat, .read, .checkKind, .checkSize: true
            default: false
            }
        }

        /// Whether the step belongs to updating a file in place (as a slot file is), rather than
        /// reading a file or replacing one whole.
        public var isInPlace: Bool {
            switch self {
            case .openForUpdate, .allocate, .writeInPlace, .flush, .map: true
            default: false
            }
        }
    }

    /// The file that was being read or replaced (the target, never the temporary file).
    public let path: String
    /// The step that failed.
    public let operation: Operation
    /// The system error number (`errno`); `EIO` when a file shrank while it was read.
    public let code: Int32
    /// The system's message for ``code``, such as "No such file or directory"; for a refused file,
    /// what is wrong with it, such as "it is a FIFO, not a regular file".
    public let systemMessage: String
    /// What a read refused for not being a regular file is: `FIFO`, `socket`, `character device`,
    /// `block device` or `special file` (`nil` for other errors; a directory is `EISDIR`).
    public let refusedKind: String?
    /// The size in bytes a read refused as more than its limit (`nil` for other errors).
    public let refusedSize: Int?
    /// The limit a refused size exceeded (`nil` for other errors).
    public let sizeLimit: Int?

    /// An error for `path` whose `operation` failed with the system error number `code`.
    public init(path: String, operation: Operation, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
        self.systemMessage = String(cString: strerror(code))
        refusedKind = nil
        refusedSize = nil
        sizeLimit = nil
    }

    /// A read of `path` refused because it is a `kind` (a FIFO, socket or device), not a regular file.
    public init(path: String, notRegular kind: String) {
        self.path = path
        operation = .checkKind
        code = EINVAL
        systemMessage = "it is a \(kind), not a regular file"
        refusedKind = kind
        refusedSize = nil
        sizeLimit = nil
    }

    /// A read of `path` refused because it holds `bytes` bytes, more than `limit`.
    public init(path: String, tooLarge bytes: Int, limit: Int) {
        self.path = path
        operation = .checkSize
        code = EFBIG
        systemMessage = "\(bytes) bytes is more than the \(limit)-byte limit"
        refusedKind = nil
        refusedSize = bytes
        sizeLimit = limit
    }

    /// Whether the disk or the user's quota is full.
    public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }

    /// Whether a replacement had already put the new file in place when it failed (only flushing
    /// the directory was left), so the target may hold the new contents.
    public var isAfterRename: Bool { operation == .openDirectory || operation == .fsyncDirectory }

    /// The failed step and the system's message, e.g. "creating the temporary file failed: No such
    /// file or directory"; for use inside another module's message.
    public var reason: String {
        refusedKind != nil || refusedSize != nil ? systemMessage : "\(operation) failed: \(systemMessage)"
    }

    /// A sentence that names the file, says what failed and what to do about it.
    public var description: String {
        if operation.isRead {
            return "cannot read \(path): \(reason); \(readAdvice)"
        }
        if operation.isInPlace {
            return "cannot update \(path): \(reason); \(operation == .map ? mapAdvice : writeAdvice)"
        }
        if isAfterRename {
            return "\(path) was replaced but \(reason); a crash now could lose the change, "
                + "check the file system and save again"
        }
        return "cannot write \(path): \(reason); \(writeAdvice) (the previous file, if any, is untouched)"
    }

    private var readAdvice: String {
        if refusedKind != nil { return "give the path of a regular file" }
        if refusedSize != nil { return "give a smaller file" }
        switch code {
        case ENOENT, ENOTDIR: return "check that the path is right and the file exists"
        case EACCES, EPERM: return "check that the file is readable"
        case EISDIR: return "give the path of a file, not of a directory"
        default: return "check that the file exists and is readable"
        }
    }

    private var mapAdvice: String {
        code == ENOMEM ? "the process is out of address space or memory; free memory or raise its limits"
            : "check that the file is on a local file system that allows mapping"
    }

    private var writeAdvice: String {
        if isNoSpace { return "free disk space (or quota) and save again" }
        switch code {
        case EROFS: return "the file system is read-only; save somewhere writable"
        case EISDIR: return "a directory is in the way of the file; give another path"
        default: return "check that the directory exists and is writable"
        }
    }
}
