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
        let inStep = from.bytesPerPixel, outStep = to.bytesPerPixel
        for y in 0..<height {
            var s = src + y * stride
            var d = dst + y * outStride
            for _ in 0..<width {
                switch (from, to) {
                case (.gray8, _):
                    let v = s[0]
                    d[0] = v
                    if outStep >= 3 { d[1] = v; d[2] = v }
                    if outStep == 4 { d[3] = 255 }
                case (_, .gray8):
                    d[0] = luma(s[0], s[1], s[2])
                case (.rgb8, .rgba8):
                    d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = 255
                default: // rgba8 to rgb8
                    d[0] = s[0]; d[1] = s[1]; d[2] = s[2]
                }
                s += inStep
                d += outStep
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
