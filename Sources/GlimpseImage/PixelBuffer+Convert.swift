extension PixelBuffer {
    /// A copy in `format`: colour to gray uses BT.601 luma (0.299 R + 0.587 G + 0.114 B, alpha
    /// ignored); gray to colour replicates the value; adding alpha makes it opaque (255);
    /// dropping alpha keeps the colour as stored. Returns `self` when the format already matches.
    public func converted(to format: PixelFormat) -> PixelBuffer {
        if format == pixelFormat { return self }
        let from = pixelFormat
        return withUnsafeBytes { source in
            Self.assemble(width: width, height: height, pixelFormat: format) { out, outStride in
                PixelConversion.convert(
                    source, stride: bytesPerRow, from: from, to: out, outStride: outStride, to: format,
                    width: width, height: height)
            }
        }
    }
}

/// Fenced pointer loops for pixel format conversion.
enum PixelConversion {
    static func convert(
        _ source: UnsafeRawBufferPointer, stride: Int, from: PixelFormat,
        to out: UnsafeMutableRawBufferPointer, outStride: Int, to: PixelFormat, width: Int, height: Int
    ) {
        guard let src = source.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let dst = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        for y in 0..<height {
            let s = src + y * stride
            let d = dst + y * outStride
            switch (from, to) {
            case (.gray8, .rgb8):
                for x in 0..<width { let v = s[x]; d[3 * x] = v; d[3 * x + 1] = v; d[3 * x + 2] = v }
            case (.gray8, _):
                for x in 0..<width { let v = s[x]; d[4 * x] = v; d[4 * x + 1] = v; d[4 * x + 2] = v; d[4 * x + 3] = 255 }
            case (.rgb8, .gray8):
                for x in 0..<width { d[x] = luma(s[3 * x], s[3 * x + 1], s[3 * x + 2]) }
            case (_, .gray8):
                for x in 0..<width { d[x] = luma(s[4 * x], s[4 * x + 1], s[4 * x + 2]) }
            case (.rgb8, _):
                for x in 0..<width {
                    d[4 * x] = s[3 * x]; d[4 * x + 1] = s[3 * x + 1]; d[4 * x + 2] = s[3 * x + 2]; d[4 * x + 3] = 255
                }
            default: // rgba8 to rgb8
                for x in 0..<width { d[3 * x] = s[4 * x]; d[3 * x + 1] = s[4 * x + 1]; d[3 * x + 2] = s[4 * x + 2] }
            }
        }
    }

    /// BT.601 luma with the JPEG weights in 16-bit fixed point, rounded.
    @inline(__always)
    static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let value = 19_595 * UInt32(r) + 38_470 * UInt32(g) + 7_471 * UInt32(b) + 32_768
        return UInt8(truncatingIfNeeded: value >> 16)
    }
}
