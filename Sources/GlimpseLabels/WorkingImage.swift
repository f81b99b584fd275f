import GlimpseImage

/// A small floating-point copy of a picture (red, green and blue planes in 0…1) on which scene
/// features are computed.
///
/// The picture is box-filtered down so that its long side is at most a given length; smaller
/// pictures keep their size. Every plane is one contiguous array of `width × height` values, row by row.
struct WorkingImage: Sendable {
    let width: Int
    let height: Int
    var red: [Float]
    var green: [Float]
    var blue: [Float]

    /// Box-filters `image` so that its long side is at most `longSide` pixels.
    init(_ image: PixelBuffer, longSide: Int) {
        let scale = max(1.0, Double(max(image.width, image.height)) / Double(max(1, longSide)))
        let outWidth = max(1, Int((Double(image.width) / scale).rounded()))
        let outHeight = max(1, Int((Double(image.height) / scale).rounded()))
        width = outWidth
        height = outHeight
        (red, green, blue) = Self.boxFilter(image, outWidth: outWidth, outHeight: outHeight)
    }

    /// Creates an image from planes that already have the given size (used by tests).
    init(width: Int, height: Int, red: [Float], green: [Float], blue: [Float]) {
        precondition(red.count == width * height && green.count == red.count && blue.count == red.count)
        self.width = width
        self.height = height
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Luminance (Rec. 601 weights) of every pixel, in 0…1.
    func luminance() -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        for i in 0..<out.count {
            out[i] = 0.299 * red[i] + 0.587 * green[i] + 0.114 * blue[i]
        }
        return out
    }

    // MARK: - Fenced raw-memory section
    //
    // The only place this module reads pixel memory. Each source pixel is read once and added into
    // the output cell it falls in; the cell is found through per-column and per-row maps computed
    // up front, so the loop does no division and no allocation.
    private static func boxFilter(
        _ image: PixelBuffer, outWidth: Int, outHeight: Int
    ) -> ([Float], [Float], [Float]) {
        let width = image.width
        let height = image.height
        let columnMap = (0..<width).map { $0 * outWidth / width }
        let rowMap = (0..<height).map { $0 * outHeight / height }
        var columnCounts = [Float](repeating: 0, count: outWidth)
        for cell in columnMap { columnCounts[cell] += 1 }
        var rowCounts = [Float](repeating: 0, count: outHeight)
        for cell in rowMap { rowCounts[cell] += 1 }

        var sums = [Float](repeating: 0, count: outWidth * outHeight * 3)
        let bytesPerPixel = image.pixelFormat.bytesPerPixel
        let isGray = image.pixelFormat == .gray8
        let stride = image.bytesPerRow
        image.withUnsafeBytes { raw in
            sums.withUnsafeMutableBufferPointer { acc in
                columnMap.withUnsafeBufferPointer { columns in
                    for y in 0..<height {
                        let rowBase = (rowMap[y] * outWidth) * 3
                        var offset = y * stride
                        for x in 0..<width {
                            let cell = rowBase + columns[x] * 3
                            let r = Float(raw[offset])
                            let g = isGray ? r : Float(raw[offset + 1])
                            let b = isGray ? r : Float(raw[offset + 2])
                            acc[cell] += r
                            acc[cell + 1] += g
                            acc[cell + 2] += b
                            offset += bytesPerPixel
                        }
                    }
                }
            }
        }

        let count = outWidth * outHeight
        var red = [Float](repeating: 0, count: count)
        var green = [Float](repeating: 0, count: count)
        var blue = [Float](repeating: 0, count: count)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                let i = oy * outWidth + ox
                let scale = 1 / (255 * columnCounts[ox] * rowCounts[oy])
                red[i] = sums[i * 3] * scale
                green[i] = sums[i * 3 + 1] * scale
                blue[i] = sums[i * 3 + 2] * scale
            }
        }
        return (red, green, blue)
    }
}
