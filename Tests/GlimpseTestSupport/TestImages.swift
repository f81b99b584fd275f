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

extension TestImages {
    /// `left` and `right` side by side at `height` pixels (each keeps its aspect ratio), on black.
    public static func sideBySide(_ left: PixelBuffer, _ right: PixelBuffer, height: Int) -> PixelBuffer {
        let lw = max(1, left.width * height / left.height), rw = max(1, right.width * height / right.height)
        var canvas = RGBCanvas(width: lw + rw, height: height)
        canvas.draw(left, x: 0, y: 0, width: lw, height: height)
        canvas.draw(right, x: lw, y: 0, width: rw, height: height)
        return canvas.pixelBuffer
    }

    /// `photo` pasted into `background` (scaled to `width × height`) so that it fills the region
    /// `region` of the result (normalised, see ``ImageRegion``).
    public static func pasted(
        _ photo: PixelBuffer, into background: PixelBuffer, width: Int, height: Int, region: ImageRegion
    ) -> PixelBuffer {
        var canvas = RGBCanvas(width: width, height: height)
        canvas.draw(background, x: 0, y: 0, width: width, height: height)
        let rect = region.pixelRect(width: width, height: height)
        canvas.draw(photo, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return canvas.pixelBuffer
    }
}
