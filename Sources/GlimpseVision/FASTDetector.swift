/// FAST-9 corner detection with a 3 × 3 non-maximum suppression and Harris ranking, on one
/// pyramid level. All loops run over contiguous bytes inside `withUnsafeBufferPointer`.
enum FASTDetector {
    /// A corner candidate on one level: integer position and its ranking response.
    struct Corner {
        var x: Int32
        var y: Int32
        var response: Float
    }

    /// Offsets of the 16-pixel Bresenham ring of radius 3, clockwise from the top.
    static let ring: [(Int, Int)] = [
        (0, -3), (1, -3), (2, -2), (3, -1), (3, 0), (3, 1), (2, 2), (1, 3),
        (0, 3), (-1, 3), (-2, 2), (-3, 1), (-3, 0), (-3, -1), (-2, -2), (-1, -3),
    ]

    /// Corners of `image` at least `border` pixels from every edge, FAST score > 0, suppressed to
    /// local maxima. Scores are written into `scores` (which must hold `width × height` zeros).
    static func detect(_ image: GrayImage, threshold: Int, border: Int, scores: inout [UInt16]) -> [Corner] {
        let w = image.width, h = image.height
        guard w > 2 * border, h > 2 * border else { return [] }
        var offs = [Int](repeating: 0, count: 16)
        for (i, d) in ring.enumerated() { offs[i] = d.1 * w + d.0 }
        var corners: [Corner] = []
        corners.reserveCapacity(1024)
        image.pixels.withUnsafeBufferPointer { srcBuffer in
            scores.withUnsafeMutableBufferPointer { scoreBuffer in
                // Fenced: every ring offset stays inside the image because of the border (≥ 3).
                guard let src = srcBuffer.baseAddress, let sc = scoreBuffer.baseAddress else { return }
                let o0 = offs[0], o1 = offs[1], o2 = offs[2], o3 = offs[3], o4 = offs[4], o5 = offs[5]
                let o6 = offs[6], o7 = offs[7], o8 = offs[8], o9 = offs[9], o10 = offs[10], o11 = offs[11]
                let o12 = offs[12], o13 = offs[13], o14 = offs[14], o15 = offs[15]
                let t8 = SIMD16<UInt8>(repeating: UInt8(clamping: threshold))
                let maxMinusT = SIMD16<UInt8>(repeating: 255 &- UInt8(clamping: threshold))
                let one = SIMD16<UInt8>(repeating: 1), nine = SIMD16<UInt8>(repeating: 9)
                // Lane k's bit (1 << k), split in two bytes so the 8-bit mask can select it.
                let lowLaneBits = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0)
                let highLaneBits = SIMD16<UInt8>(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128)
                let laneBits = SIMD16<UInt16>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
                for y in border..<(h - border) {
                    let rowPtr = src + y * w
                    var x = border
                    let end = w - border
                    while x < end {
                        // Sixteen pixels at once: the ones whose ring pixels 0 and 8 are both within
                        // the threshold cannot be corners; skip the block when that holds for all.
                        var lanes: UInt32 = 0xFFFF
                        if end - x >= 16 {
                            let raw = UnsafeRawPointer(rowPtr + x)
                            let center = raw.loadUnaligned(as: SIMD16<UInt8>.self)
                            let top = raw.loadUnaligned(fromByteOffset: o0, as: SIMD16<UInt8>.self)
                            let bottom = raw.loadUnaligned(fromByteOffset: o8, as: SIMD16<UInt8>.self)
                            let d0 = pointwiseMax(top, center) &- pointwiseMin(top, center)
                            let d8 = pointwiseMax(bottom, center) &- pointwiseMin(bottom, center)
                            let outside = (d0 .> t8) .| (d8 .> t8)
                            if !any(outside) { x += 16; continue }
                            // A corner needs at least 9 ring pixels brighter (or darker): count them
                            // for all sixteen pixels at once and keep only the lanes that reach 9.
                            let hiV = pointwiseMin(center, maxMinusT) &+ t8  // saturates at 255
                            let loV = pointwiseMax(center, t8) &- t8  // saturates at 0
                            var brighter = SIMD16<UInt8>(repeating: 0), darker = SIMD16<UInt8>(repeating: 0)
                            for k in 0..<16 {
                                let v = raw.loadUnaligned(fromByteOffset: offs[k], as: SIMD16<UInt8>.self)
                                brighter &+= one.replacing(with: 0, where: .!(v .> hiV))
                                darker &+= one.replacing(with: 0, where: .!(v .< loV))
                            }
                            let candidate = outside .& ((brighter .>= nine) .| (darker .>= nine))
                            if !any(candidate) { x += 16; continue }
                            lanes = UInt32(lowLaneBits.replacing(with: 0, where: .!candidate).wrappedSum())
                                | UInt32(highLaneBits.replacing(with: 0, where: .!candidate).wrappedSum()) << 8
                        } else {
                            lanes = (1 << UInt32(end - x)) - 1
                        }
                        let blockStart = x
                        x += min(16, end - x)
                        while lanes != 0 {
                        let lane = lanes.trailingZeroBitCount
                        lanes &= lanes - 1
                        let x = blockStart + lane
                        let c = rowPtr + x
                        let p = Int32(c[0])
                        let hi = p &+ Int32(threshold), lo = p &- Int32(threshold)
                        let v0 = Int32(c[o0]), v8 = Int32(c[o8])
                        // A 9-pixel arc always contains ring pixel 0 or 8, and 4 or 12.
                        if v0 <= hi && v8 <= hi && v0 >= lo && v8 >= lo { continue }
                        let v4 = Int32(c[o4]), v12 = Int32(c[o12])
                        let maybeBright = (v0 > hi || v8 > hi) && (v4 > hi || v12 > hi)
                        let maybeDark = (v0 < lo || v8 < lo) && (v4 < lo || v12 < lo)
                        if !maybeBright && !maybeDark { continue }
                        let ring = SIMD16<Int16>(
                            Int16(v0), Int16(c[o1]), Int16(c[o2]), Int16(c[o3]), Int16(v4), Int16(c[o5]), Int16(c[o6]),
                            Int16(c[o7]), Int16(v8), Int16(c[o9]), Int16(c[o10]), Int16(c[o11]), Int16(v12),
                            Int16(c[o13]), Int16(c[o14]), Int16(c[o15]))
                        let hiV = SIMD16<Int16>(repeating: Int16(hi)), loV = SIMD16<Int16>(repeating: Int16(lo))
                        let brightMask = ring .> hiV, darkMask = ring .< loV
                        let bright = UInt32(laneBits.replacing(with: 0, where: .!brightMask).wrappedSum())
                        let dark = UInt32(laneBits.replacing(with: 0, where: .!darkMask).wrappedSum())
                        let isBright = maybeBright && hasArcOf9(bright)
                        let isDark = maybeDark && hasArcOf9(dark)
                        if !isBright && !isDark { continue }
                        let zero = SIMD16<Int16>(repeating: 0)
                        let sumBright = Int(pointwiseMax(ring &- hiV, zero).wrappedSum())
                        let sumDark = Int(pointwiseMax(loV &- ring, zero).wrappedSum())
                        let score = max(isBright ? sumBright : 0, isDark ? sumDark : 0)
                        if score > 0 {
                            sc[y * w + x] = UInt16(min(score + 1, 65535))
                            corners.append(Corner(x: Int32(x), y: Int32(y), response: 0))
                        }
                        }
                    }
                }
            }
        }
        // Non-maximum suppression over the 8-neighbourhood (ties resolved in scan order).
        var kept: [Corner] = []
        kept.reserveCapacity(corners.count / 2)
        scores.withUnsafeBufferPointer { sc in
            for c in corners {
                let i = Int(c.y) * w + Int(c.x)
                let s = sc[i]
                if sc[i - w - 1] >= s || sc[i - w] >= s || sc[i - w + 1] >= s || sc[i - 1] >= s { continue }
                if sc[i + 1] > s || sc[i + w - 1] > s || sc[i + w] > s || sc[i + w + 1] > s { continue }
                kept.append(Corner(x: c.x, y: c.y, response: Float(s)))
            }
        }
        return kept
    }

    /// Whether the 16-bit ring mask holds 9 contiguous set bits (with wrap-around).
    @inline(__always)
    static func hasArcOf9(_ mask: UInt32) -> Bool {
        if mask.nonzeroBitCount < 9 { return false }
        let m = mask | (mask << 16)
        let r1 = m & (m >> 1)
        let r2 = r1 & (r1 >> 2)
        let r4 = r2 & (r2 >> 4)
        return (r4 & (m >> 8)) != 0
    }

    /// Harris corner response (k = 0.04) over a 7 × 7 window of Sobel gradients at each corner.
    static func harris(_ image: GrayImage, corners: inout [Corner]) {
        let w = image.width
        image.pixels.withUnsafeBufferPointer { src in
            for n in corners.indices {
                let cx = Int(corners[n].x), cy = Int(corners[n].y)
                var a = 0, b = 0, c = 0
                for dy in -3...3 {
                    let row = (cy + dy) * w + cx
                    for dx in -3...3 {
                        let i = row + dx
                        let tl = Int(src[i - w - 1]), t = Int(src[i - w]), tr = Int(src[i - w + 1])
                        let l = Int(src[i - 1]), r = Int(src[i + 1])
                        let bl = Int(src[i + w - 1]), bm = Int(src[i + w]), br = Int(src[i + w + 1])
                        let gx = (tr + 2 * r + br) - (tl + 2 * l + bl)
                        let gy = (bl + 2 * bm + br) - (tl + 2 * t + tr)
                        a += gx * gx
                        b += gy * gy
                        c += gx * gy
                    }
                }
                let fa = Float(a), fb = Float(b), fc = Float(c)
                let scale: Float = 1.0 / (4 * 7 * 255)
                let sa = fa * scale * scale, sb = fb * scale * scale, scc = fc * scale * scale
                corners[n].response = sa * sb - scc * scc - 0.04 * (sa + sb) * (sa + sb)
            }
        }
    }
}
