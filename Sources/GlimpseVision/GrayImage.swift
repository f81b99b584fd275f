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
        for p in pixels { histogram[Int(p)] += 1 }
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
        let out = pixels.map { table[Int($0)] }
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
        pixels.withUnsafeBufferPointer { srcBuffer in
            mid.withUnsafeMutableBufferPointer { dstBuffer in
                // Fenced: rows are addressed through base pointers; x stays inside 0..<w.
                guard let src = srcBuffer.baseAddress, let dst = dstBuffer.baseAddress else { return }
                for y in 0..<h {
                    let s = src + y * w, d = dst + y * w
                    func edge(_ x: Int) {
                        var acc: UInt32 = 0
                        for k in 0..<9 { acc += UInt32(s[min(max(x + k - 4, 0), w - 1)]) * binomial9[k] }
                        d[x] = UInt16((acc + 8) >> 4)
                    }
                    for x in 0..<min(4, w) { edge(x) }
                    if w > 8 { Self.smoothRow(s, d, count: w - 8) }
                    for x in max(4, w - 4)..<w { edge(x) }
                }
            }
        }
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dstBuffer, count in
            mid.withUnsafeBufferPointer { srcBuffer in
                guard let src = srcBuffer.baseAddress, let dst = dstBuffer.baseAddress else { return }
                for y in 0..<h {
                    var rows: [UnsafePointer<UInt16>] = []
                    rows.reserveCapacity(9)
                    for k in 0..<9 { rows.append(src + min(max(y + k - 4, 0), h - 1) * w) }
                    Self.smoothColumn(rows, dst + y * w, count: w)
                }
            }
            count = w * h
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// Horizontal 9-tap pass over `count` outputs `d[4...]` from `s[0...]`.
    @inline(__always)
    private static func smoothRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt16>, count: Int) {
        for x in 0..<count {
            let a = UInt32(s[x]) &+ UInt32(s[x &+ 8])
            let b = UInt32(s[x &+ 1]) &+ UInt32(s[x &+ 7])
            let c = UInt32(s[x &+ 2]) &+ UInt32(s[x &+ 6])
            let e = UInt32(s[x &+ 3]) &+ UInt32(s[x &+ 5])
            let v = a &+ 8 &* b &+ 28 &* c &+ 56 &* e &+ 70 &* UInt32(s[x &+ 4])
            d[x &+ 4] = UInt16(truncatingIfNeeded: (v &+ 8) >> 4)
        }
    }

    /// Vertical 9-tap pass over one output row from nine input rows.
    @inline(__always)
    private static func smoothColumn(_ r: [UnsafePointer<UInt16>], _ d: UnsafeMutablePointer<UInt8>, count: Int) {
        let r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r5 = r[5], r6 = r[6], r7 = r[7], r8 = r[8]
        for x in 0..<count {
            let a = UInt32(r0[x]) &+ UInt32(r8[x])
            let b = UInt32(r1[x]) &+ UInt32(r7[x])
            let c = UInt32(r2[x]) &+ UInt32(r6[x])
            let e = UInt32(r3[x]) &+ UInt32(r5[x])
            let v = a &+ 8 &* b &+ 28 &* c &+ 56 &* e &+ 70 &* UInt32(r4[x])
            d[x] = UInt8(truncatingIfNeeded: (v &+ 2048) >> 12)
        }
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

private let binomial9: [UInt32] = [1, 8, 28, 56, 70, 56, 28, 8, 1]
