import GlimpseTestSupport
import CGlimpseSocket
import Foundation

/// A blocking Unix-socket connection for byte-level tests (slow clients, oversized heads, early
/// closes). Reads time out, so a test never hangs.
///
/// `@unchecked Sendable`: a connection is used by one task at a time; tests hand it to
/// ``offThread(_:)`` for blocking reads so that no Swift concurrency thread waits on the socket.
final class RawConnection: @unchecked Sendable {
    private var fd: Int32

    /// Connects to `path`; reads time out after `readTimeout`.
    init(path: String, readTimeout: Duration = .seconds(10)) throws {
        let fd = CGlimpseSocket_connect(path)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: -fd) ?? .EIO) }
        self.fd = fd
        let (seconds, attoseconds) = readTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Makes sends give up (returning false) after `timeout` without progress, so a test never hangs on
    /// a daemon that stopped reading.
    func setSendTimeout(_ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Whether the daemon has sent something (or closed) that has not been read yet; does not wait.
    func hasSomethingToRead() -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Sends all of `bytes`; returns false when the peer has closed (EPIPE/ECONNRESET).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Sends `text` as UTF-8.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the peer closes or the read times out; returns what arrived and whether the peer
    /// closed.
    func readUntilClosed() -> (bytes: [UInt8], closed: Bool) {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                collected += buffer[0..<count]
            } else if count == 0 {
                return (collected, true)
            } else if errno == EINTR {
                continue
            } else if errno == ECONNRESET {
                return (collected, true)
            } else {
                return (collected, false)
            }
        }
    }

    /// Reads one HTTP response with a `Content-Length` body (no chunked encoding).
    func readResponse() -> (status: Int, head: String, body: String)? {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let split = Self.headEnd(collected) {
                let head = String(decoding: collected[..<split], as: UTF8.self)
                let length = Self.contentLength(head) ?? 0
                if collected.count - (split + 4) >= length {
                    let body = String(decoding: collected[(split + 4)..<(split + 4 + length)], as: UTF8.self)
                    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                    return (status, head, body)
                }
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                collected += buffer[0..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return nil
            }
        }
    }

    /// Closes the connection.
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func contentLength(_ head: String) -> Int? {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
