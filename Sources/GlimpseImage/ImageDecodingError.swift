/// Why an image could not be decoded. Each description says what happened and what to do.
public enum ImageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input has no bytes.
    case empty
    /// The leading bytes match neither PNG nor JPEG; `leadingBytes` holds up to the first 8.
    case unsupportedFormat(leadingBytes: [UInt8])
    /// The data ends before the image does.
    case truncated(format: ImageFormat, message: String)
    /// The codec library rejected the data; `message` is its own explanation.
    case corrupt(format: ImageFormat, message: String)
    /// The image is valid but stored in a way Glimpse does not convert (such as a 2-channel JPEG).
    case unsupportedContent(format: ImageFormat, message: String)
    /// The header declares a width or height of zero.
    case invalidDimensions(format: ImageFormat, width: Int, height: Int)
    /// The input is larger than ``DecodingLimits/maxInputBytes``.
    case inputTooLarge(byteCount: Int, limit: Int)
    /// The header declares more pixels than ``DecodingLimits/maxPixels`` or a side longer than
    /// ``DecodingLimits/maxDimension``.
    case tooLarge(width: Int, height: Int, maxPixels: Int, maxDimension: Int)
    /// A JPEG has more scans than ``DecodingLimits/maxProgressiveScans``.
    case tooManyScans(limit: Int)
    /// The codec library ran out of memory within its working-memory limit.
    case outOfMemory(format: ImageFormat, message: String)
    /// A file could not be opened or read; `reason` is the system's error text.
    case unreadableFile(path: String, reason: String)
    /// The options cannot be satisfied (for example a maximum size below 1).
    case invalidOptions(String)

    /// A sentence that says what happened and what to do about it.
    public var description: String {
        switch self {
        case .empty:
            return "the input is empty (0 bytes); pass the bytes of a PNG or JPEG file"
        case let .unsupportedFormat(bytes):
            let hex = bytes.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined(separator: " ")
            let text = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            return "unsupported format: the data starts with \(hex) (\"\(text)\"), which is neither PNG "
                + "(89 50 4E 47 …) nor JPEG (FF D8 FF …); convert the image to PNG or JPEG"
        case let .truncated(format, message):
            return "\(format.rawValue.uppercased()) data is truncated (\(message)); the file ends before the image "
                + "does: fetch or copy it again in full"
        case let .corrupt(format, message):
            return "\(format.rawValue.uppercased()) data is corrupt: \(message); re-export the image or check "
                + "how it was transferred"
        case let .unsupportedContent(format, message):
            return "\(format.rawValue.uppercased()) image cannot be converted: \(message); re-save it as an RGB "
                + "or grayscale image"
        case let .invalidDimensions(format, width, height):
            return "\(format.rawValue.uppercased()) header declares \(width)×\(height) pixels; an image needs at "
                + "least 1×1: the file is damaged"
        case let .inputTooLarge(byteCount, limit):
            return "the input is \(byteCount) bytes, more than the limit of \(limit) bytes; send a smaller file "
                + "or raise DecodingLimits.maxInputBytes"
        case let .tooLarge(width, height, maxPixels, maxDimension):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            let count = overflow ? "more than \(Int.max)" : "\(pixels)"
            return "the image declares \(width)×\(height) = \(count) pixels; the limits are \(maxPixels) pixels "
                + "and \(maxDimension) pixels a side: resize the image first or raise DecodingLimits"
        case let .tooManyScans(limit):
            return "the JPEG has more than \(limit) scans, which makes decoding needlessly slow; re-encode it "
                + "(baseline or a standard progressive script) or raise DecodingLimits.maxProgressiveScans"
        case let .outOfMemory(format, message):
            return "decoding the \(format.rawValue.uppercased()) image needs more memory than allowed (\(message)); "
                + "send a smaller image or raise DecodingLimits.maxPixels"
        case let .unreadableFile(path, reason):
            return "cannot read \(path): \(reason); check that the path exists and is readable"
        case let .invalidOptions(message):
            return "invalid decoding options: \(message)"
        }
    }
}
