#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemRead = Darwin.read
#endif

/// Whole-file reads and crash-safe replacement of a file.
///
/// Writing goes to a temporary file in the same directory, which is flushed to disk (`fsync`) and
/// then renamed over the target, and the directory is flushed too: a reader sees either the old file
/// or the complete new one, never a mix, even after a crash.
enum AtomicFile {
    /// Why a file operation failed, with the system's message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The whole contents of `path`.
    static func readAll(_ path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: systemMessage()) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: systemMessage())
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Replaces `path` with `bytes` atomically and durably.
    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        let directory = directoryOf(path)
        let temporary = "\(directory)/.\(baseName(path)).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "\(temporary): \(systemMessage())") }
        var ok = false
        defer { if !ok { unlink(temporary) } }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let message = systemMessage()
                close(fd)
                throw Failure(description: message)
            }
            written += count
        }
        guard fsync(fd) == 0 else {
            let message = systemMessage()
            close(fd)
            throw Failure(description: "fsync: \(message)")
        }
        guard close(fd) == 0 else { throw Failure(description: "close: \(systemMessage())") }
        guard rename(temporary, path) == 0 else { throw Failure(description: "rename: \(systemMessage())") }
        ok = true
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            _ = fsync(dirFD)
            close(dirFD)
        }
    }

    static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    private static func systemMessage() -> String { String(cString: strerror(errno)) }
}

extension LabelModel {
    /// Reads and validates the model file at `path`.
    ///
    /// - Throws: ``LabelModelError`` when the file cannot be read, is not a model file, is truncated or
    ///   damaged, or was built with a feature extractor this build does not compute.
    public static func load(from path: String) throws(LabelModelError) -> LabelModel {
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.readAll(path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        return try LabelModelFile.decode(bytes, path: path)
    }

    /// Validates model file contents already in memory; `name` identifies them in errors.
    public static func decode(_ bytes: [UInt8], name: String = "(in memory)") throws(LabelModelError) -> LabelModel {
        try LabelModelFile.decode(bytes, path: name)
    }

    /// The model file contents.
    public func encoded() -> [UInt8] { LabelModelFile.encode(self) }

    /// Writes the model to `path`, replacing any file there atomically.
    public func save(to path: String) throws(LabelModelError) {
        do {
            try AtomicFile.replace(path, with: encoded())
        } catch {
            throw .writeFailed(path: path, reason: error.description)
        }
    }
}
