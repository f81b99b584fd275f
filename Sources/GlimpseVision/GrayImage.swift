import CGlimpseVisionKernels
public import GlimpseImage

/// An 8-bit single-channel image with packed rows: the working image of feature extraction.
public struct GrayImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Row-major luminance, `width × height` bytes.
    public internal(set) var pixels: [UInt8]

    /// Creates an image from packed luminance bytes.
    ///
    /// - Precondition: `pixels.count == width × height` and both sides are at least 1.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "gray image geometry mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The luminance of `buffer` (``Luma``, the BT.601 weights; alpha ignored), at full size.
    public init(luminanceOf buffer: PixelBuffer) {
        self.init(width: buffer.width, height: buffer.height, pixels: buffer.lumaPlane())
    }

    /// The size an image of `width × height` takes so its long side lies in `minLongSide...maxLongSide`.
    public static func fittedSize(width: Int, height: Int, maxLongSide: Int, minLongSide: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        var factor = 1.0
        if long > maxLongSide { factor = Double(maxLongSide) / Double(long) }
        if minLongSide > 0, long < minLongSide { factor = Double(minLongSide) / Double(long) }
        if factor == 1.0 { return (width, height) }
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    /// This image as a `gray8` pixel buffer.
    public var pixelBuffer: PixelBuffer {
        do {
            return try PixelBuffer(width: width, height: height, pixelFormat: .gray8, bytes: pixels)
        } catch {
            preconditionFailure("a gray image's geometry is valid by construction: \(error)")
        }
    }

    /// This image resampled to `newWidth × newHeight`: area averaged when it shrinks
    /// (`PixelBuffer.areaAveraged(width:height:)`, the one reducer of `GlimpseImage`), by bilinear
    /// interpolation (``bilinearResampled(width:height:)``) when a side grows.
    public func resampled(width newWidth: Int, height newHeight: Int) -> GrayImage {
        precondition(newWidth > 0 && newHeight > 0, "resample target must be non-empty")
        if newWidth == width && newHeight == height { return self }
        guard newWidth <= width, newHeight <= height else { return bilinearResampled(width: newWidth, height: newHeight) }
        return GrayImage(luminanceOf: pixelBuffer.areaAveraged(width: newWidth, height: newHeight))
    }

    /// This image with its levels stretched so the darkest and brightest 0.5 % of pixels reach 0
    /// and 255 (unchanged when already full range). Makes the FAST threshold relative to the
    /// image's contrast, so hazy and low-contrast photos still yield keypoints.
    public func contrastStretched() -> GrayImage {
        var histogram = [Int](repeating: 0, count: 256)
        pixels.withUnsafeBufferPointer { source in
            histogram.withUnsafeMutableBufferPointer { counts in
                // Fenced: a byte indexes a 256-entry table.
                for p in source { counts[Int(p)] &+= 1 }
            }
        }
        let cut = pixels.count / 200
        var low = 0, seen = 0
        while low < 255 && seen + histogram[low] <= cut { seen += histogram[low]; low += 1 }
        var high = 255
        seen = 0
        while high > 0 && seen + histogram[high] <= cut { seen += histogram[high]; high -= 1 }
        guard high > low, low > 0 || high < 255 else { return self }
        // At most 4× gain, so flat images are not turned into amplified noise.
        let range = max(high - low, 64)
        var table = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = UInt8(max(0, min(255, (v - low) * 255 / range))) }
        let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { dst, count in
            pixels.withUnsafeBufferPointer { source in
                table.withUnsafeBufferPointer { lookup in
                    // Fenced: a byte indexes a 256-entry table; dst holds pixels.count bytes.
                    for i in 0..<source.count { dst[i] = lookup[Int(source[i])] }
                }
            }
            count = pixels.count
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// This image mirrored left to right.
    public func mirrored() -> GrayImage {
        var out = pixels
        for y in 0..<height {
            let row = y * width
            for x in 0..<width { out[row + x] = pixels[row + width - 1 - x] }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// This image smoothed with the 9-tap binomial kernel (a Gaussian with σ = 2), edges clamped.
    public func smoothed() -> GrayImage {
        let w = width, h = height
        var mid = [UInt16](repeating: 0, count: w * h)
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dstBuffer, count in
            pixels.withUnsafeBufferPointer { srcBuffer in
                mid.withUnsafeMutableBufferPointer { midBuffer in
                    // Fenced: the kernel reads w × h bytes and writes w × h values to each buffer, only during the call.
                    guard let src = srcBuffer.baseAddress, let m = midBuffer.baseAddress, let dst = dstBuffer.baseAddress
                    else { return }
                    glimpse_smooth9(src, Int32(w), Int32(h), m, dst)
                }
            }
            count = w * h
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// This image resampled to `newWidth × newHeight` by bilinear interpolation in fixed point, edges
    /// clamped: the pyramid's step (less than 2× smaller, where it needs no prefilter) and enlargement.
    /// It does not filter, so it is not a reducer: larger reductions go through ``resampled(width:height:)``.
    public func bilinearResampled(width newWidth: Int, height newHeight: Int) -> GrayImage {
        precondition(newWidth > 0 && newHeight > 0, "bilinear target must be non-empty")
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        // Per column: left source index and 8-bit weight of the right neighbour.
        var xIndex = [Int](repeating: 0, count: newWidth)
        var xWeight = [UInt32](repeating: 0, count: newWidth)
        for x in 0..<newWidth {
            let fx = max(0, (Double(x) + 0.5) * sx - 0.5)
            let ix = min(Int(fx), width - 2 < 0 ? 0 : width - 2)
            xIndex[x] = ix
            xWeight[x] = width < 2 ? 0 : UInt32(min(256, max(0, ((fx - Double(ix)) * 256).rounded())))
        }
        let w = width
        // Vertical first: each output row blends its two source rows into `column` (at most 255 × 256, so
        // 16 bits), a contiguous loop; then each output pixel blends two neighbours of that row. Both
        // weights are exact integers, so the order does not change the result.
        var column = [UInt16](repeating: 0, count: w)
        let out = [UInt8](unsafeUninitializedCapacity: newWidth * newHeight) { dst, count in
            pixels.withUnsafeBufferPointer { src in
                xIndex.withUnsafeBufferPointer { xi in
                    xWeight.withUnsafeBufferPointer { xw in
                        column.withUnsafeMutableBufferPointer { col in
                            guard let base = src.baseAddress, let out = dst.baseAddress, let xip = xi.baseAddress,
                                  let xwp = xw.baseAddress, let c = col.baseAddress else { return }
                            let right = w >= 2 ? 1 : 0
                            for y in 0..<newHeight {
                                let fy = max(0, (Double(y) + 0.5) * sy - 0.5)
                                let iy = min(Int(fy), max(0, height - 2))
                                let wy = height < 2 ? 0 : UInt16(min(256, max(0, ((fy - Double(iy)) * 256).rounded())))
                                // Fenced: rows are clamped to the image; xIndex[x] + 1 <= width - 1 when width >= 2.
                                let row0 = base + iy * w, row1 = base + min(iy + 1, height - 1) * w
                                let keep = 256 &- wy
                                for j in 0..<w { c[j] = UInt16(row0[j]) &* keep &+ UInt16(row1[j]) &* wy }
                                let o = out + y * newWidth
                                for x in 0..<newWidth {
                                    let i = xip[x], a = xwp[x]
                                    let v = (UInt32(c[i]) &* (256 &- a) &+ UInt32(c[i &+ right]) &* a &+ 32768) >> 16
                                    o[x] = UInt8(truncatingIfNeeded: v)
                                }
                            }
                        }
                    }
                }
            }
            count = newWidth * newHeight
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }
}

