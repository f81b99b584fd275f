extension PixelBuffer {
    /// A copy in `format`: colour to gray uses ``Luma`` (BT.601, alpha ignored); gray to colour replicates the value; adding alpha makes it opaque (255);
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
            case (_, .gray8):
                Luma.convertRow(s, channels: from.bytesPerPixel, into: d, count: width)
            case (.rgb8, _):
                for x in 0..<width {
                    d[4 * x] = s[3 * x]; d[4 * x + 1] = s[3 * x + 1]; d[4 * x + 2] = s[3 * x + 2]; d[4 * x + 3] = 255
                }
            default: // rgba8 to rgb8
                for x in 0..<width { d[3 * x] = s[4 * x]; d[3 * x + 1] = s[4 * x + 1]; d[3 * x + 2] = s[4 * x + 2] }
            }
        }
    }
}
