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
        bilinearResampled(width: newWidth, height: newHeight, scalar: false)
    }

    /// ``bilinearResampled(width:height:)`` through the C kernel `glimpse_bilinear`; with `scalar`, its
    /// scalar variant whatever the CPU (for tests).
    func bilinearResampled(width newWidth: Int, height newHeight: Int, scalar: Bool) -> GrayImage {
        precondition(newWidth > 0 && newHeight > 0, "bilinear target must be non-empty")
        // Per output column (row): the left (upper) source index and the 8-bit weight of its neighbour.
        func taps(_ count: Int, from size: Int) -> (index: [Int32], weight: [UInt16]) {
            let s = Double(size) / Double(count)
            var index = [Int32](repeating: 0, count: count)
            var weight = [UInt16](repeating: 0, count: count)
            for i in 0..<count {
                let f = max(0, (Double(i) + 0.5) * s - 0.5)
                let lower = min(Int(f), max(0, size - 2))
                index[i] = Int32(lower)
                weight[i] = size < 2 ? 0 : UInt16(min(256, max(0, ((f - Double(lower)) * 256).rounded())))
            }
            return (index, weight)
        }
        let columns = taps(newWidth, from: width), rows = taps(newHeight, from: height)
        var column = [UInt16](repeating: 0, count: width + 1)
        let out = [UInt8](unsafeUninitializedCapacity: newWidth * newHeight) { dst, count in
            pixels.withUnsafeBufferPointer { src in
                columns.index.withUnsafeBufferPointer { xi in
                    columns.weight.withUnsafeBufferPointer { xw in
                        rows.index.withUnsafeBufferPointer { yi in
                            rows.weight.withUnsafeBufferPointer { yw in
                                column.withUnsafeMutableBufferPointer { col in
                                    // Fenced: indices are clamped to the image above (x ≤ width − 2 when
                                    // width ≥ 2), weights to 0...256; dst holds newWidth × newHeight bytes.
                                    guard let s = src.baseAddress, let o = dst.baseAddress, let xip = xi.baseAddress,
                                          let xwp = xw.baseAddress, let yip = yi.baseAddress, let ywp = yw.baseAddress,
                                          let c = col.baseAddress else { return }
                                    glimpse_bilinear(
                                        s, Int32(width), Int32(height), xip, xwp, Int32(newWidth), yip, ywp,
                                        Int32(newHeight), scalar ? 1 : 0, c, o)
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

