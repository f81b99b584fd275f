extension PixelBuffer {
    /// Box filtering into three colour planes of `width × height` floats, row by row: the working image
    /// of the label module's scene features.
    ///
    /// Each source pixel is added whole into the one output cell its index maps to (`x · width / self.width`),
    /// and each cell is the mean of its pixels, kept in floats (0…1) without rounding; gray is replicated
    /// and alpha ignored. Unlike ``areaAveraged(width:height:)`` (the reducer of decoding, keypoints and
    /// the feature print's input), cells are whole pixels, so cells differ in size by one pixel when the
    /// factor is not whole, and nothing is rounded to bytes. The scene features' label figures were
    /// measured on this filter; area averaging to bytes measured worse for them
    /// (Benchmarks/results/2026-11-24-luma-resampling.md), so it stays, in this one place.
    ///
    /// - Precondition: `1 <= width <= self.width` and `1 <= height <= self.height`.
    public func boxFilteredPlanes(
        width outWidth: Int, height outHeight: Int
    ) -> (red: [Float], green: [Float], blue: [Float]) {
        precondition(outWidth >= 1 && outWidth <= width && outHeight >= 1 && outHeight <= height,
                     "box filtering shrinks only: \(width)×\(height) to \(outWidth)×\(outHeight)")
        // Each source pixel is read once and added into the output cell it falls in; the cell is found
        // through per-column and per-row maps computed up front, so the loop does no division and no allocation.
        let columnMap = (0..<width).map { $0 * outWidth / width }
        let rowMap = (0..<height).map { $0 * outHeight / height }
        var columnCounts = [Float](repeating: 0, count: outWidth)
        for cell in columnMap { columnCounts[cell] += 1 }
        var rowCounts = [Float](repeating: 0, count: outHeight)
        for cell in rowMap { rowCounts[cell] += 1 }

        var sums = [Float](repeating: 0, count: outWidth * outHeight * 3)
        let bytesPerPixel = pixelFormat.bytesPerPixel
        let isGray = pixelFormat == .gray8
        let stride = bytesPerRow
        withUnsafeBytes { raw in
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
