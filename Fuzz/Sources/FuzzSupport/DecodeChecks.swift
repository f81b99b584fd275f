public import GlimpseImage

/// What the two image targets check of every decode: the limits held, and the sizes agree.
public enum DecodeChecks {
    /// Tighter than the defaults (40 Mpx, 32,768 a side) so that a small file declaring a huge image is
    /// refused from its header instead of spending the run's time on one input.
    public static let limits = DecodingLimits(
        maxInputBytes: 1 << 20, maxPixels: 4_000_000, maxDimension: 8_192, maxProgressiveScans: 100)
    /// Full size, upright.
    public static let full = DecodingOptions(limits: limits)
    /// At most 48 pixels a side, with DCT-scaled JPEG decoding and slack: the daemon's path, smaller.
    public static let small = DecodingOptions(maxDimension: 48, maxDimensionSlack: 0.5, limits: limits)

    /// Decodes `bytes` with `options`, checks the result, and returns it (`nil`: refused with an error).
    public static func decode(_ bytes: [UInt8], options: DecodingOptions, as format: ImageFormat) -> DecodedImage? {
        let image: DecodedImage
        do throws(ImageDecodingError) {
            image = try ImageDecoder.decode(bytes, options: options)
        } catch {
            FuzzCheck.require(!error.description.isEmpty, "an error without a description")
            return nil
        }
        check(image, options: options, format: format)
        return image
    }

    private static func check(_ image: DecodedImage, options: DecodingOptions, format: ImageFormat) {
        let (sourceWidth, sourceHeight) = (image.sourceWidth, image.sourceHeight)
        FuzzCheck.require(image.format == format, "decoded as \(image.format), sniffed as \(format)")
        FuzzCheck.require(sourceWidth >= 1 && sourceHeight >= 1, "source size \(sourceWidth)×\(sourceHeight)")
        FuzzCheck.require(
            sourceWidth * sourceHeight <= options.limits.maxPixels
                && max(sourceWidth, sourceHeight) <= options.limits.maxDimension,
            "source size \(sourceWidth)×\(sourceHeight) is past the limits")
        FuzzCheck.require((1...8).contains(image.orientation), "orientation \(image.orientation)")
        let pixels = image.pixelBuffer
        let turned = options.appliesOrientation && image.orientation >= 5
        let (width, height) = turned ? (sourceHeight, sourceWidth) : (sourceWidth, sourceHeight)
        if let bound = options.maxDimension, max(width, height) > bound {
            FuzzCheck.require(
                max(pixels.width, pixels.height) <= bound && pixels.width >= 1 && pixels.height >= 1,
                "\(pixels.width)×\(pixels.height) from \(width)×\(height) does not fit \(bound)")
        } else {
            FuzzCheck.require(pixels.width == width && pixels.height == height,
                              "\(pixels.width)×\(pixels.height) decoded from a \(width)×\(height) image")
        }
        FuzzCheck.require(pixels.bytesPerRow >= pixels.width * pixels.pixelFormat.bytesPerPixel, "rows too short")
        // Reads every byte, so a buffer shorter than its geometry is caught by AddressSanitizer.
        let sum = pixels.withUnsafeBytes { raw in raw.reduce(0) { $0 &+ Int($1) } }
        FuzzCheck.require(sum >= 0, "unreachable")
    }
}
