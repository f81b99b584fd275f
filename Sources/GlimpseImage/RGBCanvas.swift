/// A colour of an ``RGBCanvas``: red, green and blue, one byte each.
public struct RGBColour: Sendable, Hashable {
    /// Red.
    public var red: UInt8
    /// Green.
    public var green: UInt8
    /// Blue.
    public var blue: UInt8

    /// Creates a colour.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// An RGB picture to draw on: pictures pasted side by side, lines and outlines. Plain Swift over one
/// byte array; what `glimpse query --explain` draws its picture with. Everything drawn is clipped to
/// the canvas.
public struct RGBCanvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `rgb8` pixels, packed rows.
    private var bytes: [UInt8]

    /// A `width × height` canvas (each side at least 1) filled with `background`.
    public init(width: Int, height: Int, background: RGBColour = RGBColour(0, 0, 0)) {
        self.width = max(1, width)
        self.height = max(1, height)
        var row: [UInt8] = []
        row.reserveCapacity(self.width * 3)
        for _ in 0..<self.width { row += [background.red, background.green, background.blue] }
        bytes = Array([[UInt8]](repeating: row, count: self.height).joined())
    }

    /// The colour at `(x, y)`, or `nil` outside the canvas.
    public func colour(atX x: Int, y: Int) -> RGBColour? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let o = (y * width + x) * 3
        return RGBColour(bytes[o], bytes[o + 1], bytes[o + 2])
    }

    /// Sets one pixel; ignored outside the canvas.
    @inline(__always)
    public mutating func set(x: Int, y: Int, _ colour: RGBColour) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let o = (y * width + x) * 3
        bytes[o] = colour.red
        bytes[o + 1] = colour.green
        bytes[o + 2] = colour.blue
    }

    /// Pastes `picture` scaled to `width × height` with its top-left corner at `(x, y)`: area averaged
    /// when it shrinks, nearest pixel when it grows.
    public mutating func draw(_ picture: PixelBuffer, x left: Int, y top: Int, width w: Int, height h: Int) {
        guard w >= 1, h >= 1 else { return }
        let source = picture.areaAveraged(
            width: min(w, picture.width), height: min(h, picture.height)).converted(to: .rgb8)
        let sw = source.width, sh = source.height, stride = source.bytesPerRow
        let canvasWidth = width
        source.withUnsafeBytes { src in
            bytes.withUnsafeMutableBufferPointer { dst in
                for row in 0..<h {
                    let y = top + row
                    guard y >= 0, y < height else { continue }
                    let sy = min(sh - 1, row * sh / h)
                    for column in 0..<w {
                        let x = left + column
                        guard x >= 0, x < canvasWidth else { continue }
                        let sx = min(sw - 1, column * sw / w)
                        let s = sy * stride + sx * 3, d = (y * canvasWidth + x) * 3
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
    }

    /// A straight line from `(x0, y0)` to `(x1, y1)` (Bresenham), `thickness` pixels wide.
    public mutating func line(
        from x0: Double, _ y0: Double, to x1: Double, _ y1: Double, colour: RGBColour, thickness: Int = 1
    ) {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        // Clamp far-away ends so that the walk stays short.
        let bound = Double(4 * max(width, height))
        var x = Int(max(-bound, min(bound, x0)).rounded()), y = Int(max(-bound, min(bound, y0)).rounded())
        let xe = Int(max(-bound, min(bound, x1)).rounded()), ye = Int(max(-bound, min(bound, y1)).rounded())
        let dx = abs(xe - x), dy = -abs(ye - y)
        let sx = x < xe ? 1 : -1, sy = y < ye ? 1 : -1
        var error = dx + dy
        let low = -(max(1, thickness) - 1) / 2, high = low + max(1, thickness) - 1
        while true {
            for oy in low...high { for ox in low...high { set(x: x + ox, y: y + oy, colour) } }
            if x == xe && y == ye { break }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
        }
    }

    /// The closed outline through `points`.
    public mutating func polygon(_ points: [(x: Double, y: Double)], colour: RGBColour, thickness: Int = 1) {
        for (i, p) in points.enumerated() {
            let q = points[(i + 1) % points.count]
            line(from: p.x, p.y, to: q.x, q.y, colour: colour, thickness: thickness)
        }
    }

    /// The outline of the rectangle with top-left `(x, y)` and size `width × height`.
    public mutating func rectangle(x: Double, y: Double, width w: Double, height h: Double, colour: RGBColour, thickness: Int = 1) {
        polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], colour: colour, thickness: thickness)
    }

    /// A filled disc of `radius` pixels around `(x, y)`.
    public mutating func dot(x: Double, y: Double, radius: Int, colour: RGBColour) {
        guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { return }
        let cx = Int(x.rounded()), cy = Int(y.rounded())
        for oy in -radius...radius { for ox in -radius...radius where ox * ox + oy * oy <= radius * radius {
            set(x: cx + ox, y: cy + oy, colour)
        } }
    }

    /// The canvas as an `rgb8` pixel buffer.
    public var pixelBuffer: PixelBuffer {
        let (w, h, b) = (width, height, bytes)
        return Self.assembleRGB(width: w, height: h, bytes: b)
    }

    private static func assembleRGB(width: Int, height: Int, bytes: [UInt8]) -> PixelBuffer {
        PixelBuffer.assemble(width: width, height: height, pixelFormat: .rgb8) { out, stride in
            bytes.withUnsafeBytes { src in
                for row in 0..<height {
                    UnsafeMutableRawBufferPointer(rebasing: out[(row * stride)..<(row * stride + width * 3)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[(row * width * 3)..<((row + 1) * width * 3)]))
                }
            }
        }
    }
}
