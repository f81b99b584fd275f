import Foundation

/// Follows the HTTP/1.1 message framing of a connection's raw bytes, ahead of the HTTP decoder, for the
/// two things the decoder does not tell: when the first byte of a request head arrives, and the size
/// each chunk of a chunked body declares (so a chunk larger than the body limit is refused the moment
/// its size line arrives, not when its data fails to come).
///
/// It only follows framing: request heads end at an empty line, a body is `Content-Length` bytes or a
/// sequence of chunks. Anything it cannot follow (a head line longer than the head limit, a malformed
/// length) stops it for the rest of the connection; the decoder refuses such input itself.
struct RequestFraming {
    /// What the bytes fed so far revealed.
    enum Event: Equatable {
        /// The first byte of a request head arrived.
        case headStarted
        /// A chunk declared `declared` bytes (`nil`: more than fits in 64 bits), which would take the body
        /// past the limit.
        case chunkTooLarge(declared: UInt64?)
    }

    private enum Phase: Equatable {
        case betweenRequests
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case stopped
    }

    /// The largest body accepted, in bytes.
    let maxBodyBytes: Int
    /// The longest head line followed; a longer one stops the framing (the decoder refuses the head).
    let maxLineBytes: Int
    private var phase = Phase.betweenRequests
    private var line: [UInt8] = []
    private var contentLength: Int?
    private var chunked = false
    private var chunkTotal = 0

    init(maxBodyBytes: Int, maxLineBytes: Int = 64 * 1024) {
        self.maxBodyBytes = maxBodyBytes
        self.maxLineBytes = maxLineBytes
    }

    /// Whether framing was given up (after a refused chunk, or input it cannot follow).
    var isStopped: Bool { phase == .stopped }

    /// Feeds the next bytes of the connection; returns what they revealed, in order.
    mutating func feed(_ bytes: some Collection<UInt8>) -> [Event] {
        var events: [Event] = []
        var index = bytes.startIndex
        while index != bytes.endIndex {
            switch phase {
            case .stopped:
                return events
            case .fixedBody(let remaining), .chunkData(let remaining):
                let available = bytes.distance(from: index, to: bytes.endIndex)
                let taken = min(remaining, available)
                index = bytes.index(index, offsetBy: taken)
                let left = remaining - taken
                if case .fixedBody = phase {
                    phase = left == 0 ? .betweenRequests : .fixedBody(remaining: left)
                } else {
                    phase = left == 0 ? .chunkDataEnd : .chunkData(remaining: left)
                }
            default:
                if let event = step(bytes[index]) { events.append(event) }
                index = bytes.index(after: index)
            }
        }
        return events
    }

    // MARK: - Private

    private static let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")

    private mutating func step(_ byte: UInt8) -> Event? {
        switch phase {
        case .betweenRequests:
            // Empty lines between requests are skipped, as the decoder does.
            guard byte != Self.cr, byte != Self.lf else { return nil }
            phase = .head
            line = [byte]
            contentLength = nil
            chunked = false
            chunkTotal = 0
            return .headStarted
        case .head:
            guard byte == Self.lf else { return append(byte) }
            let text = takeLine()
            if text.isEmpty {
                if chunked {
                    phase = .chunkSize
                } else if let contentLength, contentLength > 0 {
                    phase = .fixedBody(remaining: contentLength)
                } else {
                    phase = .betweenRequests
                }
            } else {
                headerLine(text)
            }
            return nil
        case .chunkSize:
            guard byte == Self.lf else { return append(byte) }
            return chunkSizeLine(takeLine())
        case .chunkDataEnd:
            if byte == Self.lf { phase = .chunkSize }
            else if byte != Self.cr { phase = .stopped }
            return nil
        case .trailers:
            guard byte == Self.lf else { return append(byte) }
            if takeLine().isEmpty { phase = .betweenRequests }
            return nil
        case .fixedBody, .chunkData, .stopped:
            return nil
        }
    }

    private mutating func append(_ byte: UInt8) -> Event? {
        guard line.count < maxLineBytes else {
            phase = .stopped
            return nil
        }
        line.append(byte)
        return nil
    }

    /// The current line without its line ending; clears it.
    private mutating func takeLine() -> ArraySlice<UInt8> {
        defer { line.removeAll(keepingCapacity: true) }
        var text = line[...]
        if text.last == Self.cr { text = text.dropLast() }
        return text
    }

    private mutating func headerLine(_ text: ArraySlice<UInt8>) {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(decoding: text[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: text[text.index(after: colon)...], as: UTF8.self)
            .trimmingCharacters(in: [" ", "\t"])
        switch name {
        case "content-length":
            guard let length = Int(value), length >= 0 else {
                phase = .stopped
                return
            }
            contentLength = length
        case "transfer-encoding":
            let last = value.split(separator: ",").last?.trimmingCharacters(in: [" ", "\t"]).lowercased()
            chunked = last == "chunked"
        default:
            break
        }
    }

    private mutating func chunkSizeLine(_ text: ArraySlice<UInt8>) -> Event? {
        var size: UInt64 = 0
        var digits = 0
        for byte in text {
            guard let digit = Self.hexValue(byte) else { break }
            digits += 1
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            guard !overflow else {
                phase = .stopped
                return .chunkTooLarge(declared: nil)
            }
            size = shifted | UInt64(digit)
        }
        guard digits > 0 else {
            phase = .stopped
            return nil
        }
        if size == 0 {
            phase = .trailers
            return nil
        }
        let room = UInt64(max(0, maxBodyBytes - chunkTotal))
        guard size <= room, let count = Int(exactly: size) else {
            phase = .stopped
            return .chunkTooLarge(declared: size)
        }
        chunkTotal += count
        phase = .chunkData(remaining: count)
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
