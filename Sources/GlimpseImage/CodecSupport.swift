import CGlimpseCodecs

/// Pixels straight out of a codec, before the optional downscale and orientation.
struct CodecOutput {
    var buffer: PixelBuffer
    var sourceWidth: Int
    var sourceHeight: Int
    var orientation: Int
    var warningCount: Int
}

enum CodecSupport {
    /// Throws unless `width × height` fits `limits` (overflow-checked) and both sides are at least 1.
    static func checkSize(
        format: ImageFormat, width: Int, height: Int, limits: DecodingLimits
    ) throws(ImageDecodingError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(format: format, width: width, height: height) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limits.maxPixels || width > limits.maxDimension || height > limits.maxDimension {
            throw .tooLarge(width: width, height: height, maxPixels: limits.maxPixels, maxDimension: limits.maxDimension)
        }
    }

    /// The library message of a C call, up to its terminating zero.
    static func message(of result: glimpse_codec_result) -> String {
        withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Maps a C status to the layer's error, or returns for `GLIMPSE_CODEC_OK`.
    static func check(
        _ status: Int32, _ result: glimpse_codec_result, format: ImageFormat, limits: DecodingLimits
    ) throws(ImageDecodingError) {
        let text = message(of: result)
        switch UInt32(bitPattern: status) {
        case GLIMPSE_CODEC_OK.rawValue: return
        case GLIMPSE_CODEC_TRUNCATED.rawValue: throw .truncated(format: format, message: text)
        case GLIMPSE_CODEC_TOO_MANY_SCANS.rawValue: throw .tooManyScans(limit: limits.maxProgressiveScans)
        case GLIMPSE_CODEC_OUT_OF_MEMORY.rawValue: throw .outOfMemory(format: format, message: text)
        case GLIMPSE_CODEC_UNSUPPORTED.rawValue: throw .unsupportedContent(format: format, message: text)
        case GLIMPSE_CODEC_INVALID_ARGUMENT.rawValue:
            // Only reachable through a bug in this layer; report it rather than trap.
            throw .corrupt(format: format, message: "internal decoder error: \(text)")
        default: throw .corrupt(format: format, message: text)
        }
    }

    /// Allocates a packed buffer and lets `fill` write it, mapping geometry errors to the layer's error.
    static func makeBuffer(
        format: ImageFormat, width: Int, height: Int, pixelFormat: PixelFormat,
        fill: (UnsafeMutableRawBufferPointer, Int) throws(ImageDecodingError) -> Void
    ) throws(ImageDecodingError) -> PixelBuffer {
        do {
            return try PixelBuffer(width: width, height: height, pixelFormat: pixelFormat, initializingWith: fill)
        } catch {
            switch error {
            case .invalidGeometry: throw .invalidDimensions(format: format, width: width, height: height)
            case .initializer(let failure): throw failure
            }
        }
    }
}
