extension PixelBuffer {
    /// The width and height this buffer would have if scaled, keeping its aspect ratio, so that
    /// its longer side is `maxDimension`; its own size when it already fits.
    public func sizeFitting(maxDimension: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        guard longer > maxDimension, maxDimension >= 1 else { return (width, height) }
        func scaled(_ side: Int) -> Int {
            max(1, min(maxDimension, (side * maxDimension + longer / 2) / longer))
        }
        return width >= height ? (maxDimension, scaled(height)) : (scaled(width), maxDimension)
    }

    /// A copy whose longer side is at most `maxDimension`, made by area averaging (each output
    /// pixel is the mean of the source area it covers; colour is weighted by alpha for `rgba8`).
    /// Returns `self` when the buffer already fits; never enlarges.
    ///
    /// - Precondition: `maxDimension >= 1`.
    public func downscaled(toFit maxDimension: Int) -> PixelBuffer {
        precondition(maxDimension >= 1, "maxDimension must be at least 1, got \(maxDimension)")
        let (outWidth, outHeight) = sizeFitting(maxDimension: maxDimension)
        return areaAveraged(width: outWidth, height: outHeight)
    }

    /// A copy of `width × height` (each no larger than this buffer's) made by area averaging.
    ///
    /// - Precondition: `1 <= width <= self.width` and `1 <= height <= self.height`.
    public func areaAveraged(width outWidth: Int, height outHeight: Int) -> PixelBuffer {
        precondition(outWidth >= 1 && outWidth <= width && outHeight >= 1 && outHeight <= height,
                     "area averaging shrinks only: \(width)×\(height) to \(outWidth)×\(outHeight)")
        if outWidth == width && outHeight == height { return self }
        let channels = pixelFormat.bytesPerPixel
        let alpha = pixelFormat == .rgba8
        let geometry = AreaGeometry(
            sourceWidth: width, sourceHeight: height, sourceStride: bytesPerRow,
            width: outWidth, height: outHeight, channels: channels)
        return withUnsafeBytes { source in
            Self.assemble(width: outWidth, height: outHeight, pixelFormat: pixelFormat) { out, outStride in
                if width % outWidth == 0 && height % outHeight == 0 && !alpha {
                    AreaAverage.integerFactor(source, out, outStride, geometry)
                } else {
                    AreaAverage.fractional(source, out, outStride, geometry, alpha: alpha)
                }
            }
        }
    }
}

/// Sizes shared by the area-averaging loops.
struct AreaGeometry {
    let sourceWidth: Int, sourceHeight: Int, sourceStride: Int
    let width: Int, height: Int, channels: Int
}

/// Fenced pointer loops for area averaging; scratch memory is allocated once per call.
enum AreaAverage {
    /// Exact integer factors (no alpha): sums of `fx × fy` blocks with rounding.
    static func integerFactor(
        _ source: UnsafeRawBufferPointer, _ out: UnsafeMutableRawBufferPointer, _ outStride: Int, _ g: AreaGeometry
    ) {
        switch g.channels {
        case 1: integerFactor(source, out, outStride, g, channels: 1)
        case 3: integerFactor(source, out, outStride, g, channels: 3)
        default: integerFactor(source, out, outStride, g, channels: 4)
        }
    }

    @inline(__always)
    private static func integerFactor(
        _ source: UnsafeRawBufferPointer, _ out: UnsafeMutableRawBufferPointer, _ outStride: Int,
        _ g: AreaGeometry, channels ch: Int
    ) {
        guard let src = source.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let dst = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let fx = g.sourceWidth / g.width, fy = g.sourceHeight / g.height
        let count = UInt32(fx * fy)
        let half = count / 2
        let samples = g.width * ch
        let accumulator = UnsafeMutablePointer<UInt32>.allocate(capacity: samples)
        defer { accumulator.deallocate() }
        for dy in 0..<g.height {
            accumulator.initialize(repeating: 0, count: samples)
            for r in 0..<fy {
                var p = src + (dy * fy + r) * g.sourceStride
                var a = accumulator
                for _ in 0..<g.width {
                    for _ in 0..<fx {
                        for c in 0..<ch { a[c] &+= UInt32(p[c]) }
                        p += ch
                    }
                    a += ch
                }
            }
            let row = dst + dy * outStride
            for i in 0..<samples { row[i] = UInt8(truncatingIfNeeded: (accumulator[i] &+ half) / count) }
        }
    }

    /// Any factor: separable coverage weights. Without alpha the source rows an output row covers are
    /// blended first (one contiguous multiply-add per row, which vectorises), then that one blended row
    /// is resampled across; with alpha, see ``premultipliedFractional(_:_:_:_:)``.
    static func fractional(
        _ source: UnsafeRawBufferPointer, _ out: UnsafeMutableRawBufferPointer, _ outStride: Int,
        _ g: AreaGeometry, alpha: Bool
    ) {
        if alpha { return premultipliedFractional(source, out, outStride, g) }
        guard let src = source.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let dst = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let ch = g.channels
        let columns = CoverageTable(source: g.sourceWidth, target: g.width)
        let rows = CoverageTable(source: g.sourceHeight, target: g.height)
        let wide = g.sourceWidth * ch
        let blended = UnsafeMutablePointer<Float>.allocate(capacity: wide)
        defer { blended.deallocate() }
        rows.weights.withUnsafeBufferPointer { rowWeights in
            columns.weights.withUnsafeBufferPointer { columnWeights in
                columns.start.withUnsafeBufferPointer { columnStarts in
                    guard let wy = rowWeights.baseAddress, let wx = columnWeights.baseAddress,
                          let firstColumn = columnStarts.baseAddress else { return }
                    for dy in 0..<g.height {
                        var blending = false
                        for tap in 0..<rows.taps {
                            let weight = wy[dy * rows.taps + tap]
                            if weight == 0 { continue }
                            let row = src + (rows.start[dy] + tap) * g.sourceStride
                            if blending {
                                for i in 0..<wide { blended[i] += weight * Float(row[i]) }
                            } else {
                                for i in 0..<wide { blended[i] = weight * Float(row[i]) }
                                blending = true
                            }
                        }
                        let row = dst + dy * outStride
                        switch ch {
                        case 1: across(blended, row, wx, firstColumn, columns.count, columns.taps, channels: 1)
                        case 3: across(blended, row, wx, firstColumn, columns.count, columns.taps, channels: 3)
                        default: across(blended, row, wx, firstColumn, columns.count, columns.taps, channels: 4)
                        }
                    }
                }
            }
        }
    }

    /// One blended row resampled to the output width and rounded to bytes.
    @inline(__always)
    private static func across(
        _ blended: UnsafePointer<Float>, _ row: UnsafeMutablePointer<UInt8>, _ weights: UnsafePointer<Float>,
        _ starts: UnsafePointer<Int>, _ count: Int, _ taps: Int, channels ch: Int
    ) {
        for dx in 0..<count {
            var p = blended + starts[dx] * ch
            let w = weights + dx * taps
            var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
            for tap in 0..<taps {
                let weight = w[tap]
                s0 += weight * p[0]
                if ch > 1 { s1 += weight * p[1]; s2 += weight * p[2] }
                if ch > 3 { s3 += weight * p[3] }
                // The last taps of the last column may point past the row; their weight is 0 and
                // they are not read once the row ends.
                if tap + 1 < taps && w[tap + 1] == 0 { break }
                p += ch
            }
            let o = row + dx * ch
            o[0] = clampByte(s0)
            if ch > 1 { o[1] = clampByte(s1); o[2] = clampByte(s2) }
            if ch > 3 { o[3] = clampByte(s3) }
        }
    }

    /// Any factor with alpha: horizontal pass per source row with colour premultiplied by alpha (cached
    /// for rows shared by two output rows), vertical accumulation in `Float`, colour divided back.
    private static func premultipliedFractional(
        _ source: UnsafeRawBufferPointer, _ out: UnsafeMutableRawBufferPointer, _ outStride: Int, _ g: AreaGeometry
    ) {
        guard let src = source.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let dst = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let columns = CoverageTable(source: g.sourceWidth, target: g.width)
        let rows = CoverageTable(source: g.sourceHeight, target: g.height)
        let samples = g.width * 4
        let accumulator = UnsafeMutablePointer<Float>.allocate(capacity: samples)
        let resampled = UnsafeMutablePointer<Float>.allocate(capacity: samples)
        defer { accumulator.deallocate(); resampled.deallocate() }
        var cachedRow = -1
        for dy in 0..<g.height {
            accumulator.initialize(repeating: 0, count: samples)
            let first = rows.start[dy]
            for tap in 0..<rows.taps {
                let weightY = rows.weights[dy * rows.taps + tap]
                if weightY == 0 { continue }
                let sy = first + tap
                if sy != cachedRow {
                    columns.weights.withUnsafeBufferPointer { weights in
                        columns.start.withUnsafeBufferPointer { starts in
                            guard let w = weights.baseAddress, let s = starts.baseAddress else { return }
                            horizontalPremultiplied(src + sy * g.sourceStride, resampled, w, s, columns.count, columns.taps)
                        }
                    }
                    cachedRow = sy
                }
                for i in 0..<samples { accumulator[i] += weightY * resampled[i] }
            }
            let row = dst + dy * outStride
            for x in 0..<g.width {
                let a = accumulator[x * 4 + 3]
                let scale: Float = a > 0 ? 255 / a : 0
                for c in 0..<3 { row[x * 4 + c] = clampByte(accumulator[x * 4 + c] * scale) }
                row[x * 4 + 3] = clampByte(a)
            }
        }
    }

    private static func horizontalPremultiplied(
        _ row: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<Float>, _ weights: UnsafePointer<Float>,
        _ starts: UnsafePointer<Int>, _ count: Int, _ taps: Int
    ) {
        for dx in 0..<count {
            var p = row + starts[dx] * 4
            let w = weights + dx * taps
            var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
            for tap in 0..<taps {
                let a = Float(p[3])
                let weight = w[tap], weighted = w[tap] * a / 255
                s0 += weighted * Float(p[0]); s1 += weighted * Float(p[1]); s2 += weighted * Float(p[2])
                s3 += weight * a
                if tap + 1 < taps && w[tap + 1] == 0 { break }
                p += 4
            }
            let o = out + dx * 4
            o[0] = s0; o[1] = s1; o[2] = s2; o[3] = s3
        }
    }

    /// `value` rounded half up and clamped to 0…255. The clamp comes first, so the conversion needs no
    /// floor call: truncating a non-negative value is rounding down.
    @inline(__always)
    private static func clampByte(_ value: Float) -> UInt8 {
        let shifted = value + 0.5
        guard shifted >= 1 else { return 0 }  // also NaN
        return shifted >= 255 ? 255 : UInt8(shifted)
    }
}

/// For each output index, the first source index and `taps` weights (summing to 1) of the
/// source cells its interval `[i·s, (i+1)·s)` covers, with `s = source / target`.
struct CoverageTable {
    let count: Int
    let taps: Int
    let start: [Int]
    let weights: [Float]

    init(source: Int, target: Int) {
        let scale = Double(source) / Double(target)
        let taps = Int(scale.rounded(.up)) + 1
        var start = [Int](repeating: 0, count: target)
        var weights = [Float](repeating: 0, count: target * taps)
        for i in 0..<target {
            let lower = Double(i) * scale, upper = min(Double(i + 1) * scale, Double(source))
            let first = min(Int(lower.rounded(.down)), source - 1)
            start[i] = first
            for tap in 0..<taps {
                let cell = first + tap
                guard cell < source else { break }
                let overlap = min(upper, Double(cell + 1)) - max(lower, Double(cell))
                if overlap > 0 { weights[i * taps + tap] = Float(overlap / scale) }
            }
        }
        self.count = target
        self.taps = taps
        self.start = start
        self.weights = weights
    }
}
