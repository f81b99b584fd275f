import GlimpseBasics
import GlimpseImage
import Testing

@Suite("PNG variants")
struct PNGVariantTests {
    static let width = 13, height = 7

    /// Packs `values` (each < 2^depth) into PNG rows of `samplesPerRow` samples at `depth` bits.
    static func pack(_ values: [Int], samplesPerRow: Int, depth: Int) -> (rows: [UInt8], stride: Int) {
        let stride = (samplesPerRow * depth + 7) / 8
        let rowCount = values.count / samplesPerRow
        var rows = [UInt8](repeating: 0, count: stride * rowCount)
        for row in 0..<rowCount {
            for i in 0..<samplesPerRow {
                let value = values[row * samplesPerRow + i]
                if depth == 16 {
                    rows[row * stride + 2 * i] = UInt8(value >> 8)
                    rows[row * stride + 2 * i + 1] = UInt8(value & 0xFF)
                } else {
                    let bit = i * depth
                    let shift = 8 - depth - bit % 8
                    rows[row * stride + bit / 8] |= UInt8(value << shift)
                }
            }
        }
        return (rows, stride)
    }

    static func values(count: Int, below limit: Int, seed: UInt64) -> [Int] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Int.random(in: 0..<limit, using: &generator) }
    }

    @Test("gray at 1, 2, 4 and 8 bits expands to gray8", arguments: [1, 2, 4, 8])
    func grayLowDepth(depth: Int) throws {
        let samples = Self.values(count: Self.width * Self.height, below: 1 << depth, seed: UInt64(depth))
        let (rows, stride) = Self.pack(samples, samplesPerRow: Self.width, depth: depth)
        for interlaced in [false, true] {
            let png = try Encode.png(rows: rows, width: Self.width, height: Self.height, stride: stride,
                                     colorType: 0, bitDepth: Int32(depth), interlaced: interlaced)
            let buffer = try ImageDecoder.decode(png).pixelBuffer
            #expect(buffer.pixelFormat == .gray8)
            let expected = samples.map { UInt8($0 * 255 / ((1 << depth) - 1)) }
            #expect(buffer.bytes == expected, "depth \(depth) interlaced \(interlaced)")
        }
    }

    @Test("16-bit gray, RGB and RGBA are scaled to 8 bits with rounding", arguments: [0, 2, 4, 6])
    func sixteenBit(colorType: Int) throws {
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][colorType] ?? 1
        let samples = Self.values(count: Self.width * Self.height * channels, below: 65_536, seed: 16)
        let (rows, stride) = Self.pack(samples, samplesPerRow: Self.width * channels, depth: 16)
        let png = try Encode.png(rows: rows, width: Self.width, height: Self.height, stride: stride,
                                 colorType: Int32(colorType), bitDepth: 16)
        let buffer = try ImageDecoder.decode(png).pixelBuffer
        let scaled = samples.map { UInt8(($0 * 255 + 32_767) / 65_535) }
        var expected: [UInt8] = []
        switch colorType {
        case 0:
            #expect(buffer.pixelFormat == .gray8)
            expected = scaled
        case 2:
            #expect(buffer.pixelFormat == .rgb8)
            expected = scaled
        case 4:
            #expect(buffer.pixelFormat == .rgba8)
            for i in Swift.stride(from: 0, to: scaled.count, by: 2) { expected += [scaled[i], scaled[i], scaled[i], scaled[i + 1]] }
        default:
            #expect(buffer.pixelFormat == .rgba8)
            expected = scaled
        }
        #expect(buffer.bytes.count == expected.count)
        let worst = zip(buffer.bytes, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "16→8 scaling is off by \(worst)")
    }

    @Test("palette images expand to RGB, and to RGBA with tRNS alpha per index", arguments: [1, 2, 4, 8])
    func palette(depth: Int) throws {
        let entries = 1 << depth
        var palette: [UInt8] = []
        for entry in 0..<entries {
            palette += [UInt8(entry * 7 % 256), UInt8(entry * 13 % 256), UInt8(255 - entry % 256)]
        }
        func colour(_ index: Int) -> [UInt8] { Array(palette[(index * 3)..<(index * 3 + 3)]) }
        let indices = Self.values(count: Self.width * Self.height, below: entries, seed: 3)
        let (rows, stride) = Self.pack(indices, samplesPerRow: Self.width, depth: depth)
        let opaque = try ImageDecoder.decode(try Encode.png(
            rows: rows, width: Self.width, height: Self.height, stride: stride, colorType: 3,
            bitDepth: Int32(depth), palette: palette)).pixelBuffer
        #expect(opaque.pixelFormat == .rgb8)
        let opaqueExpected: [UInt8] = indices.flatMap(colour)
        #expect(opaque.bytes == opaqueExpected)

        // tRNS shorter than the palette: the remaining entries are opaque.
        let alphas: [UInt8] = (0..<max(1, entries / 2)).map { UInt8($0 * 37 % 256) }
        let transparent = try ImageDecoder.decode(try Encode.png(
            rows: rows, width: Self.width, height: Self.height, stride: stride, colorType: 3,
            bitDepth: Int32(depth), interlaced: true, palette: palette, trns: alphas)).pixelBuffer
        #expect(transparent.pixelFormat == .rgba8)
        var expected: [UInt8] = []
        for index in indices { expected += colour(index) + [index < alphas.count ? alphas[index] : 255] }
        #expect(transparent.bytes == expected)
    }

    @Test("gray and RGB with a tRNS colour become RGBA with that colour transparent")
    func colourKey() throws {
        let gray = Self.values(count: Self.width * Self.height, below: 4, seed: 9).map { $0 * 80 }
        let (grayRows, grayStride) = Self.pack(gray, samplesPerRow: Self.width, depth: 8)
        let grayBuffer = try ImageDecoder.decode(try Encode.png(
            rows: grayRows, width: Self.width, height: Self.height, stride: grayStride, colorType: 0, bitDepth: 8,
            trnsColor: [80, 0, 0])).pixelBuffer
        #expect(grayBuffer.pixelFormat == .rgba8)
        #expect(grayBuffer.bytes == gray.flatMap { [UInt8($0), UInt8($0), UInt8($0), $0 == 80 ? 0 : 255] })

        let rgb = Self.values(count: Self.width * Self.height, below: 2, seed: 10).flatMap { $0 == 0 ? [10, 20, 30] : [200, 100, 50] }
        let (rgbRows, rgbStride) = Self.pack(rgb, samplesPerRow: Self.width * 3, depth: 8)
        let rgbBuffer = try ImageDecoder.decode(try Encode.png(
            rows: rgbRows, width: Self.width, height: Self.height, stride: rgbStride, colorType: 2, bitDepth: 8,
            trnsColor: [10, 20, 30])).pixelBuffer
        #expect(rgbBuffer.pixelFormat == .rgba8)
        var expected: [UInt8] = []
        for i in stride(from: 0, to: rgb.count, by: 3) {
            expected += rgb[i..<(i + 3)].map(UInt8.init) + [rgb[i] == 10 ? 0 : 255]
        }
        #expect(rgbBuffer.bytes == expected)
    }

    @Test("RGBA and gray+alpha keep their alpha; gray+alpha becomes RGBA")
    func alphaChannels() throws {
        let rgba = try Synthetic.noise(width: Self.width, height: Self.height, format: .rgba8, seed: 4)
        #expect(try ImageDecoder.decode(try Encode.png(rgba)).pixelBuffer == rgba)

        let samples = Self.values(count: Self.width * Self.height * 2, below: 256, seed: 5)
        let (rows, stride) = Self.pack(samples, samplesPerRow: Self.width * 2, depth: 8)
        let buffer = try ImageDecoder.decode(try Encode.png(
            rows: rows, width: Self.width, height: Self.height, stride: stride, colorType: 4, bitDepth: 8)).pixelBuffer
        #expect(buffer.pixelFormat == .rgba8)
        var expected: [UInt8] = []
        for i in Swift.stride(from: 0, to: samples.count, by: 2) {
            let g = UInt8(samples[i])
            expected += [g, g, g, UInt8(samples[i + 1])]
        }
        #expect(buffer.bytes == expected)
    }

    @Test("Adam7 interlaced decodes byte-identical to non-interlaced", arguments: PixelFormat.allCases)
    func interlaced(format: PixelFormat) throws {
        for (width, height) in [(1, 1), (1, 9), (9, 1), (37, 23)] {
            let picture = try Synthetic.noise(width: width, height: height, format: format, seed: 77)
            let plain = try ImageDecoder.decode(try Encode.png(picture))
            let adam7 = try ImageDecoder.decode(try Encode.png(picture, interlaced: true))
            #expect(plain.pixelBuffer == picture)
            #expect(adam7.pixelBuffer == picture, "\(format) \(width)×\(height)")
        }
    }

    @Test("a PNG is downscaled by area averaging")
    func downscaledPNG() throws {
        let picture = try Synthetic.noise(width: 40, height: 30, format: .rgb8, seed: 6)
        let image = try ImageDecoder.decode(try Encode.png(picture), options: .init(maxDimension: 10))
        #expect(image.pixelBuffer.width == 10 && image.pixelBuffer.height == 8)
        #expect(image.pixelBuffer == picture.areaAveraged(width: 10, height: 8))
    }
}
