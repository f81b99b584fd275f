import GlimpseImage
import Testing

@Suite("EXIF orientation")
struct OrientationTests {
    /// An EXIF APP1 body ("Exif\0\0" + TIFF) holding only the orientation tag.
    static func exif(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let order: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        let tiff = order + u16(42) + u32(8) + u16(2)
            + u16(0x010F) + u16(2) + u32(4) + Array("ABC\0".utf8)  // Make, inline ASCII
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
            + u32(0)
        return Array("Exif".utf8) + [0, 0] + tiff
    }

    /// A 32×16 picture of four flat 16×8 quadrants: red, green / blue, white.
    static func quadrants() throws -> PixelBuffer {
        let colors: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]
        var bytes: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<32 { bytes += colors[(y / 8) * 2 + x / 16] }
        }
        return try PixelBuffer(width: 32, height: 16, pixelFormat: .rgb8, bytes: bytes)
    }

    /// Where the stored top-left, top-right, bottom-left, bottom-right corners end up, upright.
    static func expectedCorners(_ orientation: Int) -> [[UInt8]] {
        let (r, g, b, w): ([UInt8], [UInt8], [UInt8], [UInt8]) = ([255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255])
        // Output corners in order top-left, top-right, bottom-left, bottom-right.
        switch orientation {
        case 1: return [r, g, b, w]
        case 2: return [g, r, w, b]
        case 3: return [w, b, g, r]
        case 4: return [b, w, r, g]
        case 5: return [r, b, g, w]
        case 6: return [b, r, w, g]
        case 7: return [w, g, b, r]
        default: return [g, w, r, b]
        }
    }

    @Test("orientations 1–8 turn the picture upright", arguments: 1...8)
    func orientedJPEG(orientation: Int) throws {
        let picture = try Self.quadrants()
        for bigEndian in [false, true] {
            let jpeg = try Encode.jpeg(picture.bytes, width: 32, height: 16, components: 3, quality: 100,
                                       app1: Self.exif(orientation: orientation, bigEndian: bigEndian))
            let image = try ImageDecoder.decode(jpeg)
            #expect(image.orientation == orientation)
            #expect(image.sourceWidth == 32 && image.sourceHeight == 16)
            let buffer = image.pixelBuffer
            let swapped = orientation >= 5
            #expect(buffer.width == (swapped ? 16 : 32) && buffer.height == (swapped ? 32 : 16))
            let corners = [buffer.pixel(1, 1), buffer.pixel(buffer.width - 2, 1),
                           buffer.pixel(1, buffer.height - 2), buffer.pixel(buffer.width - 2, buffer.height - 2)]
            for (found, expected) in zip(corners, Self.expectedCorners(orientation)) {
                #expect(zip(found, expected).allSatisfy { abs(Int($0) - Int($1)) <= 8 },
                        "orientation \(orientation): \(found) vs \(expected)")
            }
            let untouched = try ImageDecoder.decode(jpeg, options: .init(appliesOrientation: false))
            #expect(untouched.orientation == orientation)
            #expect(untouched.pixelBuffer.width == 32 && untouched.pixelBuffer.height == 16)
        }
    }

    @Test("oriented(exifOrientation:) moves every pixel where the EXIF definition says", arguments: 1...8)
    func exactPixelMapping(orientation: Int) throws {
        for format in PixelFormat.allCases {
            let source = try Synthetic.noise(width: 5, height: 3, format: format, seed: UInt64(orientation))
            let out = source.oriented(exifOrientation: orientation)
            let (w, h) = (source.width, source.height)
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let (sx, sy): (Int, Int) = switch orientation {
                    case 1: (x, y)
                    case 2: (w - 1 - x, y)
                    case 3: (w - 1 - x, h - 1 - y)
                    case 4: (x, h - 1 - y)
                    case 5: (y, x)
                    case 6: (y, h - 1 - x)
                    case 7: (w - 1 - y, h - 1 - x)
                    default: (w - 1 - y, x)
                    }
                    #expect(out.pixel(x, y) == source.pixel(sx, sy), "orientation \(orientation) at \(x),\(y)")
                }
            }
        }
    }

    @Test("a PNG eXIf chunk's orientation is applied too", arguments: [3, 6, 8])
    func orientedPNG(orientation: Int) throws {
        let picture = try Self.quadrants()
        let tiff = Array(Self.exif(orientation: orientation, bigEndian: orientation != 6).dropFirst(6))
        let image = try ImageDecoder.decode(try Encode.png(picture, exif: tiff))
        #expect(image.format == .png && image.orientation == orientation)
        #expect(image.pixelBuffer == picture.oriented(exifOrientation: orientation))
    }

    @Test("malformed or out-of-range EXIF leaves the picture as stored")
    func malformedExif() throws {
        let picture = try Self.quadrants()
        var broken = Self.exif(orientation: 6, bigEndian: false)
        broken[6] = 0x58  // byte order mark is no longer "II"
        let outOfRange = Self.exif(orientation: 9, bigEndian: false)
        let cut = Array(Self.exif(orientation: 6, bigEndian: true).prefix(20))
        for app1 in [broken, outOfRange, cut, Array("Exif\0\0".utf8)] {
            let jpeg = try Encode.jpeg(picture.bytes, width: 32, height: 16, components: 3, app1: app1)
            let image = try ImageDecoder.decode(jpeg)
            #expect(image.orientation == 1)
            #expect(image.pixelBuffer.width == 32)
        }
    }

    @Test("orientation is applied after scaling")
    func scaledAndOriented() throws {
        let picture = try Synthetic.gradient(width: 400, height: 200)
        let jpeg = try Encode.jpeg(picture.bytes, width: 400, height: 200, components: 3,
                                   app1: Self.exif(orientation: 6, bigEndian: true))
        let image = try ImageDecoder.decode(jpeg, options: .init(maxDimension: 100))
        #expect(image.pixelBuffer.width == 50 && image.pixelBuffer.height == 100)
    }
}
