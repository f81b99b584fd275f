import GlimpseImage
import Testing

@Suite("CMYK and YCCK JPEG")
struct CMYKTests {
    /// Flat 16×16 blocks of known RGB colours and the ink values (C, M, Y, K) that produce them.
    static let colours: [[UInt8]] = [
        [255, 0, 0], [0, 128, 255], [40, 200, 90], [250, 250, 250], [10, 10, 10], [128, 64, 32],
    ]

    static func inks(_ rgb: [UInt8]) -> [UInt8] {
        let k = 255 - Int(rgb.max() ?? 0)
        guard k < 255 else { return [0, 0, 0, 255] }
        return rgb.map { UInt8((255 - Int($0) - k) * 255 / (255 - k)) } + [UInt8(k)]
    }

    /// `inks` rendered the way the CMYK decode defines it: value = (255 − ink)(255 − K)/255.
    static func reference(_ ink: [UInt8]) -> [Int] {
        (0..<3).map { (255 - Int(ink[$0])) * (255 - Int(ink[3])) / 255 }
    }

    static func picture(inverted: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<16 {
            for colour in colours {
                let ink = inks(colour)
                for _ in 0..<16 { bytes += inverted ? ink.map { 255 - $0 } : ink }
            }
        }
        return bytes
    }

    @Test("CMYK and YCCK with the Adobe marker (inverted) and CMYK without it decode to RGB",
          arguments: [(false, true), (true, true), (false, false)])
    func cmyk(ycck: Bool, adobe: Bool) throws {
        let width = 16 * Self.colours.count
        let jpeg = try Encode.jpeg(Self.picture(inverted: adobe), width: width, height: 16, components: 4,
                                   quality: 100, ycck: ycck, adobeMarker: adobe)
        let image = try ImageDecoder.decode(jpeg)
        #expect(image.pixelBuffer.pixelFormat == .rgb8)
        #expect(image.pixelBuffer.width == width)
        for (index, colour) in Self.colours.enumerated() {
            let found = image.pixelBuffer.pixel(index * 16 + 8, 8).map(Int.init)
            let expected = Self.reference(Self.inks(colour))
            #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 3 },
                    "ycck \(ycck) adobe \(adobe): \(found) vs \(expected) for \(colour)")
        }
    }

    @Test("CMYK decodes at DCT scales too")
    func scaledCMYK() throws {
        let width = 16 * Self.colours.count
        let jpeg = try Encode.jpeg(Self.picture(inverted: true), width: width, height: 16, components: 4, quality: 100)
        let image = try ImageDecoder.decode(jpeg, options: .init(maxDimension: width / 8))
        #expect(image.pixelBuffer.width == width / 8 && image.pixelBuffer.height == 2)
        let found = image.pixelBuffer.pixel(1, 1).map(Int.init)
        let expected = Self.reference(Self.inks(Self.colours[0]))
        #expect(zip(found, expected).allSatisfy { abs($0 - $1) <= 3 }, "\(found) vs \(expected)")
    }
}
