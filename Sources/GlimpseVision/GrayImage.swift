import GlimpseImage

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

    /// The luminance of `buffer` (Rec. 601 weights; alpha ignored), at full size.
    public init(luminanceOf buffer: PixelBuffer) {
        let width = buffer.width, height = buffer.height
        let bpp = buffer.pixelFormat.bytesPerPixel
        let stride = buffer.bytesPerRow
        let isGray = buffer.pixelFormat == .gray8
        let out = [UInt8](unsafeUninitializedCapacity: width * height) { dst, count in
            buffer.withUnsafeBytes { src in
                // Fenced: every index below is inside the row bounds checked by PixelBuffer's invariants.
                for y in 0..<height {
                    let row = y * stride
                    let orow = y * width
                    if isGray {
                        for x in 0..<width { dst[orow + x] = src[row + x] }
                    } else {
                        for x in 0..<width {
                            let p = row + x * bpp
                            let r = UInt32(src[p]), g = UInt32(src[p + 1]), b = UInt32(src[p + 2])
                            dst[orow + x] = UInt8(truncatingIfNeeded: (77 &* r &+ 150 &* g &+ 29 &* b &+ 128) >> 8)
                        }
                    }
                }
            }
            count = width * height
        }
        self.init(width: width, height: height, pixels: out)
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

    /// This image resampled to `newWidth × newHeight` with an antialiasing triangle filter.
    public func resampled(width newWidth: Int, height newHeight: Int) -> GrayImage {
        precondition(newWidth > 0 && newHeight > 0, "resample target must be non-empty")
        if newWidth == width && newHeight == height { return self }
        let hTaps = ResampleTaps(source: width, target: newWidth)
        let vTaps = ResampleTaps(source: height, target: newHeight)
        // Horizontal pass into floats, then vertical pass into bytes.
        var mid = [Float](repeating: 0, count: height * newWidth)
        pixels.withUnsafeBufferPointer { src in
            mid.withUnsafeMutableBufferPointer { dst in
                hTaps.weights.withUnsafeBufferPointer { w in
                    for y in 0..<height {
                        let srow = y * width, drow = y * newWidth
                        for x in 0..<newWidth {
                            let start = hTaps.starts[x], n = hTaps.counts[x], wo = x * hTaps.maxTaps
                            var acc: Float = 0
                            for k in 0..<n { acc += Float(src[srow + start + k]) * w[wo + k] }
                            dst[drow + x] = acc
                        }
                    }
                }
            }
        }
        let out = [UInt8](unsafeUninitializedCapacity: newWidth * newHeight) { dst, count in
            mid.withUnsafeBufferPointer { src in
                var row = [Float](repeating: 0, count: newWidth)
                for y in 0..<newHeight {
                    let start = vTaps.starts[y], n = vTaps.counts[y], wo = y * vTaps.maxTaps
                    for x in 0..<newWidth { row[x] = 0 }
                    for k in 0..<n {
                        let wk = vTaps.weights[wo + k]
                        let srow = (start + k) * newWidth
                        for x in 0..<newWidth { row[x] += src[srow + x] * wk }
                    }
                    let drow = y * newWidth
                    for x in 0..<newWidth { dst[drow + x] = UInt8(max(0, min(255, row[x] + 0.5))) }
                }
            }
            count = newWidth * newHeight
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
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
        pixels.withUnsafeBufferPointer { src in
            mid.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let r = y * w
                    for x in 0..<w {
                        if x >= 4 && x < w - 4 {
                            let p = r + x
                            let a = UInt32(src[p - 4]) + UInt32(src[p + 4])
                            let b = UInt32(src[p - 3]) + UInt32(src[p + 3])
                            let c = UInt32(src[p - 2]) + UInt32(src[p + 2])
                            let d = UInt32(src[p - 1]) + UInt32(src[p + 1])
                            let s = a &+ 8 &* b &+ 28 &* c &+ 56 &* d &+ 70 &* UInt32(src[p])
                            dst[p] = UInt16((s + 8) >> 4)
                        } else {
                            var s: UInt32 = 0
                            for (k, wk) in binomial9.enumerated() {
                                let xx = min(max(x + k - 4, 0), w - 1)
                                s += UInt32(src[r + xx]) * wk
                            }
                            dst[r + x] = UInt16((s + 8) >> 4)
                        }
                    }
                }
            }
        }
        let out = [UInt8](unsafeUninitializedCapacity: w * h) { dst, count in
            mid.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    let r = y * w
                    if y >= 4 && y < h - 4 {
                        for x in 0..<w {
                            let p = r + x
                            let a = UInt32(src[p - 4 * w]) + UInt32(src[p + 4 * w])
                            let b = UInt32(src[p - 3 * w]) + UInt32(src[p + 3 * w])
                            let c = UInt32(src[p - 2 * w]) + UInt32(src[p + 2 * w])
                            let d = UInt32(src[p - w]) + UInt32(src[p + w])
                            let s = a &+ 8 &* b &+ 28 &* c &+ 56 &* d &+ 70 &* UInt32(src[p])
                            dst[p] = UInt8(truncatingIfNeeded: (s + 2048) >> 12)
                        }
                    } else {
                        for x in 0..<w {
                            var s: UInt32 = 0
                            for (k, wk) in binomial9.enumerated() {
                                let yy = min(max(y + k - 4, 0), h - 1)
                                s += UInt32(src[yy * w + x]) * wk
                            }
                            dst[r + x] = UInt8(truncatingIfNeeded: (s + 2048) >> 12)
                        }
                    }
                }
            }
            count = w * h
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}

private let binomial9: [UInt32] = [1, 8, 28, 56, 70, 56, 28, 8, 1]

/// Precomputed filter taps of a 1-D resample from `source` to `target` samples.
struct ResampleTaps {
    var starts: [Int]
    var counts: [Int]
    var weights: [Float]
    var maxTaps: Int

    init(source: Int, target: Int) {
        let scale = Double(source) / Double(target)
        let support = max(1.0, scale)  // triangle half-width in source pixels
        let maxTaps = Int((support * 2).rounded(.up)) + 2
        var starts = [Int](repeating: 0, count: target)
        var counts = [Int](repeating: 0, count: target)
        var weights = [Float](repeating: 0, count: target * maxTaps)
        for i in 0..<target {
            let center = (Double(i) + 0.5) * scale
            let lo = max(0, Int((center - support).rounded(.down)))
            let hi = min(source, Int((center + support).rounded(.up)))
            var total = 0.0
            var n = 0
            var local = [Double]()
            for j in lo..<hi where n < maxTaps {
                let wgt = max(0, 1 - abs((Double(j) + 0.5 - center) / support))
                local.append(wgt)
                total += wgt
                n += 1
            }
            starts[i] = lo
            counts[i] = n
            for k in 0..<n { weights[i * maxTaps + k] = Float(total > 0 ? local[k] / total : (k == 0 ? 1 : 0)) }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.maxTaps = maxTaps
    }
}
