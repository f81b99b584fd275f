import CGlimpseCodecs
import GlimpseImage

/// One benchmark input: an encoded image of a given size and format.
struct BenchInput {
    let format: ImageFormat
    let width: Int
    let height: Int
    let bytes: [UInt8]
}

/// Why the benchmark could not run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
}

/// Builds the benchmark inputs by enlarging a catalog photo and encoding it with libjpeg/libpng.
enum BenchInputs {
    static let sizes = [(640, 480), (1920, 1080), (4000, 3000)]

    static func make(photo: String) throws -> [BenchInput] {
        let source = try ImageDecoder.decode(contentsOfFile: photo).pixelBuffer.converted(to: .rgb8)
        var inputs: [BenchInput] = []
        for (width, height) in sizes {
            let picture = try resized(source, width: width, height: height)
            inputs.append(BenchInput(format: .jpeg, width: width, height: height, bytes: try jpeg(picture)))
            inputs.append(BenchInput(format: .png, width: width, height: height, bytes: try png(picture)))
        }
        return inputs
    }

    /// Bilinear resampling to any size (input preparation only, not measured).
    static func resized(_ source: PixelBuffer, width: Int, height: Int) throws -> PixelBuffer {
        let src = source.withUnsafeBytes { Array($0) }
        let stride = source.bytesPerRow
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let scaleX = Double(source.width - 1) / Double(max(width - 1, 1))
        let scaleY = Double(source.height - 1) / Double(max(height - 1, 1))
        for y in 0..<height {
            let fy = Double(y) * scaleY
            let y0 = min(Int(fy), source.height - 1), y1 = min(y0 + 1, source.height - 1)
            let ty = fy - Double(y0)
            for x in 0..<width {
                let fx = Double(x) * scaleX
                let x0 = min(Int(fx), source.width - 1), x1 = min(x0 + 1, source.width - 1)
                let tx = fx - Double(x0)
                for c in 0..<3 {
                    let a = Double(src[y0 * stride + x0 * 3 + c]), b = Double(src[y0 * stride + x1 * 3 + c])
                    let d = Double(src[y1 * stride + x0 * 3 + c]), e = Double(src[y1 * stride + x1 * 3 + c])
                    let top = a + (b - a) * tx, bottom = d + (e - d) * tx
                    out[(y * width + x) * 3 + c] = UInt8((top + (bottom - top) * ty).rounded())
                }
            }
        }
        return try PixelBuffer(width: width, height: height, pixelFormat: .rgb8, bytes: out)
    }

    static func jpeg(_ picture: PixelBuffer) throws -> [UInt8] {
        let packed = picture.withUnsafeBytes { Array($0) }
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var result = glimpse_codec_result()
        let status = packed.withUnsafeBufferPointer { p in
            glimpse_jpeg_encode(p.baseAddress, UInt32(picture.width), UInt32(picture.height), picture.bytesPerRow,
                                3, 90, 0, 0, 0, 1, nil, 0, &out, &count, &result)
        }
        return try take(status, out, count, "JPEG")
    }

    static func png(_ picture: PixelBuffer) throws -> [UInt8] {
        let packed = picture.withUnsafeBytes { Array($0) }
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        var result = glimpse_codec_result()
        let status = packed.withUnsafeBufferPointer { p in
            glimpse_png_encode(p.baseAddress, UInt32(picture.width), UInt32(picture.height), picture.bytesPerRow,
                               2, 8, 0, nil, 0, nil, 0, nil, nil, 0, &out, &count, &result)
        }
        return try take(status, out, count, "PNG")
    }

    private static func take(
        _ status: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ count: Int, _ name: String
    ) throws -> [UInt8] {
        guard status == 0, let out else { throw BenchError(description: "\(name) encoding failed") }
        defer { glimpse_codec_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }
}
