import GlimpseImage
import Testing
@testable import GlimpseVision

@Suite struct FeatureExtractionTests {
    @Test func sameBufferGivesSameFeatures() throws {
        let buffer = try Fixtures.decode(Fixtures.photos[4])
        let a = FeatureExtractor.extract(from: buffer)
        let b = FeatureExtractor.extract(from: buffer)
        #expect(a == b)
        #expect(a.count > 300)
        #expect(a.count <= VisionConfiguration.default.maxKeypoints)
        #expect(a.descriptorWords.count == 4 * a.count)
        #expect(max(a.width, a.height) == VisionConfiguration.default.maxLongSide)
        // Descriptors carry information: they are not all the same.
        #expect(Set(stride(from: 0, to: a.descriptorWords.count, by: 4).map { a.descriptorWords[$0] }).count > a.count / 2)
        // Keypoints lie inside the image and span several pyramid levels.
        for k in a.keypoints {
            #expect(k.x >= 0 && k.y >= 0 && k.x < Float(a.width) && k.y < Float(a.height))
        }
        #expect(Set(a.keypoints.map(\.level)).count >= 4)
    }

    @Test(arguments: [4, 10, 33])
    func mirroredFeaturesAreThoseOfTheMirroredImage(photo: Int) throws {
        let prepared = FeatureExtractor.prepare(try Fixtures.decode(Fixtures.photos[photo]), query: true)
        let (features, mirror) = FeatureExtractor.extractWithMirror(fromPrepared: prepared)
        #expect(features == FeatureExtractor.extract(fromPrepared: prepared, query: true))
        let derived = mirror.mirroredFeatures()
        let extracted = FeatureExtractor.extract(fromPrepared: prepared.mirrored(), query: true)
        #expect(derived.width == extracted.width && derived.height == extracted.height)
        #expect(derived.count == features.count)
        // Keypoint for keypoint against a fresh extraction of the reflected picture: the same position,
        // orientation and descriptor, except where ties or interpolation rounding differ.
        var extractedAt: [SIMD3<Int32>: Int] = [:]
        for (i, k) in extracted.keypoints.enumerated() {
            extractedAt[SIMD3(Int32((k.x * 4).rounded()), Int32((k.y * 4).rounded()), k.level)] = i
        }
        var same = 0, sameDescriptor = 0, sameAngle = 0
        for (i, k) in derived.keypoints.enumerated() {
            guard let j = extractedAt[SIMD3(Int32((k.x * 4).rounded()), Int32((k.y * 4).rounded()), k.level)] else { continue }
            same += 1
            if abs(k.angle - extracted.keypoints[j].angle) < 1e-4 { sameAngle += 1 }
            if Array(derived.descriptorWords[(4 * i)..<(4 * i + 4)]) == Array(extracted.descriptorWords[(4 * j)..<(4 * j + 4)]) {
                sameDescriptor += 1
            }
        }
        #expect(Double(same) >= 0.9 * Double(derived.count), "\(same) of \(derived.count) at the same place")
        #expect(Double(sameAngle) >= 0.9 * Double(same), "\(sameAngle) of \(same) with the same angle")
        #expect(Double(sameDescriptor) >= 0.9 * Double(same), "\(sameDescriptor) of \(same) with the same descriptor")
    }

    @Test func patternIsSeededAndInsideThePatch() {
        let p1 = BRIEFPattern(seed: 7), p2 = BRIEFPattern(seed: 7), p3 = BRIEFPattern(seed: 8)
        #expect(p1.offsets == p2.offsets)
        #expect(p1.offsets != p3.offsets)
        #expect(p1.offsets.allSatisfy { abs(Int($0)) <= BRIEFPattern.radius })
    }

    @Test func rgbAndGrayInputsAgree() throws {
        let rgb = try Fixtures.decode(Fixtures.photos[10])
        let gray = GrayImage(luminanceOf: rgb)
        let grayBuffer = try Fixtures.buffer(gray)
        #expect(FeatureExtractor.extract(from: rgb) == FeatureExtractor.extract(from: grayBuffer))
    }

    @Test func flatImageHasNoKeypoints() throws {
        let flat = try PixelBuffer(width: 200, height: 120, pixelFormat: .gray8, bytes: [UInt8](repeating: 90, count: 24_000))
        let f = FeatureExtractor.extract(from: flat)
        #expect(f.count == 0)
        #expect(f.width == 200 && f.height == 120)
    }

    @Test func fastFindsTheCornersOfASquare() {
        // A bright square on a dark background: FAST-9 fires at its four corners only.
        var pixels = [UInt8](repeating: 20, count: 100 * 100)
        for y in 30..<70 { for x in 30..<70 { pixels[y * 100 + x] = 220 } }
        let image = GrayImage(width: 100, height: 100, pixels: pixels)
        var scores = [UInt16](repeating: 0, count: 100 * 100)
        let corners = FASTDetector.detect(image, threshold: 20, border: 5, scores: &scores)
        #expect(!corners.isEmpty)
        for c in corners {
            let nearCorner = [(30, 30), (69, 30), (30, 69), (69, 69)].contains { abs(Int(c.x) - $0.0) <= 2 && abs(Int(c.y) - $0.1) <= 2 }
            #expect(nearCorner, "corner at \(c.x),\(c.y)")
        }
    }

    /// FAST-9 straight from its definition: 9 contiguous ring pixels (of 16, wrapping) all brighter than
    /// p + t or all darker than p − t; the score is the whole ring's excess beyond the threshold for the
    /// kind with the arc (the larger when both), stored + 1, saturated.
    static func plainFASTScores(_ image: GrayImage, threshold t: Int, border: Int) -> [UInt16] {
        let ring = [(0, -3), (1, -3), (2, -2), (3, -1), (3, 0), (3, 1), (2, 2), (1, 3),
                    (0, 3), (-1, 3), (-2, 2), (-3, 1), (-3, 0), (-3, -1), (-2, -2), (-1, -3)]
        let w = image.width, h = image.height
        var out = [UInt16](repeating: 0, count: w * h)
        guard w > 2 * border, h > 2 * border else { return out }
        for y in border..<(h - border) {
            for x in border..<(w - border) {
                let p = Int(image.pixels[y * w + x])
                let values = ring.map { Int(image.pixels[(y + $0.1) * w + x + $0.0]) }
                func arc(_ on: (Int) -> Bool) -> Bool {
                    (0..<16).contains { start in (0..<9).allSatisfy { on(values[(start + $0) % 16]) } }
                }
                var score = 0
                if arc({ $0 > p + t }) { score = values.reduce(0) { $0 + max(0, $1 - (p + t)) } }
                if arc({ $0 < p - t }) { score = max(score, values.reduce(0) { $0 + max(0, (p - t) - $1) }) }
                if score > 0 { out[y * w + x] = UInt16(min(score + 1, 65535)) }
            }
        }
        return out
    }

    @Test(arguments: [false, true])
    func fastKernelAgreesWithThePlainDefinition(scalar: Bool) throws {
        // Noise (many candidates, runs across the 32-pixel blocks and the row ends), a real photo, and
        // saturated extremes (thresholds that reach past 0 and 255).
        var rng = TestRandom(state: 31)
        let noise = GrayImage(width: 97, height: 61, pixels: (0..<(97 * 61)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let photo = FeatureExtractor.prepare(try Fixtures.decode(Fixtures.photos[7]), query: true)
        let extremes = GrayImage(width: 70, height: 40, pixels: (0..<(70 * 40)).map { _ in [0, 1, 4, 251, 254, 255][Int(rng.next() % 6)] })
        for (image, threshold) in [(noise, 20), (noise, 8), (photo, 20), (photo, 8), (extremes, 20), (extremes, 1)] {
            var scores = [UInt16](repeating: 0, count: image.width * image.height)
            let corners = FASTDetector.detect(image, threshold: threshold, border: 5, scores: &scores, scalar: scalar)
            let plain = Self.plainFASTScores(image, threshold: threshold, border: 5)
            #expect(scores == plain, "\(image.width)×\(image.height), threshold \(threshold)")
            // The kept corners are the local maxima of those scores.
            #expect(corners.isEmpty == !plain.contains { $0 > 0 })
            #expect(plain.contains { $0 > 0 })
            for c in corners { #expect(plain[Int(c.y) * image.width + Int(c.x)] > 0) }
        }
    }

    /// The rotated-BRIEF descriptor by its definition: test k compares the smoothed pixel at the pattern's
    /// first point (horizontal offset times `xSign`) with the one at its second; bit k is 1 when darker.
    static func plainDescriptor(
        _ image: GrayImage, center: Int, bin: Int, pattern: BRIEFPattern, xSign: Int
    ) -> [UInt64] {
        (0..<4).map { word in
            var bits: UInt64 = 0
            for bit in 0..<64 {
                let o = (bin * 256 + word * 64 + bit) * 4
                let a = image.pixels[center + Int(pattern.offsets[o + 1]) * image.width + xSign * Int(pattern.offsets[o])]
                let b = image.pixels[center + Int(pattern.offsets[o + 3]) * image.width + xSign * Int(pattern.offsets[o + 2])]
                if a < b { bits |= 1 << UInt64(bit) }
            }
            return bits
        }
    }

    @Test(arguments: [false, true])
    func briefKernelAgreesWithThePlainDefinition(scalar: Bool) throws {
        // Noise and a real photo's smoothed level; keypoints on the border's edge and inside, every bin.
        var rng = TestRandom(state: 41)
        let noise = GrayImage(width: 83, height: 57, pixels: (0..<(83 * 57)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let photo = FeatureExtractor.prepare(try Fixtures.decode(Fixtures.photos[3]), query: true).smoothed()
        let pattern = FeatureExtractor.defaultPattern
        let border = FeatureExtractor.border
        for image in [noise, photo] {
            var centers: [Int32] = []
            var bins: [UInt8] = []
            let corners = [(border, border), (image.width - 1 - border, image.height - 1 - border),
                           (border, image.height - 1 - border), (image.width - 1 - border, border)]
            for i in 0..<(4 + 2 * BRIEFPattern.angleBins) {
                let (x, y) = i < 4 ? corners[i]
                    : (border + Int(rng.next() % UInt64(image.width - 2 * border)),
                       border + Int(rng.next() % UInt64(image.height - 2 * border)))
                centers.append(Int32(y * image.width + x))
                bins.append(UInt8(i % BRIEFPattern.angleBins))
            }
            for xSign in [1, -1] {
                var words: [UInt64] = [7]  // appended after what is there
                FeatureExtractor.appendDescriptors(
                    of: image, centers: centers, bins: bins, pattern: pattern, xSign: Int32(xSign), scalar: scalar,
                    to: &words)
                var plain: [UInt64] = [7]
                for (center, bin) in zip(centers, bins) {
                    plain += Self.plainDescriptor(image, center: Int(center), bin: Int(bin), pattern: pattern, xSign: xSign)
                }
                #expect(words == plain, "\(image.width)×\(image.height), xSign \(xSign)")
            }
        }
    }

    @Test func strongestCornersAreAStableSortByResponseCut() {
        // Many equal responses (which must keep their order), negative ones (Harris), zeros of both signs.
        var rng = TestRandom(state: 5)
        let values: [Float] = [-3.5, -1, -0.0, 0, 0.25, 1, 2, 2, 7.75, 1e6]
        let corners = (0..<500).map { i in
            FASTDetector.Corner(x: Int32(i), y: Int32(i % 7), response: values[Int(rng.next() % UInt64(values.count))])
        }
        let plain = corners.enumerated().sorted { l, r in
            l.element.response != r.element.response ? l.element.response > r.element.response : l.offset < r.offset
        }.map(\.element)
        for count in [0, 1, 37, 499, 500, 800] {
            let strongest = FASTDetector.strongest(corners, count: count)
            #expect(strongest.map(\.x) == plain.prefix(count).map(\.x), "count \(count)")
        }
        #expect(FASTDetector.strongest([], count: 5).isEmpty)
    }

    @Test(arguments: [false, true])
    func bilinearResamplingIsTheFixedPointFormula(scalar: Bool) {
        // Each output pixel: the two source rows and columns around its centre, weights in 256ths, one
        // rounding at the end: the pyramid's step, pinned so that a faster loop changes no keypoint.
        var rng = TestRandom(state: 41)
        let image = GrayImage(width: 83, height: 57, pixels: (0..<(83 * 57)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        for (nw, nh) in [(69, 48), (83, 57), (100, 70), (1, 1), (41, 3), (7, 60), (64, 2)] {
            let out = image.bilinearResampled(width: nw, height: nh, scalar: scalar)
            let sx = Double(image.width) / Double(nw), sy = Double(image.height) / Double(nh)
            for y in 0..<nh {
                let fy = max(0, (Double(y) + 0.5) * sy - 0.5), iy = min(Int(fy), image.height - 2)
                let wy = UInt32(min(256, max(0, ((fy - Double(iy)) * 256).rounded())))
                for x in 0..<nw {
                    let fx = max(0, (Double(x) + 0.5) * sx - 0.5), ix = min(Int(fx), image.width - 2)
                    let wx = UInt32(min(256, max(0, ((fx - Double(ix)) * 256).rounded())))
                    func p(_ xx: Int, _ yy: Int) -> UInt32 { UInt32(image.pixels[yy * image.width + xx]) }
                    let top = p(ix, iy) * (256 - wx) + p(ix + 1, iy) * wx
                    let bottom = p(ix, iy + 1) * (256 - wx) + p(ix + 1, iy + 1) * wx
                    let expected = UInt8((top * (256 - wy) + bottom * wy + 32768) >> 16)
                    #expect(out.pixels[y * nw + x] == expected, "(\(x), \(y)) of \(nw)×\(nh)")
                }
            }
        }
    }

    @Test(arguments: [(1, 1), (3, 5), (8, 9), (9, 8), (40, 33)])
    func smoothingIsTheBinomialKernelWithClampedEdges(width: Int, height: Int) {
        var rng = TestRandom(state: UInt64(43 + width))
        let image = GrayImage(width: width, height: height, pixels: (0..<(width * height)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let taps: [UInt32] = [1, 8, 28, 56, 70, 56, 28, 8, 1]
        var mid = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width {
            var v: UInt32 = 0
            for k in 0..<9 { v += UInt32(image.pixels[y * width + min(max(x + k - 4, 0), width - 1)]) * taps[k] }
            mid[y * width + x] = (v + 8) >> 4
        } }
        let smooth = image.smoothed()
        for y in 0..<height { for x in 0..<width {
            var v: UInt32 = 0
            for k in 0..<9 { v += mid[min(max(y + k - 4, 0), height - 1) * width + x] * taps[k] }
            #expect(smooth.pixels[y * width + x] == UInt8((v + 2048) >> 12), "(\(x), \(y))")
        } }
    }

    @Test(arguments: [false, true])
    func intensityMomentsAreThoseOfTheDisc(scalar: Bool) {
        var rng = TestRandom(state: 47)
        let image = GrayImage(width: 71, height: 53, pixels: (0..<(71 * 53)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        let b = FeatureExtractor.border
        var corners: [FASTDetector.Corner] = []
        for y in stride(from: b, to: 53 - b, by: 3) { for x in stride(from: b, to: 71 - b, by: 5) {
            corners.append(FASTDetector.Corner(x: Int32(x), y: Int32(y), response: 0))
        } }
        let (m10, m01) = FeatureExtractor.intensityMoments(of: corners, in: image, scalar: scalar)
        for (n, c) in corners.enumerated() {
            var e10 = 0, e01 = 0
            for v in -15...15 {
                let d = Int((225 - Double(v * v)).squareRoot().rounded(.down))
                for u in -d...d {
                    let p = Int(image.pixels[(Int(c.y) + v) * 71 + Int(c.x) + u])
                    e10 += u * p
                    e01 += v * p
                }
            }
            #expect(Int(m10[n]) == e10 && Int(m01[n]) == e01, "corner (\(c.x), \(c.y))")
        }
    }

    @Test(arguments: [false, true])
    func harrisResponseIsTheSobelWindowFormula(scalar: Bool) {
        var rng = TestRandom(state: 53)
        let image = GrayImage(width: 45, height: 37, pixels: (0..<(45 * 37)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        var corners: [FASTDetector.Corner] = []
        for y in stride(from: 4, to: 33, by: 4) { for x in stride(from: 4, to: 41, by: 3) {
            corners.append(FASTDetector.Corner(x: Int32(x), y: Int32(y), response: 0))
        } }
        // The last row and column a window fits in: the loads must stay inside the image.
        corners.append(FASTDetector.Corner(x: 40, y: 32, response: 0))
        corners.append(FASTDetector.Corner(x: 39, y: 32, response: 0))
        FASTDetector.harris(image, corners: &corners, scalar: scalar)
        func p(_ x: Int, _ y: Int) -> Int { Int(image.pixels[y * 45 + x]) }
        for c in corners {
            var a = 0, b = 0, d = 0
            for dy in -3...3 { for dx in -3...3 {
                let x = Int(c.x) + dx, y = Int(c.y) + dy
                let gx = (p(x + 1, y - 1) + 2 * p(x + 1, y) + p(x + 1, y + 1)) - (p(x - 1, y - 1) + 2 * p(x - 1, y) + p(x - 1, y + 1))
                let gy = (p(x - 1, y + 1) + 2 * p(x, y + 1) + p(x + 1, y + 1)) - (p(x - 1, y - 1) + 2 * p(x, y - 1) + p(x + 1, y - 1))
                a += gx * gx
                b += gy * gy
                d += gx * gy
            } }
            let scale: Float = 1.0 / (4 * 7 * 255)
            let sa = Float(a) * scale * scale, sb = Float(b) * scale * scale, sd = Float(d) * scale * scale
            let expected = sa * sb - sd * sd - 0.04 * (sa + sb) * (sa + sb)
            #expect(c.response == expected, "corner (\(c.x), \(c.y))")
        }
    }

    @Test func resampleKeepsFlatImagesFlatAndFitsTheSize() {
        let flat = GrayImage(width: 300, height: 200, pixels: [UInt8](repeating: 77, count: 60_000))
        let small = flat.resampled(width: 123, height: 82)
        #expect(small.width == 123 && small.height == 82)
        #expect(small.pixels.allSatisfy { $0 == 77 })
        #expect(flat.bilinearResampled(width: 250, height: 166).pixels.allSatisfy { $0 == 77 })
        #expect(flat.smoothed().pixels.allSatisfy { $0 == 77 })
        let size = GrayImage.fittedSize(width: 1600, height: 900, maxLongSide: 640, minLongSide: 0)
        #expect(size.width == 640 && size.height == 360)
    }

    @Test func shrinkingAveragesAndGrowingInterpolates() throws {
        let stripes = GrayImage(width: 4, height: 2, pixels: [0, 200, 0, 200, 0, 200, 0, 200])
        #expect(stripes.resampled(width: 2, height: 1).pixels == [100, 100])
        let ramp = GrayImage(width: 2, height: 1, pixels: [0, 200])
        let wide = ramp.resampled(width: 4, height: 1)
        #expect(wide.pixels.first == 0 && wide.pixels.last == 200)
        #expect(wide.pixels == wide.pixels.sorted() && Set(wide.pixels).count == 4)
    }

    @Test func preparingAPictureAveragesItInColourThenTakesItsLuma() throws {
        let rgb = try PixelBuffer(width: 4, height: 2, pixelFormat: .rgb8,
                                  bytes: (0..<24).map { UInt8(($0 * 37) % 256) })
        var configuration = VisionConfiguration.default
        configuration.maxLongSide = 2
        let prepared = FeatureExtractor.prepare(rgb, configuration: configuration)
        #expect(prepared == GrayImage(luminanceOf: rgb.areaAveraged(width: 2, height: 1)))
    }
}
