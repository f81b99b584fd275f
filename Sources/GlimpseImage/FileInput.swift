#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with POSIX calls, refusing oversized files before reading them.
enum FileInput {
    /// The bytes of the file at `path`; throws ``ImageDecodingError/inputTooLarge(byteCount:limit:)``
    /// as soon as the file is known to exceed `limit` bytes.
    static func read(path: String, limit: Int) throws(ImageDecodingError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadableFile(path: path, reason: errorText(errno)) }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadableFile(path: path, reason: errorText(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw .unreadableFile(path: path, reason: "it is a directory")
        }
        let declared = Int(info.st_size)
        if declared > limit { throw .inputTooLarge(byteCount: declared, limit: limit) }

        // Read into one growing array; a regular file usually fills it in one call.
        var bytes: [UInt8] = []
        var capacity = max(declared + 1, 64 << 10)
        var failure: Int32 = 0
        while failure == 0 {
            let start = bytes.count
            bytes.reserveCapacity(capacity)
            let room = capacity - start
            var got = 0
            bytes.append(contentsOf: repeatElement(0, count: room))
            bytes.withUnsafeMutableBytes { raw in
                while true {
                    let count = systemRead(fd, raw.baseAddress.map { $0 + start }, room)
                    if count < 0, errno == EINTR { continue }
                    if count < 0 { failure = errno }
                    got = max(count, 0)
                    return
                }
            }
            bytes.removeLast(room - got)
            if failure != 0 { throw .unreadableFile(path: path, reason: errorText(failure)) }
            if got == 0 { break }
            if bytes.count > limit { throw .inputTooLarge(byteCount: bytes.count, limit: limit) }
            if bytes.count == capacity { capacity = min(capacity * 2, limit + 1) }
        }
        return bytes
    }

    private static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text) + " (errno \(code))"
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
