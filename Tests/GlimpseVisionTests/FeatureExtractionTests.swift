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
        #expect(features == FeatureExtractor.extract(fromPrepared: prepared))
        let derived = mirror.mirroredFeatures()
        let extracted = FeatureExtractor.extract(fromPrepared: prepared.mirrored())
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

    @Test func arcTest() {
        #expect(FASTDetector.hasArcOf9(0b0000_0001_1111_1111))
        #expect(FASTDetector.hasArcOf9(0b1111_1000_0000_1111))  // wraps around
        #expect(!FASTDetector.hasArcOf9(0b0000_0000_1111_1111))
        #expect(!FASTDetector.hasArcOf9(0b0101_0101_0101_0101))
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
