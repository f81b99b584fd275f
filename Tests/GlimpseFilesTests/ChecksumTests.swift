import GlimpseFiles
import Testing

@Suite("Checksums")
struct ChecksumTests {
    static let check = Array("123456789".utf8)
    /// Long enough for CRC-32's eight-byte steps, with a tail of odd length.
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

    @Test("CRC-32's eight-byte steps give zlib's values")
    func crc32SlicedValues() {
        // Python's zlib.crc32 of the same bytes.
        #expect(CRC32.checksum([UInt8](repeating: 0, count: 32)) == 0x190A_55AD)
        #expect(CRC32.checksum([UInt8](repeating: 0xFF, count: 32)) == 0xFF6C_AB0B)
        #expect(CRC32.checksum((0..<32).map { UInt8($0) }) == 0x9126_7E8A)
        #expect(CRC32.checksum(Self.long) == 0x91F4_3DEC)
        #expect(Self.long.withUnsafeBytes { CRC32.checksum(bytes: $0) } == 0x91F4_3DEC)
    }

    @Test("FNV-1a 64 gives the published values, bytes and words alike")
    func fnv1a64Values() {
        #expect(FNV1a64().value == 0xCBF2_9CE4_8422_2325)
        #expect(FNV1a64.hash(Array("a".utf8)) == 0xAF63_DC4C_8601_EC8C)
        #expect(FNV1a64.hash("foobar".utf8) == 0x8594_4171_F739_67E8)
        var words = FNV1a64()
        words.add(UInt64(0x0102_0304_0506_0708))
        #expect(words.value == FNV1a64.hash([8, 7, 6, 5, 4, 3, 2, 1] as [UInt8]))
        var small = FNV1a64()
        small.add([UInt8]())
        #expect(small.hex == "cbf29ce484222325")
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
