#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseFiles

/// Decodes PNG and JPEG data into ``PixelBuffer``s, choosing the codec by the leading bytes.
///
/// Decoding is synchronous and thread-safe: any number of decodes may run at once on
/// different threads. Sizes are checked against ``DecodingLimits`` from the header, before
/// pixel memory is allocated.
///
/// Decoding is strict: JPEG data that libjpeg would otherwise patch over (a premature end of
/// file or of a data segment, bad Huffman codes, lost restart markers) is refused as
/// ``ImageDecodingError/truncated(format:message:)`` or ``ImageDecodingError/corrupt(format:message:)``,
/// and a PNG must be complete up to its IEND chunk. Harmless problems (extraneous bytes between
/// JPEG markers, a bad CRC on an ancillary PNG chunk) are counted in
/// ``DecodedImage/warningCount`` and decoding goes on.
public enum ImageDecoder {
    /// The format whose signature starts `data` (never judged by a file name), or `nil`.
    public static func format(of data: [UInt8]) -> ImageFormat? {
        data.withUnsafeBytes { ImageFormat.sniff($0) }
    }

    /// Decodes PNG or JPEG bytes, optionally downscaled and turned upright.
    ///
    /// - Throws: ``ImageDecodingError`` for empty, unrecognised, oversized, truncated or corrupt data.
    public static func decode(_ data: [UInt8], options: DecodingOptions = .init()) throws(ImageDecodingError) -> DecodedImage {
        if let maxDimension = options.maxDimension, maxDimension < 1 {
            throw .invalidOptions("maxDimension is \(maxDimension); pass nil for full size or a value of at least 1")
        }
        guard !data.isEmpty else { throw .empty }
        guard data.count <= options.limits.maxInputBytes else {
            throw .inputTooLarge(byteCount: data.count, limit: options.limits.maxInputBytes)
        }
        var outcome: Result<(ImageFormat, CodecOutput), ImageDecodingError> = .failure(.empty)
        data.withUnsafeBytes { bytes in
            outcome = Result { () throws(ImageDecodingError) -> (ImageFormat, CodecOutput) in
                switch ImageFormat.sniff(bytes) {
                case .jpeg?: return (.jpeg, try JPEGCodec.decode(bytes, options: options))
                case .png?: return (.png, try PNGCodec.decode(bytes, options: options))
                case nil: throw .unsupportedFormat(leadingBytes: Array(bytes.prefix(8)))
                }
            }
        }
        let (format, output) = try outcome.get()
        var buffer = output.buffer
        if let maxDimension = options.maxDimension, max(buffer.width, buffer.height) > maxDimension {
            buffer = buffer.downscaled(toFit: maxDimension)
        }
        if options.appliesOrientation, output.orientation != 1 {
            buffer = buffer.oriented(exifOrientation: output.orientation)
        }
        return DecodedImage(
            format: format, pixelBuffer: buffer, sourceWidth: output.sourceWidth,
            sourceHeight: output.sourceHeight, orientation: output.orientation, warningCount: output.warningCount)
    }

    /// Reads the file at `path` (refusing it before reading when it exceeds
    /// ``DecodingLimits/maxInputBytes``) and decodes it like ``decode(_:options:)``.
    public static func decode(contentsOfFile path: String, options: DecodingOptions = .init()) throws(ImageDecodingError) -> DecodedImage {
        let bytes: [UInt8]
        do throws(FileError) {
            bytes = try AtomicFile.readAll(path, maxBytes: options.limits.maxInputBytes)
        } catch {
            throw ImageDecodingError(reading: error)
        }
        return try decode(bytes, options: options)
    }
}

extension ImageDecodingError {
    /// The error of a picture file that could not be read, or was refused by GlimpseFiles' rule.
    init(reading error: FileError) {
        if let bytes = error.refusedSize, let limit = error.sizeLimit {
            self = .inputTooLarge(byteCount: bytes, limit: limit)
        } else if error.code == EISDIR {
            self = .unreadableFile(path: error.path, reason: "it is a directory")
        } else if error.refusedKind != nil {
            self = .unreadableFile(path: error.path, reason: error.systemMessage)
        } else {
            self = .unreadableFile(path: error.path, reason: "\(error.systemMessage) (errno \(error.code))")
        }
    }
}
