import GlimpseFeaturePrint
import GlimpseImage
import GlimpseTestSupport
import Testing

@Suite("Feature prints and preprocessing")
struct FeaturePrintTests {
    @Test("A print has unit length; cosine is the dot product; a zero embedding stays zero")
    func normalisation() {
        let a = FeaturePrint(normalizing: [3, 4, 0, 0, 0, 0, 0, 0, 0, 12])
        #expect(abs(a.dot(a) - 1) < 1e-6)
        #expect(abs(a.values[0] - 3.0 / 13) < 1e-7)
        let b = FeaturePrint(normalizing: [0, 4, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(abs(a.cosine(b) - 4.0 / 13) < 1e-6)
        let zero = FeaturePrint(normalizing: [Float](repeating: 0, count: 10))
        #expect(zero.cosine(a) == 0)
    }

    @Test("squash reduces the whole image; centerCrop the centred square")
    func preprocessingModes() throws {
        // Left third red, middle third green, right third blue, 672×224.
        let image = try TestImages.image(width: 672, height: 224) { x, _ in
            x < 224 ? (255, 0, 0) : x < 448 ? (0, 255, 0) : (0, 0, 255)
        }
        let squashed = FeaturePrintPreprocessing.squash.networkInput(from: image, size: 224)
        let cropped = FeaturePrintPreprocessing.centerCrop.networkInput(from: image, size: 224)
        #expect(squashed.width == 224 && squashed.height == 224 && squashed.pixelFormat == .rgb8)
        #expect(cropped.width == 224 && cropped.height == 224)
        func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
            buffer.withUnsafeBytes { Array($0[(y * buffer.bytesPerRow + x * 3)..<(y * buffer.bytesPerRow + x * 3 + 3)]) }
        }
        #expect(pixel(squashed, 10, 100) == [255, 0, 0] && pixel(squashed, 213, 100) == [0, 0, 255])
        #expect(pixel(cropped, 0, 0) == [0, 255, 0] && pixel(cropped, 223, 223) == [0, 255, 0])
    }

    @Test("Small, gray and RGBA images become size × size RGB")
    func smallAndOtherFormats() throws {
        let small = try Support.pattern(width: 50, height: 300)
        let input = FeaturePrintPreprocessing.squash.networkInput(from: small, size: 224)
        #expect(input.width == 224 && input.height == 224 && input.pixelFormat == .rgb8)
        let gray = FeaturePrintPreprocessing.centerCrop.networkInput(from: small.converted(to: .gray8), size: 32)
        #expect(gray.width == 32 && gray.height == 32 && gray.pixelFormat == .rgb8)
        let exact = try Support.pattern(width: 224, height: 224)
        #expect(FeaturePrintPreprocessing.squash.networkInput(from: exact.converted(to: .rgba8), size: 224) == exact)
    }

    @Test("featurePrint(of:) is featurePrint(ofNetworkInput:) of the preprocessed image")
    func endToEnd() throws {
        let model = try Support.smallModel(inputSize: 17)
        let image = try Support.pattern(width: 70, height: 40, seed: 3)
        for mode in FeaturePrintPreprocessing.allCases {
            let printer = try FeaturePrinter(model: model, preprocessing: mode)
            let direct = try printer.featurePrint(ofNetworkInput: mode.networkInput(from: image, size: 17))
            #expect(try printer.featurePrint(of: image) == direct)
            let (print, logits) = try printer.featurePrintWithLogits(of: image)
            #expect(print == direct && logits.count == 7)
        }
    }
}
