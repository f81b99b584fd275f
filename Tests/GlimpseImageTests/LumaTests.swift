import GlimpseImage
import Testing

@Suite("Luma")
struct LumaTests {
    @Test("byte luma is the BT.601 weighting rounded to nearest")
    func byteLumaRounds() {
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 17) {
                for b in stride(from: 0, through: 255, by: 51) {
                    let exact = Luma.of(red: Float(r), green: Float(g), blue: Float(b))
                    let byte = Luma.of(red: UInt8(r), green: UInt8(g), blue: UInt8(b))
                    // Rounding adds at most 0.5; the fixed-point weights are each within 6e-6 of BT.601's.
                    #expect(abs(Float(byte) - exact) <= 0.5 + 255 * 1.5e-5, "\(r) \(g) \(b)")
                }
            }
        }
        #expect(Luma.of(red: 255, green: 255, blue: 255) == 255)
        #expect(Luma.of(red: 0, green: 0, blue: 0) == 0)
    }

    @Test("a buffer's luma plane agrees with its gray conversion, ignores alpha and copies gray")
    func lumaPlane() throws {
        let rgb = try PixelBuffer(width: 3, height: 2, pixelFormat: .rgb8, bytesPerRow: 10,
                                  bytes: [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 10, 20, 30, 200, 100, 50, 1, 2, 3, 9])
        #expect(rgb.lumaPlane() == rgb.converted(to: .gray8).bytes)
        #expect(rgb.lumaPlane() == [76, 150, 29, 18, 124, 2])
        let rgba = try PixelBuffer(width: 1, height: 1, pixelFormat: .rgba8, bytes: [10, 20, 30, 0])
        #expect(rgba.lumaPlane() == [Luma.of(red: 10, green: 20, blue: 30)])
        let gray = try PixelBuffer(width: 2, height: 1, pixelFormat: .gray8, bytes: [7, 200])
        #expect(gray.lumaPlane() == [7, 200])
    }

    @Test("plane luma in SIMD steps equals the luma of each pixel, tail included")
    func planeLuma() {
        let count = 21
        let red = (0..<count).map { Float($0) / 20 }
        let green = (0..<count).map { Float(count - $0) / 20 }
        let blue = (0..<count).map { Float($0 % 3) / 2 }
        let planes = Luma.of(red: red, green: green, blue: blue)
        #expect(planes == (0..<count).map { Luma.of(red: red[$0], green: green[$0], blue: blue[$0]) })
    }

    @Test("box filtering puts each pixel whole into one cell and keeps the means in floats")
    func boxFilter() throws {
        // Five columns into two cells: columns 0…2 map to cell 0 (x · 2 / 5), columns 3…4 to cell 1.
        let gray = try PixelBuffer(width: 5, height: 1, pixelFormat: .gray8, bytes: [0, 51, 102, 153, 255])
        let planes = gray.boxFilteredPlanes(width: 2, height: 1)
        #expect(zip(planes.red, [Float(51) / 255, Float(204) / 255]).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(planes.green == planes.red && planes.blue == planes.red)
        let rgba = try PixelBuffer(width: 2, height: 1, pixelFormat: .rgba8, bytes: [255, 0, 0, 0, 0, 255, 0, 9])
        let mixed = rgba.boxFilteredPlanes(width: 1, height: 1)
        #expect(abs(mixed.red[0] - 0.5) < 1e-6 && abs(mixed.green[0] - 0.5) < 1e-6 && mixed.blue == [0])
    }
}
