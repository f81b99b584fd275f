extension PixelBuffer {
    /// This buffer turned upright according to an EXIF orientation (1–8): 2 mirrors, 3 rotates
    /// 180°, 4 flips, 5 transposes, 6 rotates 90° clockwise, 7 transverses, 8 rotates 90°
    /// counter-clockwise. Orientations 5–8 swap width and height. Any other value returns `self`.
    public func oriented(exifOrientation orientation: Int) -> PixelBuffer {
        guard (2...8).contains(orientation) else { return self }
        let transposed = orientation >= 5
        let outWidth = transposed ? height : width
        let outHeight = transposed ? width : height
        let bpp = pixelFormat.bytesPerPixel
        let sourceStride = bytesPerRow
        let (w, h) = (width, height)
        // Source coordinates of output (x, y): start of each output row and the step per output pixel.
        func rowStartAndStep(_ y: Int) -> (start: Int, step: Int) {
            switch orientation {
            case 2: return (y * sourceStride + (w - 1) * bpp, -bpp)
            case 3: return ((h - 1 - y) * sourceStride + (w - 1) * bpp, -bpp)
            case 4: return ((h - 1 - y) * sourceStride, bpp)
            case 5: return (y * bpp, sourceStride)                                 // (y, x)
            case 6: return ((h - 1) * sourceStride + y * bpp, -sourceStride)       // (y, H-1-x)
            case 7: return ((h - 1) * sourceStride + (w - 1 - y) * bpp, -sourceStride) // (W-1-y, H-1-x)
            default: return ((w - 1 - y) * bpp, sourceStride)                      // 8: (W-1-y, x)
            }
        }
        return withUnsafeBytes { source in
            Self.assemble(width: outWidth, height: outHeight, pixelFormat: pixelFormat) { out, outStride in
                Self.copyStrided(
                    from: source, to: out, outStride: outStride, width: outWidth, height: outHeight,
                    bytesPerPixel: bpp, tile: transposed ? 32 : outWidth, rowStartAndStep: rowStartAndStep)
            }
        }
    }

    /// Builds a buffer whose geometry is known to be valid (derived from an existing buffer).
    static func assemble(
        width: Int, height: Int, pixelFormat: PixelFormat,
        fill: (UnsafeMutableRawBufferPointer, Int) -> Void
    ) -> PixelBuffer {
        do {
            return try PixelBuffer(width: width, height: height, pixelFormat: pixelFormat) { (raw, stride) throws(Never) in
                fill(raw, stride)
            }
        } catch {
            // Width and height come from a valid buffer, so the geometry cannot be rejected.
            preconditionFailure("derived pixel buffer geometry \(width)×\(height) rejected: \(error)")
        }
    }

    /// Fenced pointer loop: copies every output pixel from `source[start(y) + x * step(y)]`.
    /// Rows are copied in bands of `tile` output rows, walking `tile`-pixel tiles across the band,
    /// so that transposing orientations read the source in cache-sized blocks.
    private static func copyStrided(
        from source: UnsafeRawBufferPointer, to out: UnsafeMutableRawBufferPointer, outStride: Int,
        width: Int, height: Int, bytesPerPixel bpp: Int, tile: Int,
        rowStartAndStep: (Int) -> (start: Int, step: Int)
    ) {
        guard let src = source.baseAddress, let dst = out.baseAddress, tile > 0 else { return }
        for bandStart in stride(from: 0, to: height, by: tile) {
            let bandEnd = min(bandStart + tile, height)
            for tileStart in stride(from: 0, to: width, by: tile) {
                let tileEnd = min(tileStart + tile, width)
                for y in bandStart..<bandEnd {
                    let (start, step) = rowStartAndStep(y)
                    var s = src + start + tileStart * step
                    var d = dst + y * outStride + tileStart * bpp
                    switch bpp {
                    case 1:
                        for _ in tileStart..<tileEnd {
                            d.storeBytes(of: s.load(as: UInt8.self), as: UInt8.self); s += step; d += 1
                        }
                    case 3:
                        for _ in tileStart..<tileEnd {
                            d.storeBytes(of: s.loadUnaligned(as: UInt16.self), as: UInt16.self)
                            (d + 2).storeBytes(of: (s + 2).load(as: UInt8.self), as: UInt8.self)
                            s += step; d += 3
                        }
                    default:
                        for _ in tileStart..<tileEnd {
                            d.storeBytes(of: s.loadUnaligned(as: UInt32.self), as: UInt32.self); s += step; d += 4
                        }
                    }
                }
            }
        }
    }
}
