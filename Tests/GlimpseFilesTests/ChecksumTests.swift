import GlimpseFiles
import Testing

@Suite("Checksums")
struct ChecksumTests {
    static let check = Array("123456789".utf8)
    /// Long enough for CRC-32C's eight-byte steps, with a tail of odd length.
    static let long = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test("CRC-32 (IEEE) gives the standard check values")
    func crc32CheckValues() {
        #expect(CRC32.checksum(Self.check) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        // Slices and other collections give the same value as arrays.
        #expect(CRC32.checksum(([0, 0] + Self.check)[2...]) == 0xCBF4_3926)
    }

    @Test("CRC-32 fed in pieces equals the one-shot checksum")
    func crc32Incremental() {
        var split = CRC32()
        split.update(Self.long[0..<333])
        split.update(Self.long[333...])
        #expect(split.value == CRC32.checksum(Self.long))
        #expect(CRC32().value == 0)
    }

    @Test("CRC-32C (Castagnoli) gives the standard check values")
    func crc32cCheckValues() {
        #expect(CRC32C.checksum(Self.check) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        // RFC 3720 (iSCSI), appendix B.4.
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    }

    @Test("CRC-32C fed in pieces equals the one-shot checksum")
    func crc32cIncremental() {
        var split = CRC32C()
        Self.long.withUnsafeBytes { raw in
            split.update(UnsafeRawBufferPointer(rebasing: raw[0..<333]))
            split.update(UnsafeRawBufferPointer(rebasing: raw[333...]))
        }
        #expect(split.value == CRC32C.checksum(Self.long))
        #expect(Self.long.withUnsafeBytes { CRC32C.checksum($0) } == CRC32C.checksum(Self.long))
        #expect(CRC32C().value == 0)
    }
}

@Suite("CRC-32 paths")
struct CRC32PathTests {
    @Test("Arrays, slices, raw buffers and non-contiguous collections give the same checksum")
    func samePaths() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = CRC32.checksum(bytes)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(bytes[0..<bytes.count]) == whole)
        #expect(CRC32.checksum(bytes.lazy.map { $0 }) == whole)
        var crc = CRC32()
        bytes.withUnsafeBytes { crc.update(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<4000])) }
        crc.update(bytes[4000...])
        #expect(crc.value == whole)
    }
}
