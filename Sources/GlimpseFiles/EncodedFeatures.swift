/// One picture's features in their stored coding: the standalone blob the matcher's feature coding
/// writes (GlimpseVision's `FeatureCoding.encode`: keypoints, descriptors and feature prints, then the
/// CRC-32 of the bytes before it).
///
/// Opaque below the matcher: the catalog stores keep, copy and return these bytes without reading
/// them, so they need not import the matcher; GlimpseVision makes them (`EncodedFeatures(_:)`) and
/// reads them (`decoded(path:)`) at the engine's edge. Which extraction settings and feature-print
/// model made them is the features key stored beside them; a coding change changes that key.
public struct EncodedFeatures: Sendable, Hashable {
    /// The coded bytes, as stored.
    public var bytes: [UInt8]

    /// Wraps bytes read from a store or made by the coding.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// What is wrong with the bytes' framing (too short to hold the checksum, or a checksum that does
    /// not match), checked without reading the features; `nil` when the framing holds. The coding's
    /// decoder checks the same and more.
    public var framingProblem: String? {
        guard bytes.count >= 4 else { return "features are too short (\(bytes.count) bytes)" }
        let body = bytes[..<(bytes.count - 4)]
        let tail = bytes[(bytes.count - 4)...]
        let stored = tail.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return stored == CRC32.checksum(body) ? nil : "checksum mismatch"
    }
}
