/// The 4,096-byte header of a ``SlotFile`` (little-endian):
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 8 | magic `GLSLOTS1` |
/// | 8 | 4 | version (1) |
/// | 12 | 2 | byte-order mark `0xFEFF` |
/// | 16 | 4 | slot size in bytes |
/// | 24 | 8 | committed slot count |
/// | 32 | 16 | file id (random, fixed at creation) |
/// | 48 | 8 | synced store sequence (signed; −1 when none) |
/// | 56 | 8 | model id (0 when none) |
/// | 64 | 4 + n | identity tag: byte count, then UTF-8 (n ≤ 2,048) |
/// | 4,092 | 4 | CRC-32 of bytes 0..<4,092 |
///
/// Unused bytes are zero.
struct SlotFileHeader: Sendable, Equatable {
    static let size = 4096
    static let magic = Array("GLSLOTS1".utf8)
    static let version: UInt32 = 1
    static let byteOrderMark: UInt16 = 0xFEFF
    static let maxTagBytes = 2048
    private static let checksumOffset = size - 4

    var slotSize: Int
    var committedCount: Int
    var fileID: [UInt8]
    var storeSequence: Int64
    var modelID: UInt64
    var tag: String

    /// The header's bytes, ``size`` of them, with its checksum.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.size)
        Self.magic.withUnsafeBytes { writer.append(raw: $0) }
        writer.append(Self.version)
        writer.append(Self.byteOrderMark)
        writer.append(UInt16(0))
        writer.append(UInt32(slotSize))
        writer.append(UInt32(0))
        writer.append(UInt64(committedCount))
        fileID.withUnsafeBytes { writer.append(raw: $0) }
        writer.append(storeSequence)
        writer.append(modelID)
        writer.append(string: tag)
        var bytes = writer.bytes
        bytes.append(contentsOf: repeatElement(0, count: Self.size - bytes.count))
        let crc = CRC32.checksum(bytes[..<Self.checksumOffset])
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(Self.checksumOffset..<Self.size, with: $0) }
        return bytes
    }

    /// Decodes and checks a header read from the file at `path`.
    ///
    /// - Throws: ``SlotFileError/notASlotFile(path:)``, ``SlotFileError/unsupportedVersion(path:found:)``
    ///   or ``SlotFileError/headerChecksum(path:)``.
    init(decoding bytes: [UInt8], path: String) throws(SlotFileError) {
        guard bytes.count == Self.size, bytes.starts(with: Self.magic) else { throw .notASlotFile(path: path) }
        self = try withBytes(of: bytes) { raw throws(SlotFileError) in
            var reader = ByteReader(raw, offset: Self.magic.count) { _ in SlotFileError.headerChecksum(path: path) }
            let version = try reader.read(UInt32.self)
            let mark = try reader.read(UInt16.self)
            guard mark == Self.byteOrderMark else { throw .notASlotFile(path: path) }
            let stored = raw.loadUnaligned(fromByteOffset: Self.checksumOffset, as: UInt32.self).littleEndian
            guard CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: raw[..<Self.checksumOffset])) == stored else {
                throw .headerChecksum(path: path)
            }
            guard version == Self.version else { throw .unsupportedVersion(path: path, found: version) }
            _ = try reader.read(UInt16.self)
            let slotSize = Int(try reader.read(UInt32.self))
            _ = try reader.read(UInt32.self)
            let committed = try reader.read(UInt64.self)
            let fileID = try reader.readBytes(count: 16)
            let sequence = try reader.read(Int64.self)
            let model = try reader.read(UInt64.self)
            let tag = try reader.readString(maxLength: Self.maxTagBytes)
            guard committed <= UInt64(Int.max), slotSize >= SlotFile.slotHeaderSize + 1 else {
                throw .headerChecksum(path: path)
            }
            return SlotFileHeader(slotSize: slotSize, committedCount: Int(committed), fileID: fileID,
                                  storeSequence: sequence, modelID: model, tag: tag)
        }
    }

    private init(slotSize: Int, committedCount: Int, fileID: [UInt8], storeSequence: Int64, modelID: UInt64, tag: String) {
        self.slotSize = slotSize
        self.committedCount = committedCount
        self.fileID = fileID
        self.storeSequence = storeSequence
        self.modelID = modelID
        self.tag = tag
    }

    /// A new file's header: no slot committed, no store sequence, no model, a random file id.
    static func fresh(slotSize: Int, tag: String) -> SlotFileHeader {
        var generator = SystemRandomNumberGenerator()
        let fileID = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return SlotFileHeader(slotSize: slotSize, committedCount: 0, fileID: fileID, storeSequence: -1, modelID: 0, tag: tag)
    }
}
