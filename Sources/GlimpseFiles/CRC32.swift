/// The CRC-32 checksum (IEEE 802.3 polynomial, as in zlib and PNG), the checksum of label model files.
///
/// The check value of `"123456789"` is `0xCBF43926`.
public struct CRC32: Sendable, Equatable {
    /// The checksum of the bytes fed so far.
    public private(set) var value: UInt32 = 0

    /// Starts a checksum over no bytes.
    public init() {}

    /// The checksum of `bytes`.
    public static func checksum<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Feeds `bytes` into the checksum. Contiguous collections (arrays, array slices) take the
    /// fast path of ``update(bytes:)``.
    public mutating func update<C: Collection<UInt8>>(_ bytes: C) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(bytes: UnsafeRawBufferPointer(buffer))
        }
        if done != nil { return }
        var crc = ~value
        for byte in bytes {
            crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        value = ~crc
    }

    /// Feeds the bytes of `bytes` into the checksum. Not generic, so calls from other modules do not
    /// go through unspecialised generic iteration (which made checking the 9 MB feature-print model
    /// take 0.7 s instead of tens of milliseconds).
    public mutating func update(bytes: UnsafeRawBufferPointer) {
        var crc = ~value
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        value = ~crc
    }

    /// The 256-entry table of the reflected polynomial 0xEDB88320.
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var c = UInt32(index)
        for _ in 0..<8 {
            c = (c & 1) != 0 ? (0xEDB8_8320 ^ (c >> 1)) : (c >> 1)
        }
        return c
    }
}
