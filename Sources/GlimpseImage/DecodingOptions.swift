/// Upper bounds a decoder enforces before it allocates memory for an image.
///
/// Sizes are checked against the image header, before any pixel memory is allocated, so an
/// image that declares a huge size in a tiny file (a decompression bomb) is refused at once.
public struct DecodingLimits: Sendable, Equatable {
    /// The largest input accepted, in bytes. Default 64 MiB.
    public var maxInputBytes: Int
    /// The largest number of pixels (width × height of the image as stored, before scaling).
    /// Default 40,000,000.
    public var maxPixels: Int
    /// The largest width or height of the image as stored. Default 32,768.
    public var maxDimension: Int
    /// The largest number of scans in a JPEG (progressive files use many). Default 100.
    public var maxProgressiveScans: Int

    /// The defaults: 64 MiB input, 40 megapixels, 32,768 pixels a side, 100 JPEG scans.
    public static let `default` = DecodingLimits()

    /// Creates limits; every argument has the documented default.
    public init(
        maxInputBytes: Int = 64 << 20,
        maxPixels: Int = 40_000_000,
        maxDimension: Int = 32_768,
        maxProgressiveScans: Int = 100
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxProgressiveScans = maxProgressiveScans
    }
}

/// How ``ImageDecoder`` decodes one image: output size, limits and orientation.
public struct DecodingOptions: Sendable {
    /// The largest side of the result in pixels, or `nil` for the full size.
    ///
    /// JPEG decodes at the strongest DCT scale (1/2, 1/4, 1/8) whose result still has a longer side
    /// of at least this, then area-averages down to fit; PNG decodes fully and area-averages.
    /// Images already within the bound are never enlarged.
    public var maxDimension: Int?
    /// How far below ``maxDimension`` a JPEG's longer side may land, as a share of it (0…0.5,
    /// default 0), when that lets it decode at a stronger DCT scale and skip resampling: with 0.05 and
    /// a bound of 512, a 4032-pixel photo decodes at 1/8 to 504 pixels instead of at 1/4 and then
    /// averaged down to 512 (several times less work). Other values are clamped to 0…0.5; PNG ignores it.
    public var maxDimensionSlack: Double
    /// The limits checked against the header before decoding.
    public var limits: DecodingLimits
    /// Whether the EXIF orientation (1–8) is applied so that the result is upright. Default `true`.
    public var appliesOrientation: Bool

    /// Creates options: full size, default limits, orientation applied unless told otherwise.
    public init(
        maxDimension: Int? = nil, maxDimensionSlack: Double = 0, limits: DecodingLimits = .default,
        appliesOrientation: Bool = true
    ) {
        self.maxDimension = maxDimension
        self.maxDimensionSlack = maxDimensionSlack
        self.limits = limits
        self.appliesOrientation = appliesOrientation
    }
}

/// A decoded image: its pixels and what the file said about it.
public struct DecodedImage: Sendable {
    /// The format the data was recognised as.
    public let format: ImageFormat
    /// The pixels: JPEG gives `rgb8` (`gray8` for a grayscale JPEG); PNG gives `rgba8` when it has
    /// an alpha channel or a tRNS chunk, otherwise `rgb8` or `gray8`.
    public let pixelBuffer: PixelBuffer
    /// The width stored in the file, before scaling and orientation.
    public let sourceWidth: Int
    /// The height stored in the file, before scaling and orientation.
    public let sourceHeight: Int
    /// The EXIF orientation found in the file (1 when there is none). It has been applied to
    /// ``pixelBuffer`` when ``DecodingOptions/appliesOrientation`` was `true`.
    public let orientation: Int
    /// How many warnings the codec library reported about data it could still decode
    /// (for example extraneous bytes between JPEG markers, or a bad ancillary PNG chunk CRC).
    public let warningCount: Int
}
