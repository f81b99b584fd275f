import CGlimpseCodecs

/// Why a picture could not be encoded.
public struct ImageEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the encoder reported.
    public let message: String

    /// A sentence for people.
    public var description: String { "the PNG encoder failed (\(message)); the picture was not written" }
}

extension PixelBuffer {
    /// The buffer as an 8-bit PNG (gray, RGB or RGBA as stored, not interlaced), encoded by the libpng
    /// the decoders use.
    ///
    /// - Throws: ``ImageEncodingError`` when libpng fails (out of memory).
    public func pngData() throws(ImageEncodingError) -> [UInt8] {
        let colorType: Int32 = switch pixelFormat {
        case .gray8: 0
        case .rgb8: 2
        case .rgba8: 6
        }
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var result = glimpse_codec_result()
        let status = withUnsafeBytes { rows in
            glimpse_png_encode(
                rows.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height), bytesPerRow,
                colorType, 8, 0, nil, 0, nil, 0, nil, nil, 0, &out, &count, &result)
        }
        defer { if let out { glimpse_codec_free(out) } }
        guard status == 0, let out else { throw ImageEncodingError(message: CodecSupport.message(of: result)) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }
}
