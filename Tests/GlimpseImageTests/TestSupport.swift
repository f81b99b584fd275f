import CGlimpseCodecs
import Foundation
import GlimpseBasics
import GlimpseFiles
import GlimpseImage
import GlimpseTestSupport

/// Paths of the sample catalog, found by walking up from this file to the directory holding `Images/photos`.
enum Fixtures {
    static var root: URL { URL(fileURLWithPath: Repository.root) }

    static let photosDirectory = root.appendingPathComponent("Images/photos")

    /// Every file in Images/photos, sorted.
    static let photos: [URL] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: photosDirectory.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { photosDirectory.appendingPathComponent($0) }
    }()

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// The first catalog photo with the given extension.
    static func firstPhoto(withExtension ext: String) -> URL? {
        photos.first { $0.pathExtension.lowercased() == ext }
    }
}

/// An independent reading of the stored size from PNG IHDR or the JPEG SOF marker.
enum HeaderSize {
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        if bytes.count >= 24, bytes[0] == 0x89, bytes[1] == 0x50 { return (be32(16), be32(20)) }
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            let length = be16(i + 2)
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (be16(i + 7), be16(i + 5))
            }
            i += 2 + length
        }
        return nil
    }
}

/// Errors from the test encoders.
struct EncodeFailure: Error, CustomStringConvertible {
    let description: String
}

/// libjpeg / libpng encoders from CGlimpseCodecs, for images of known content.
enum Encode {
    static func take(_ out: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let out else { return [] }
        defer { glimpse_codec_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    static func message(_ result: glimpse_codec_result) -> String {
        withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// A JPEG of `pixels` (`components` bytes per pixel: 1 gray, 3 RGB, 4 CMYK as stored).
    static func jpeg(
        _ pixels: [UInt8], width: Int, height: Int, components: Int, quality: Int = 92,
        progressive: Bool = false, manyScans: Bool = false, ycck: Bool = false, adobeMarker: Bool = true,
        app1: [UInt8]? = nil
    ) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var result = glimpse_codec_result()
        let status = pixels.withUnsafeBufferPointer { p in
            let call = { (app: UnsafePointer<UInt8>?, appCount: Int) in
                glimpse_jpeg_encode(
                    p.baseAddress, UInt32(width), UInt32(height), width * components, Int32(components),
                    Int32(quality), progressive ? 1 : 0, manyScans ? 1 : 0, ycck ? 1 : 0, adobeMarker ? 1 : 0,
                    app, appCount, &out, &count, &result)
            }
            if let app1 { return app1.withUnsafeBufferPointer { call($0.baseAddress, $0.count) } }
            return call(nil, 0)
        }
        guard status == 0 else { throw EncodeFailure(description: "JPEG encode failed: \(message(result))") }
        return take(out, count)
    }

    /// A PNG of rows already in PNG sample layout.
    static func png(
        rows: [UInt8], width: Int, height: Int, stride: Int, colorType: Int32, bitDepth: Int32,
        interlaced: Bool = false, palette: [UInt8] = [], trns: [UInt8] = [], trnsColor: [UInt16]? = nil,
        exif: [UInt8]? = nil
    ) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var result = glimpse_codec_result()
        let status = rows.withUnsafeBufferPointer { r in
            palette.withUnsafeBufferPointer { pal in
                trns.withUnsafeBufferPointer { t in
                    (trnsColor ?? [0, 0, 0]).withUnsafeBufferPointer { color in
                        (exif ?? []).withUnsafeBufferPointer { e in
                            glimpse_png_encode(
                                r.baseAddress, UInt32(width), UInt32(height), stride, colorType, bitDepth,
                                interlaced ? 1 : 0, pal.baseAddress, Int32(palette.count / 3),
                                t.baseAddress, Int32(trns.count), trnsColor == nil ? nil : color.baseAddress,
                                exif == nil ? nil : e.baseAddress, e.count, &out, &count, &result)
                        }
                    }
                }
            }
        }
        guard status == 0 else { throw EncodeFailure(description: "PNG encode failed: \(message(result))") }
        return take(out, count)
    }

    /// An 8-bit PNG of a pixel buffer (gray, RGB or RGBA).
    static func png(_ buffer: PixelBuffer, interlaced: Bool = false, exif: [UInt8]? = nil) throws -> [UInt8] {
        let colorType: Int32 = switch buffer.pixelFormat {
        case .gray8: 0
        case .rgb8: 2
        case .rgba8: 6
        }
        let rows = buffer.withUnsafeBytes { Array($0) }
        return try png(rows: rows, width: buffer.width, height: buffer.height, stride: buffer.bytesPerRow,
                       colorType: colorType, bitDepth: 8, interlaced: interlaced, exif: exif)
    }

    /// A JPEG of an RGB or gray pixel buffer.
    static func jpeg(_ buffer: PixelBuffer, quality: Int = 92, progressive: Bool = false) throws -> [UInt8] {
        let packed = buffer.withUnsafeBytes { Array($0) }
        return try jpeg(packed, width: buffer.width, height: buffer.height,
                        components: buffer.pixelFormat.bytesPerPixel, quality: quality, progressive: progressive)
    }
}

/// Pixel access and comparison helpers.
extension PixelBuffer {
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let n = pixelFormat.bytesPerPixel
        return withUnsafeBytes { raw in Array(raw[(y * bytesPerRow + x * n)..<(y * bytesPerRow + x * n + n)]) }
    }

    /// The largest absolute difference of any sample with `other` (same size and format required).
    func maxDifference(_ other: PixelBuffer) -> Int? {
        guard width == other.width, height == other.height, pixelFormat == other.pixelFormat else { return nil }
        let a = bytes, b = other.bytes
        return zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// The mean absolute difference per sample with `other`.
    func meanDifference(_ other: PixelBuffer) -> Double? {
        guard width == other.width, height == other.height, pixelFormat == other.pixelFormat else { return nil }
        let a = bytes, b = other.bytes
        let total = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.count)
    }
}

/// Synthetic pictures with exactly known pixels.
enum Synthetic {
    /// A smooth RGB gradient, friendly to lossy compression.
    static func gradient(width: Int, height: Int) throws -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                bytes[i] = UInt8(x * 255 / max(width - 1, 1))
                bytes[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                bytes[i + 2] = UInt8((x + y) * 255 / max(width + height - 2, 1))
            }
        }
        return try PixelBuffer(width: width, height: height, pixelFormat: .rgb8, bytes: bytes)
    }

    /// Random pixels from a seed.
    static func noise(width: Int, height: Int, format: PixelFormat, seed: UInt64) throws -> PixelBuffer {
        var generator = SeededGenerator(seed: seed)
        let bytes = (0..<(width * height * format.bytesPerPixel)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return try PixelBuffer(width: width, height: height, pixelFormat: format, bytes: bytes)
    }
}

/// Hand-built PNG files: any IHDR, followed by a tiny valid IDAT and IEND.
enum HandBuiltPNG {
    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// `png` with `chunk` inserted right after IHDR (which always ends at byte 33).
    static func inserting(_ chunk: [UInt8], into png: [UInt8]) -> [UInt8] {
        Array(png[0..<33]) + chunk + Array(png[33...])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body))
    }

    static func file(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 2) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0]
        // zlib stream holding one stored block of 8 zero bytes.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x08, 0x00, 0xF7, 0xFF] + [UInt8](repeating: 0, count: 8)
            + [0x00, 0x08, 0x00, 0x01]
        return signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }
}
