public import GlimpseImage

/// Pictures built in memory for tests.
public enum TestImages {
    /// An RGB buffer of `width × height` pixels coloured by `colour(x, y)`.
    public static func image(
        width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)
    ) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                bytes += [r, g, b]
            }
        }
        return try PixelBuffer(width: width, height: height, pixelFormat: .rgb8, bytes: bytes)
    }
}
