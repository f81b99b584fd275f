/// Repairs the length and checksum fields of a mutated file image, so that the parser behind those
/// checks is reached; the targets try the input as it is first, then repaired when that changes it.
public struct FileImage {
    /// The bytes being repaired.
    public var bytes: [UInt8]

    /// Starts from `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Stores `value` little-endian at `offset` (negative: from the end); does nothing when it does not fit.
    public mutating func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        let start = offset < 0 ? bytes.count + offset : offset
        let size = T.bitWidth / 8
        guard start >= 0, start <= bytes.count - size else { return }
        for i in 0..<size { bytes[start + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }
}
