@_exported public import AppIntentsCore
@_exported public import CoreVideo

/// What a visual search is asked about: Visual Intelligence's `SemanticContentDescriptor`.
///
/// ``labels`` are general, high-level terms such as `tower` or `lake` (never the name of the thing);
/// ``pixelBuffer`` is the captured picture. An `IntentValueQuery` takes it as its input.
public struct SemanticContentDescriptor: Sendable {
    /// Labels that classify what is in the picture; may be empty.
    public let labels: [String]
    /// The picture, when there is one.
    public var pixelBuffer: CVReadOnlyPixelBuffer?

    /// A descriptor (on Apple platforms the system makes them; on Linux the caller does).
    public init(labels: [String] = [], pixelBuffer: CVReadOnlyPixelBuffer? = nil) {
        self.labels = labels
        self.pixelBuffer = pixelBuffer
    }
}
