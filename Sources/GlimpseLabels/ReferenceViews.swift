import GlimpseImage

/// Extra views of each reference photo stored in a model: crops, so that a query showing only part
/// of a scene (as camera photos usually do) still finds a reference framed like it.
///
/// Every view is stored as its own reference with the photo's id and labels; evaluation leaves out
/// all views of a photo together.
public struct ReferenceViews: Sendable, Hashable {
    /// A crop, as fractions of the width and height: origin and size.
    public struct Crop: Sendable, Hashable {
        /// Left edge, 0…1.
        public let x: Double
        /// Top edge, 0…1.
        public let y: Double
        /// Width, 0…1.
        public let width: Double
        /// Height, 0…1.
        public let height: Double

        /// Creates a crop.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The crops added to the whole photo.
    public let crops: [Crop]

    /// Creates a set of views.
    public init(crops: [Crop]) {
        self.crops = crops
    }

    /// The whole photo only.
    public static let none = ReferenceViews(crops: [])

    /// The whole photo, its centre (80 % × 80 %) and its top-left and bottom-right 75 % × 75 % corners.
    ///
    /// Measured on the committed references, these views lowered leave-one-out and distorted-query F1
    /// of the scene extractor (each photo then fills four of the k voters), so models use ``none``.
    public static let crops = ReferenceViews(crops: [
        Crop(x: 0.1, y: 0.1, width: 0.8, height: 0.8),
        Crop(x: 0, y: 0, width: 0.75, height: 0.75),
        Crop(x: 0.25, y: 0.25, width: 0.75, height: 0.75),
    ])

    /// The pixels of every view of `image`: the whole image first, then each crop.
    func views(of image: PixelBuffer) -> [PixelBuffer] {
        [image] + crops.compactMap { crop in
            let x = Int((crop.x * Double(image.width)).rounded())
            let y = Int((crop.y * Double(image.height)).rounded())
            let width = min(image.width - x, max(1, Int((crop.width * Double(image.width)).rounded())))
            let height = min(image.height - y, max(1, Int((crop.height * Double(image.height)).rounded())))
            guard x >= 0, y >= 0, width >= 1, height >= 1 else { return nil }
            return image.cropped(x: x, y: y, width: width, height: height)
        }
    }
}

extension PixelBuffer {
    /// The `width × height` pixels whose top-left corner is at (`x`, `y`), or `nil` when that
    /// rectangle is not inside the buffer.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> PixelBuffer? {
        guard x >= 0, y >= 0, width >= 1, height >= 1, x + width <= self.width, y + height <= self.height else {
            return nil
        }
        let bytesPerPixel = pixelFormat.bytesPerPixel
        let rowBytes = width * bytesPerPixel
        // Fenced raw-memory section: copies `rowBytes` from each source row into the packed new rows;
        // the bounds are checked above, so every range lies inside both buffers.
        return withUnsafeBytes { source in
            try? PixelBuffer(width: width, height: height, pixelFormat: pixelFormat) { (out, stride) in
                for row in 0..<height {
                    let from = (y + row) * bytesPerRow + x * bytesPerPixel
                    UnsafeMutableRawBufferPointer(rebasing: out[(row * stride)..<(row * stride + rowBytes)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + rowBytes)]))
                }
            }
        }
    }
}
