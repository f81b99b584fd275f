import Testing
@testable import GlimpseImage

@Suite("DCT scale with slack below the bound")
struct DCTSlackTests {
    @Test("the strongest scale within the slack is chosen, and only within it")
    func denominators() {
        // 4032 / 8 = 504: 1.6 % below 512.
        #expect(JPEGCodec.scaleDenominator(longerSide: 4032, target: 512) == 4)
        #expect(JPEGCodec.scaleDenominator(longerSide: 4032, target: 512, slack: 0.05) == 8)
        #expect(JPEGCodec.scaleDenominator(longerSide: 4032, target: 512, slack: 0.01) == 4)
        // 1920 / 4 = 480: 6.25 % below 512, outside 5 %.
        #expect(JPEGCodec.scaleDenominator(longerSide: 1920, target: 512, slack: 0.05) == 2)
        // Out-of-range and NaN slack are clamped; images within the bound stay at full scale.
        #expect(JPEGCodec.scaleDenominator(longerSide: 4032, target: 512, slack: -1) == 4)
        #expect(JPEGCodec.scaleDenominator(longerSide: 4032, target: 512, slack: .nan) == 4)
        #expect(JPEGCodec.scaleDenominator(longerSide: 4032, target: 900, slack: 9) == 8)
        #expect(JPEGCodec.scaleDenominator(longerSide: 500, target: 512, slack: 0.05) == 1)
    }

    @Test("a JPEG within the slack decodes at the DCT scale and is not resampled; PNG ignores it")
    func decodedSizes() throws {
        let picture = try Synthetic.gradient(width: 1008, height: 756)
        let jpeg = try Encode.jpeg(picture, quality: 90)
        let exact = try ImageDecoder.decode(jpeg, options: .init(maxDimension: 130)).pixelBuffer
        #expect(exact.width == 130 && exact.height == 98)
        let slack = try ImageDecoder.decode(jpeg, options: .init(maxDimension: 130, maxDimensionSlack: 0.05)).pixelBuffer
        #expect(slack.width == 126 && slack.height == 95)  // 1008 / 8, 756 / 8 rounded up
        let scaled = try #require(exact.areaAveraged(width: 126, height: 95).meanDifference(slack))
        #expect(scaled < 3)  // the same picture, just not resampled
        let png = try Encode.png(picture)
        let pngSlack = try ImageDecoder.decode(png, options: .init(maxDimension: 130, maxDimensionSlack: 0.05)).pixelBuffer
        #expect(pngSlack.width == 130)
    }
}
