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
        image.pixels.withUnsafeBufferPointer { src in
            offs.withUnsafeBufferPointer { o in
                scores.withUnsafeMutableBufferPointer { sc in
                    let o0 = o[0], o4 = o[4], o8 = o[8], o12 = o[12]
                    for y in border..<(h - border) {
                        let row = y * w
                        for x in border..<(w - border) {
                            let i = row + x
                            let p = Int(src[i])
                            let hi = p + threshold, lo = p - threshold
                            let v0 = Int(src[i + o0]), v8 = Int(src[i + o8])
                            let v4 = Int(src[i + o4]), v12 = Int(src[i + o12])
                            let maybeBright = (v0 > hi || v8 > hi) && (v4 > hi || v12 > hi)
                            let maybeDark = (v0 < lo || v8 < lo) && (v4 < lo || v12 < lo)
                            if !maybeBright && !maybeDark { continue }
                            var bright: UInt32 = 0, dark: UInt32 = 0
                            var sumBright = 0, sumDark = 0
                            for k in 0..<16 {
                                let v = Int(src[i + o[k]])
                                if v > hi { bright |= 1 << UInt32(k); sumBright += v - hi }
                                else if v < lo { dark |= 1 << UInt32(k); sumDark += lo - v }
                            }
                            var score = 0
                            if hasArcOf9(bright) { score = sumBright }
                            if hasArcOf9(dark) { score = max(score, sumDark) }
                            if score > 0 {
                                sc[i] = UInt16(min(score + 1, 65535))
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
