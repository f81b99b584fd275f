import CGlimpseVisionKernels

/// FAST-9 corner detection with a 3 × 3 non-maximum suppression and Harris ranking, on one
/// pyramid level. The detection itself is the C kernel `glimpse_fast9` (AVX2 where the CPU has it).
enum FASTDetector {
    /// A corner candidate on one level: integer position and its ranking response.
    struct Corner {
        var x: Int32
        var y: Int32
        var response: Float
    }

    /// The `count` strongest of `corners` (all of them when fewer), strongest first and equal responses in
    /// their given order: a stable sort by descending response cut to `count`, done as one sort of
    /// 64-bit keys (response, then position in `corners`) instead of a stable sort with a comparator.
    static func strongest(_ corners: [Corner], count: Int) -> [Corner] {
        strongestIndices(corners, count: count).map { corners[$0] }
    }

    /// The positions in `corners` of ``strongest(_:count:)``'s corners, in its order.
    static func strongestIndices(_ corners: [Corner], count: Int) -> [Int] {
        var keys: [UInt64] = []
        keys.reserveCapacity(corners.count)
        for (i, c) in corners.enumerated() {
            // The float's bits reordered so that unsigned order is numeric order (−0 counts as 0).
            let bits = (c.response == 0 ? 0 : c.response).bitPattern
            let ordered = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
            keys.append(UInt64(ordered) << 32 | UInt64(UInt32.max - UInt32(truncatingIfNeeded: i)))
        }
        keys.sort(by: >)
        return keys.prefix(max(0, count)).map { Int(UInt32.max - UInt32(truncatingIfNeeded: $0)) }
    }

    /// `count` of `corners` spread over a `cells × cells` grid of a `width × height` level: in order of
    /// strength, a corner is taken while its cell holds fewer than twice the cell's even share of `count`
    /// (at least one), then the strongest of those passed over fill what is left. Strongest first; with
    /// one cell (or no more corners than `count`) this is ``strongest(_:count:)``.
    ///
    /// A reference photo ranked by strength alone spends its budget where the texture is densest; a
    /// camera picture that shows a small, plainer part of the scene then finds few of its keypoints.
    static func spread(_ corners: [Corner], count: Int, width: Int, height: Int, cells: Int) -> [Corner] {
        spreadIndices(corners, count: count, width: width, height: height, cells: cells).map { corners[$0] }
    }

    /// The positions in `corners` of ``spread(_:count:width:height:cells:)``'s corners, in its order.
    static func spreadIndices(_ corners: [Corner], count: Int, width: Int, height: Int, cells: Int) -> [Int] {
        let count = max(0, count)
        guard cells > 1, corners.count > count, width > 0, height > 0 else { return strongestIndices(corners, count: count) }
        let ranked = strongestIndices(corners, count: corners.count)
        let cap = max(1, Int((2 * Double(count) / Double(cells * cells)).rounded(.up)))
        var filled = [Int](repeating: 0, count: cells * cells)
        var taken = [Bool](repeating: false, count: ranked.count)
        var chosen = 0
        for (i, index) in ranked.enumerated() where chosen < count {
            let c = corners[index]
            let cx = min(cells - 1, max(0, Int(c.x)) * cells / width)
            let cy = min(cells - 1, max(0, Int(c.y)) * cells / height)
            if filled[cy * cells + cx] < cap {
                filled[cy * cells + cx] += 1
                taken[i] = true
                chosen += 1
            }
        }
        for i in ranked.indices where chosen < count && !taken[i] {
            taken[i] = true
            chosen += 1
        }
        var out: [Int] = []
        out.reserveCapacity(count)
        for (i, index) in ranked.enumerated() where taken[i] { out.append(index) }
        return out
    }

    /// Whether detection runs the kernel's AVX2 variant.
    static var usesAVX2: Bool { glimpse_fast9_uses_avx2() != 0 }

    /// Corners of `image` at least `border` (≥ 3) pixels from every edge, FAST score > 0, suppressed to
    /// local maxima. Scores are written into `scores` (which must hold `width × height` zeros).
    ///
    /// - Parameter scalar: run the kernel's scalar variant whatever the CPU (for tests).
    static func detect(
        _ image: GrayImage, threshold: Int, border: Int, scores: inout [UInt16], scalar: Bool = false
    ) -> [Corner] {
        let w = image.width, h = image.height
        precondition(scores.count == w * h, "scores must hold one value per pixel")
        guard w > 2 * border, h > 2 * border, border >= 3, threshold >= 1 else { return [] }
        var capacity = 4096
        var positions = [Int32](repeating: 0, count: 2 * capacity)
        var found = 0
        while true {
            found = image.pixels.withUnsafeBufferPointer { src in
                scores.withUnsafeMutableBufferPointer { sc in
                    positions.withUnsafeMutableBufferPointer { xy in
                        // Fenced: the kernel reads the image and writes `scores` (both w × h) and at most
                        // `capacity` positions, only during the call.
                        guard let s = src.baseAddress, let o = sc.baseAddress, let p = xy.baseAddress else { return 0 }
                        return glimpse_fast9(
                            s, Int32(w), Int32(h), Int32(border), Int32(min(threshold, 255)), scalar ? 1 : 0, o, p,
                            capacity)
                    }
                }
            }
            if found <= capacity { break }
            // More corners than room: run again with room for all (the scores come out the same).
            capacity = found
            positions = [Int32](repeating: 0, count: 2 * capacity)
        }
        var corners: [Corner] = []
        corners.reserveCapacity(found)
        for i in 0..<found { corners.append(Corner(x: positions[2 * i], y: positions[2 * i + 1], response: 0)) }
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

    /// Harris corner response (k = 0.04) over a 7 × 7 window of Sobel gradients at each corner (the C kernel
    /// `glimpse_harris`); every corner lies at least 4 pixels from the image's edges.
    ///
    /// - Parameter scalar: run the kernel's scalar variant whatever the CPU (for tests).
    static func harris(_ image: GrayImage, corners: inout [Corner], scalar: Bool = false) {
        let w = image.width
        precondition(corners.allSatisfy {
            Int($0.x) >= 4 && Int($0.y) >= 4 && Int($0.x) < w - 4 && Int($0.y) < image.height - 4
        }, "a corner lies within 4 pixels of the edge")
        let centers = corners.map { Int32(truncatingIfNeeded: Int($0.y) * w + Int($0.x)) }
        var response = [Float](repeating: 0, count: corners.count)
        image.pixels.withUnsafeBufferPointer { src in
            centers.withUnsafeBufferPointer { cp in
                response.withUnsafeMutableBufferPointer { out in
                    // Fenced: every window and its gradients' neighbours lie inside the image (checked above).
                    guard let s = src.baseAddress, let c = cp.baseAddress, let o = out.baseAddress else { return }
                    glimpse_harris(s, Int32(w), c, corners.count, scalar ? 1 : 0, o)
                }
            }
        }
        for n in corners.indices { corners[n].response = response[n] }
    }
}
