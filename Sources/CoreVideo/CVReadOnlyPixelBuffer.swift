public import GlimpseImage

/// The captured picture visual intelligence hands to a query: Core Video's `CVReadOnlyPixelBuffer` on Apple
/// platforms, Glimpse's read-only ``PixelBuffer`` here (the same value, not a copy: decode a picture with
/// `ImageDecoder` and pass its buffer).
public typealias CVReadOnlyPixelBuffer = PixelBuffer
