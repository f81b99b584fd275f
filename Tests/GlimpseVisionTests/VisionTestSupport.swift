import Foundation
import GlimpseBasics
import GlimpseImage
import GlimpseTestSupport
@testable import GlimpseVision

/// Paths and image transforms shared by the vision tests.
enum Fixtures {
    static var repositoryRoot: String { Repository.root }
    static var photosDirectory: String { Repository.photos }
    /// The labelled non-catalog photos, kept beside the repository in `shared/labelled`.
    static var labelledDirectory: String { Repository.labelledPhotos }

    /// Sorted catalog photo paths.
    static let photos: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: photosDirectory)) ?? []
        return names.filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted().map { photosDirectory + "/" + $0 }
    }()

    static var hasLabelledPhotos: Bool { FileManager.default.fileExists(atPath: labelledDirectory) }

    static func decode(_ path: String, maxDimension: Int = 640) throws -> PixelBuffer {
        try ImageDecoder.decode(contentsOfFile: path, options: DecodingOptions(maxDimension: maxDimension)).pixelBuffer
    }

    /// A gray8 pixel buffer with the pixels of `image`.
    static func buffer(_ image: GrayImage) throws -> PixelBuffer {
        try PixelBuffer(width: image.width, height: image.height, pixelFormat: .gray8, bytes: image.pixels)
    }

    /// `image` rotated by `degrees` about its centre (bilinear), cropped to the largest centred
    /// rectangle without borders.
    static func rotated(_ image: GrayImage, degrees: Double) -> GrayImage {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let w = Double(image.width), h = Double(image.height)
        let keep = 1 / (abs(c) + max(w / h, h / w) * abs(s))
        let ow = Int(w * keep), oh = Int(h * keep)
        var out = [UInt8](repeating: 0, count: ow * oh)
        for y in 0..<oh {
            for x in 0..<ow {
                let dx = Double(x) - Double(ow) / 2, dy = Double(y) - Double(oh) / 2
                let sx = c * dx + s * dy + w / 2, sy = -s * dx + c * dy + h / 2
                out[y * ow + x] = sample(image, sx, sy)
            }
        }
        return GrayImage(width: ow, height: oh, pixels: out)
    }

    /// The rectangle `x0..<x0+w, y0..<y0+h` of `image`.
    static func cropped(_ image: GrayImage, x0: Int, y0: Int, width: Int, height: Int) -> GrayImage {
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { out[y * width + x] = image.pixels[(y + y0) * image.width + x + x0] } }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// A JPEG-like recompression: 8 × 8 DCT blocks quantised with `step` (larger is coarser).
    static func recompressed(_ image: GrayImage, step: Double) -> GrayImage {
        var out = image.pixels
        let w = image.width, h = image.height
        var basis = [Double](repeating: 0, count: 64)
        for u in 0..<8 { for x in 0..<8 {
            let cu = u == 0 ? (1.0 / 8).squareRoot() : (2.0 / 8).squareRoot()
            basis[u * 8 + x] = cu * cos(Double(2 * x + 1) * Double(u) * .pi / 16)
        } }
        for by in stride(from: 0, to: h - 7, by: 8) {
            for bx in stride(from: 0, to: w - 7, by: 8) {
                var block = [Double](repeating: 0, count: 64)
                for y in 0..<8 { for x in 0..<8 { block[y * 8 + x] = Double(image.pixels[(by + y) * w + bx + x]) - 128 } }
                var coefficients = [Double](repeating: 0, count: 64)
                for v in 0..<8 { for u in 0..<8 {
                    var sum = 0.0
                    for y in 0..<8 { for x in 0..<8 { sum += basis[v * 8 + y] * basis[u * 8 + x] * block[y * 8 + x] } }
                    let q = step * (1 + Double(u + v) / 2)
                    coefficients[v * 8 + u] = (sum / q).rounded() * q
                } }
                for y in 0..<8 { for x in 0..<8 {
                    var sum = 0.0
                    for v in 0..<8 { for u in 0..<8 { sum += basis[v * 8 + y] * basis[u * 8 + x] * coefficients[v * 8 + u] } }
                    out[(by + y) * w + bx + x] = UInt8(max(0, min(255, (sum + 128).rounded())))
                } }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    private static func sample(_ image: GrayImage, _ x: Double, _ y: Double) -> UInt8 {
        let x0 = max(0, min(image.width - 2, Int(x.rounded(.down))))
        let y0 = max(0, min(image.height - 2, Int(y.rounded(.down))))
        let fx = max(0, min(1, x - Double(x0))), fy = max(0, min(1, y - Double(y0)))
        func p(_ xx: Int, _ yy: Int) -> Double { Double(image.pixels[yy * image.width + xx]) }
        let v = (p(x0, y0) * (1 - fx) + p(x0 + 1, y0) * fx) * (1 - fy) + (p(x0, y0 + 1) * (1 - fx) + p(x0 + 1, y0 + 1) * fx) * fy
        return UInt8(max(0, min(255, v.rounded())))
    }
}

/// Deterministic test data: the index module's SplitMix64, with a `[0, 1)` unit value (the vision
/// module's own `unit()` is centred in its interval, and pinned values were drawn with this one).
struct TestRandom {
    private var generator: SeededGenerator
    init(state: UInt64) { generator = SeededGenerator(seed: state) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
