/// The CRC-32C checksum (Castagnoli polynomial, as in iSCSI and ext4), the checksum of index files.
///
/// Detects every burst error up to 32 bits and every odd number of bit flips; the check value of
/// `"123456789"` is `0xE3069283`.
public struct CRC32C: Sendable, Equatable {
    private var state: UInt32 = 0xFFFF_FFFF

    /// Creates a checksum of no bytes.
    public init() {}

    /// The checksum of everything passed to ``update(_:)`` so far.
    public var value: UInt32 { ~state }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
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

    /// Eight 256-entry tables for the reflected polynomial 0x82F63B78; table `k` advances `k` extra bytes.
    private static let tables: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
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
