import GlimpseImage
import Testing

@Suite("Downscaling and conversion")
struct ResizeConvertTests {
    /// Straightforward area average in Double: each output pixel integrates the source over its
    /// footprint; RGBA colour is weighted by alpha.
    static func reference(_ source: PixelBuffer, width: Int, height: Int) -> [UInt8] {
        let n = source.pixelFormat.bytesPerPixel
        let sx = Double(source.width) / Double(width), sy = Double(source.height) / Double(height)
        var out: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                var sums = [Double](repeating: 0, count: n)
                for yy in 0..<source.height {
                    let coverY = min(Double(yy + 1), Double(y + 1) * sy) - max(Double(yy), Double(y) * sy)
                    if coverY <= 0 { continue }
                    for xx in 0..<source.width {
                        let coverX = min(Double(xx + 1), Double(x + 1) * sx) - max(Double(xx), Double(x) * sx)
                        if coverX <= 0 { continue }
                        let w = coverX * coverY / (sx * sy)
                        let p = source.pixel(xx, yy).map(Double.init)
                        if n == 4 {
                            for c in 0..<3 { sums[c] += w * p[c] * p[3] / 255 }
                            sums[3] += w * p[3]
                        } else {
                            for c in 0..<n { sums[c] += w * p[c] }
                        }
                    }
                }
                if n == 4 {
                    let a = sums[3]
                    for c in 0..<3 { out.append(UInt8(min(255, max(0, (a > 0 ? sums[c] * 255 / a : 0).rounded())))) }
                    out.append(UInt8(min(255, max(0, a.rounded()))))
                } else {
                    out += sums.map { UInt8(min(255, max(0, $0.rounded()))) }
                }
            }
        }
        return out
    }

    @Test("area averaging matches a direct integration (integer and fractional factors)",
          arguments: [(24, 16, 8, 4), (24, 16, 7, 5), (31, 17, 10, 9), (5, 5, 1, 1), (9, 4, 9, 3)])
    func areaAverage(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws {
        for format in PixelFormat.allCases {
            let source = try Synthetic.noise(width: sourceWidth, height: sourceHeight, format: format, seed: 11)
            let out = source.areaAveraged(width: width, height: height)
            #expect(out.width == width && out.height == height && out.pixelFormat == format)
            let expected = Self.reference(source, width: width, height: height)
            let worst = zip(out.bytes, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(format) \(sourceWidth)×\(sourceHeight)→\(width)×\(height) off by \(worst)")
        }
    }

    @Test("downscaled(toFit:) keeps the aspect ratio and never enlarges")
    func fitting() throws {
        let wide = try Synthetic.gradient(width: 400, height: 100)
        #expect(wide.downscaled(toFit: 100).width == 100 && wide.downscaled(toFit: 100).height == 25)
        #expect(wide.downscaled(toFit: 1).width == 1 && wide.downscaled(toFit: 1).height == 1)
        #expect(wide.downscaled(toFit: 1000) == wide)
        let tall = try Synthetic.gradient(width: 3, height: 1000)
        let fitted = tall.downscaled(toFit: 10)
        #expect(fitted.width == 1 && fitted.height == 10)
    }

    @Test("a transparent pixel does not darken its opaque neighbours")
    func alphaWeighting() throws {
        let bytes: [UInt8] = [255, 0, 0, 255, 0, 0, 0, 0]  // opaque red, transparent black
        let source = try PixelBuffer(width: 2, height: 1, pixelFormat: .rgba8, bytes: bytes)
        let out = source.areaAveraged(width: 1, height: 1)
        #expect(out.pixel(0, 0) == [255, 0, 0, 128])
    }

    @Test("format conversions")
    func conversions() throws {
        let rgb = try PixelBuffer(width: 2, height: 1, pixelFormat: .rgb8, bytes: [255, 255, 255, 255, 0, 0])
        #expect(rgb.converted(to: .gray8).bytes == [255, 76])
        #expect(rgb.converted(to: .rgba8).bytes == [255, 255, 255, 255, 255, 0, 0, 255])
        #expect(rgb.converted(to: .rgba8).converted(to: .rgb8) == rgb)
        let gray = try PixelBuffer(width: 2, height: 1, pixelFormat: .gray8, bytes: [7, 200])
        #expect(gray.converted(to: .rgb8).bytes == [7, 7, 7, 200, 200, 200])
        #expect(gray.converted(to: .rgba8).bytes == [7, 7, 7, 255, 200, 200, 200, 255])
        #expect(gray.converted(to: .rgb8).converted(to: .gray8) == gray)
        #expect(rgb.converted(to: .rgb8) == rgb)
    }
}
