import Foundation

/// A point of a picture in normalised coordinates: `x` from 0 (left edge) to 1 (right edge), `y`
/// from 0 (top edge) to 1 (bottom edge), whatever the picture's size in pixels.
public struct ImagePoint: Sendable, Hashable {
    /// Horizontal position, 0…1 inside the picture.
    public var x: Double
    /// Vertical position, 0…1 inside the picture.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Why a region of interest was refused.
public enum ImageRegionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not four comma-separated numbers.
    case malformed(String)
    /// The numbers do not describe a non-empty box inside the picture.
    case outOfRange(String)

    /// A sentence that says what was wrong and what to send instead.
    public var description: String {
        switch self {
        case .malformed(let text):
            "the box \(text.debugDescription) is not four comma-separated numbers; send x,y,w,h as fractions "
                + "of the picture's width and height, such as 0.25,0.25,0.5,0.5"
        case .outOfRange(let text):
            "the box \(text) does not lie inside the picture; x, y, w and h are fractions 0…1 of the "
                + "picture's width and height, with w and h above 0, x + w ≤ 1 and y + h ≤ 1"
        }
    }
}

/// A rectangle of a picture in normalised coordinates (see ``ImagePoint``): the region of interest a
/// query is limited to, and where a found place lies in the query picture. Normalised so that it
/// means the same at every decoding size.
public struct ImageRegion: Sendable, Hashable, CustomStringConvertible {
    /// Left edge, 0…1.
    public let x: Double
    /// Top edge, 0…1.
    public let y: Double
    /// Width, a fraction of the picture's width (above 0, `x + width ≤ 1`).
    public let width: Double
    /// Height, a fraction of the picture's height (above 0, `y + height ≤ 1`).
    public let height: Double

    /// The whole picture.
    public static let whole = ImageRegion(unchecked: 0, 0, 1, 1)

    /// The smallest side a region may have, as a fraction of the picture's.
    public static let minimumSide = 1e-4

    /// A region from its edges.
    ///
    /// - Throws: ``ImageRegionError/outOfRange(_:)`` unless every value is finite, `x, y ≥ 0`,
    ///   `width, height ≥` ``minimumSide`` and the box ends inside the picture (a rounding slack of
    ///   1e-6 is forgiven).
    public init(x: Double, y: Double, width: Double, height: Double) throws(ImageRegionError) {
        let slack = 1e-6
        guard [x, y, width, height].allSatisfy(\.isFinite), x >= 0, y >= 0, width >= Self.minimumSide,
              height >= Self.minimumSide, x + width <= 1 + slack, y + height <= 1 + slack
        else { throw .outOfRange("\(x),\(y),\(width),\(height)") }
        self.init(unchecked: x, y, min(width, 1 - x), min(height, 1 - y))
    }

    /// A region from `x,y,w,h` (fractions; spaces allowed), as `box=` and `--box` take it.
    ///
    /// - Throws: ``ImageRegionError`` for text that is not four numbers or a box outside the picture.
    public init(parsing text: String) throws(ImageRegionError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
            throw .malformed(text)
        }
        try self.init(x: x, y: y, width: w, height: h)
    }

    init(unchecked x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The bounding box of `points` clipped to the picture, or `nil` when nothing of it is inside.
    public static func bounding(_ points: [ImagePoint]) -> ImageRegion? {
        guard let first = points.first else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points.dropFirst() {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        minX = max(0, minX); minY = max(0, minY); maxX = min(1, maxX); maxY = min(1, maxY)
        guard minX.isFinite, minY.isFinite, maxX - minX >= minimumSide, maxY - minY >= minimumSide else { return nil }
        return ImageRegion(unchecked: minX, minY, maxX - minX, maxY - minY)
    }

    /// The point of the whole picture that `point`, normalised within this region, names.
    public func mapping(_ point: ImagePoint) -> ImagePoint {
        ImagePoint(x: x + point.x * width, y: y + point.y * height)
    }

    /// The region of the whole picture that `inner`, normalised within this region, covers.
    public func mapping(_ inner: ImageRegion) -> ImageRegion {
        ImageRegion(unchecked: x + inner.x * width, y + inner.y * height, inner.width * width, inner.height * height)
    }

    /// The pixels the region covers in a `width × height` picture: edges rounded outwards, at least
    /// one pixel, never outside the picture.
    public func pixelRect(width pictureWidth: Int, height pictureHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = max(1, pictureWidth), h = max(1, pictureHeight)
        let left = min(w - 1, max(0, Int((x * Double(w)).rounded(.down))))
        let top = min(h - 1, max(0, Int((y * Double(h)).rounded(.down))))
        let right = min(w, max(left + 1, Int(((x + width) * Double(w)).rounded(.up))))
        let bottom = min(h, max(top + 1, Int(((y + height) * Double(h)).rounded(.up))))
        return (left, top, right - left, bottom - top)
    }

    /// `x,y,w,h` with four decimals: the form ``init(parsing:)`` reads.
    public var description: String {
        [x, y, width, height].map { String(format: "%.4f", $0) }.joined(separator: ",")
    }
}

extension PixelBuffer {
    /// The pixels of `region` (see ``ImageRegion/pixelRect(width:height:)``), in the same format.
    public func cropped(to region: ImageRegion) -> PixelBuffer {
        let rect = region.pixelRect(width: width, height: height)
        if rect.x == 0, rect.y == 0, rect.width == width, rect.height == height { return self }
        let bpp = pixelFormat.bytesPerPixel
        return withUnsafeBytes { source in
            Self.assemble(width: rect.width, height: rect.height, pixelFormat: pixelFormat) { out, outStride in
                let rowBytes = rect.width * bpp
                for row in 0..<rect.height {
                    let from = (rect.y + row) * bytesPerRow + rect.x * bpp
                    UnsafeMutableRawBufferPointer(rebasing: out[(row * outStride)..<(row * outStride + rowBytes)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + rowBytes)]))
                }
            }
        }
    }
}

extension DecodingOptions {
    /// These options with ``maxDimension`` raised so that `region` of the picture, rather than the
    /// whole, gets about that many pixels on its longer side: how a query limited to a small region
    /// keeps the detail the matcher needs. The picture is decoded at most ``regionEnlargement`` times
    /// larger than without a region (a region smaller than that share of the picture gets fewer
    /// pixels), and the limits still apply.
    public func showing(_ region: ImageRegion) -> DecodingOptions {
        guard let maxDimension else { return self }
        var copy = self
        let share = max(region.width, region.height, 1 / Double(Self.regionEnlargement))
        copy.maxDimension = min(limits.maxDimension, Int((Double(maxDimension) / share).rounded(.up)))
        return copy
    }

    /// The most ``showing(_:)`` enlarges ``maxDimension``.
    public static let regionEnlargement = 8
}
