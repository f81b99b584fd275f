public import GlimpseImage

/// How an image of any size and shape becomes the network's square input.
///
/// Both modes reduce by area averaging (each input pixel is the mean of the source area it
/// covers, as PIL's `BOX` filter), and enlarge a side shorter than the input by repeating the
/// nearest pixel. Gray images are replicated to RGB; alpha is dropped after averaging (colour is
/// weighted by alpha while averaging).
public enum FeaturePrintPreprocessing: String, Sendable, CaseIterable {
    /// The whole image to the square input, aspect ratio not kept (the default).
    case squash
    /// The largest centred square of the image (left/top offset rounded down), then reduced.
    case centerCrop

    /// The `size × size` `rgb8` image the network sees for `pixels`.
    ///
    /// - Precondition: `size >= 1`.
    public func networkInput(from pixels: PixelBuffer, size: Int) -> PixelBuffer {
        precondition(size >= 1, "the network input size must be at least 1, got \(size)")
        var image = pixels
        if self == .centerCrop, image.width != image.height {
            let side = min(image.width, image.height)
            image = image.cropped(x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side)
        }
        if image.width > size || image.height > size {
            image = image.areaAveraged(width: min(image.width, size), height: min(image.height, size))
        }
        image = image.converted(to: .rgb8)
        if image.width < size || image.height < size {
            image = image.enlargedByNearest(width: size, height: size)
        }
        return image
    }
}

extension PixelBuffer {
    /// The `width × height` region at (`x`, `y`), copied.
    ///
    /// - Precondition: the region lies inside the buffer and is not empty.
    func cropped(x: Int, y: Int, width outWidth: Int, height outHeight: Int) -> PixelBuffer {
        precondition(x >= 0 && y >= 0 && outWidth >= 1 && outHeight >= 1 && x + outWidth <= width
                     && y + outHeight <= height, "crop region outside the \(width)×\(height) image")
        let pixelBytes = pixelFormat.bytesPerPixel
        return assembled(width: outWidth, height: outHeight) { out, outStride in
            withUnsafeBytes { source in
                for row in 0..<outHeight {
                    let from = (y + row) * bytesPerRow + x * pixelBytes, count = outWidth * pixelBytes
                    UnsafeMutableRawBufferPointer(rebasing: out[(row * outStride)..<(row * outStride + count)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + count)]))
                }
            }
        }
    }

    /// A copy with the columns in reverse order (the mirror image).
    func mirroredHorizontally() -> PixelBuffer {
        let pixelBytes = pixelFormat.bytesPerPixel
        return assembled(width: width, height: height) { out, outStride in
            withUnsafeBytes { source in
                for row in 0..<height {
                    for column in 0..<width {
                        let from = row * bytesPerRow + (width - 1 - column) * pixelBytes
                        let to = row * outStride + column * pixelBytes
                        for channel in 0..<pixelBytes { out[to + channel] = source[from + channel] }
                    }
                }
            }
        }
    }

    /// A copy of `width × height` (each at least this buffer's) where each pixel repeats the
    /// source pixel under its centre.
    func enlargedByNearest(width outWidth: Int, height outHeight: Int) -> PixelBuffer {
        precondition(outWidth >= width && outHeight >= height, "nearest enlargement only enlarges")
        let pixelBytes = pixelFormat.bytesPerPixel
        return assembled(width: outWidth, height: outHeight) { out, outStride in
            withUnsafeBytes { source in
                for row in 0..<outHeight {
                    let sourceRow = (2 * row + 1) * height / (2 * outHeight)
                    for column in 0..<outWidth {
                        let sourceColumn = (2 * column + 1) * width / (2 * outWidth)
                        for channel in 0..<pixelBytes {
                            out[row * outStride + column * pixelBytes + channel] =
                                source[sourceRow * bytesPerRow + sourceColumn * pixelBytes + channel]
                        }
                    }
                }
            }
        }
    }

    /// A packed buffer of this buffer's format written by `fill`; the geometry is valid by
    /// construction, so building it cannot fail.
    private func assembled(
        width outWidth: Int, height outHeight: Int,
        _ fill: (UnsafeMutableRawBufferPointer, Int) -> Void
    ) -> PixelBuffer {
        do {
            return try PixelBuffer(width: outWidth, height: outHeight, pixelFormat: pixelFormat,
                                   initializingWith: { (bytes: UnsafeMutableRawBufferPointer, stride: Int) in
                                       fill(bytes, stride)
                                   })
        } catch {
            preconditionFailure("a \(outWidth)×\(outHeight) \(pixelFormat) buffer could not be made: \(error)")
        }
    }
}
