/// The CRC-32 checksum (IEEE 802.3 polynomial, as in zlib, PNG and Python's `zlib.crc32`): the one
/// checksum of every Glimpse file (index files, label and feature-print model files, the feature cache).
///
/// Detects every burst error up to 32 bits and every odd number of bit flips; the check value of
/// `"123456789"` is `0xCBF43926`. Computed eight bytes at a time (slicing-by-8).
public struct CRC32: Sendable, Equatable {
    private var state: UInt32 = 0xFFFF_FFFF

    /// Starts a checksum over no bytes.
    public init() {}

    /// The checksum of the bytes fed so far.
    public var value: UInt32 { ~state }

    /// `checksum` as error messages show it: `0x` and eight hexadecimal digits, such as `0xcbf43926`.
    public static func hex(_ checksum: UInt32) -> String {
        let digits = String(checksum, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The checksum of `bytes`.
    public static func checksum(bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes: bytes)
        return crc.value
    }

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
        let copy = Array(bytes)
        copy.withUnsafeBytes { update(bytes: $0) }
    }

    /// Feeds the bytes of `bytes` into the checksum. Not generic, so calls from other modules do not
    /// go through unspecialised generic iteration.
    public mutating func update(bytes: UnsafeRawBufferPointer) {
        var crc = state
        let count = bytes.count
        var i = 0
        Self.tables.withUnsafeBufferPointer { t in
            // safe because i + 8 <= count and every table index is masked to 0...255 within its 256-entry slice.
            while i + 8 <= count {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self))
                crc = t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                i += 8
            }
            while i < count {
                crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
        }
        state = crc
    }

    /// Eight 256-entry tables for the reflected polynomial 0xEDB88320; table `k` advances `k` extra bytes.
    private static let tables: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
            table[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = table[(k - 1) * 256 + n]
                table[k * 256 + n] = table[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return table
    }()
}
