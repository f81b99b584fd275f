import GlimpseFiles
import Testing

@Suite("Byte coding")
struct ByteCodingTests {
    @Test("what the writer appends, the reader reads back, in both byte orders")
    func roundTrip() throws {
        var writer = ByteWriter(capacity: 64)
        writer.append(UInt16(0x0102))
        writer.append(bigEndian: UInt32(0x0A0B_0C0D))
        writer.append(Float(1.5))
        writer.append(string: "héllo")
        writer.append(contentsOf: [Int64(-1), 7])
        writer.append(contentsOf: [Float(2), -3])
        writer.append(UInt64(0))
        writer.patch(UInt64(0xFEED), at: writer.bytes.count - 8)
        #expect(Array(writer.bytes.prefix(6)) == [0x02, 0x01, 0x0A, 0x0B, 0x0C, 0x0D])
        try withBytes(of: writer.bytes) { (raw) throws(ByteReadError) in
            var reader = ByteReader(raw)
            #expect(try reader.read(UInt16.self) == 0x0102)
            #expect(try reader.read(bigEndian: UInt32.self) == 0x0A0B_0C0D)
            #expect(try reader.readFloat() == 1.5)
            #expect(try reader.readString(maxLength: 16) == "héllo")
            #expect(try reader.readArray(Int64.self, count: 2) == [-1, 7])
            #expect(try reader.readFloats(count: 2) == [2, -3])
            #expect(try reader.read(UInt64.self) == 0xFEED)
            #expect(reader.isAtEnd && reader.remaining == 0)
        }
    }

    @Test("reads past the end, overlong and invalid strings are refused with what and where")
    func refusals() {
        let bytes: [UInt8] = [3, 0, 0, 0, 0xFF, 0xFE, 0x41, 9]
        withBytes(of: bytes) { raw in
            var short = ByteReader(raw, end: 6)
            #expect(throws: ByteReadError(.overrun, what: "count", offset: 0)) {
                try short.readArray(UInt16.self, count: 4, "count")
            }
            var string = ByteReader(raw)
            #expect(throws: ByteReadError(.invalidUTF8, what: "a string", offset: 4)) { try string.readString(maxLength: 8) }
            var limited = ByteReader(raw)
            #expect(throws: ByteReadError(.stringOutOfRange(length: 3), what: "a string", offset: 4)) {
                try limited.readString(maxLength: 2)
            }
        }
    }

    @Test("each format turns a read failure into its own error")
    func mappedErrors() {
        struct FormatError: Error, Equatable { let message: String }
        withBytes(of: [1, 2]) { raw in
            var reader = ByteReader(raw) { FormatError(message: "\($0.what) at \($0.offset)") }
            #expect(throws: FormatError(message: "a field at 0")) { try reader.read(UInt32.self) }
        }
    }
}
