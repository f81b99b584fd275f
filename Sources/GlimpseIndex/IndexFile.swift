import GlimpseFiles

/// The index file format: a versioned, checksummed binary image of an index.
///
/// Layout, all integers little-endian:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `GLMPSIDX` |
/// | 8 | 2 | format version (2; version 1, which checksummed with CRC-32C, is refused) |
/// | 10 | 2 | byte-order marker `0xFEFF` |
/// | 12 | 1 | kind: 1 flat, 2 int8 flat, 3 HNSW, 4 binary IVF |
/// | 13 | 1 | metric: 0 squared Euclidean, 1 cosine, 2 inner product |
/// | 14 | 2 | reserved, 0 |
/// | 16 | 4 | dimension |
/// | 20 | 4 | parameters length |
/// | 24 | 8 | vector count |
/// | 32 | 4 | tag length |
/// | 36 | 4 | reserved, 0 |
/// | 40 | 8 | payload length |
/// | 48 | 4 | CRC-32 of bytes 0..<48 |
/// | 52 | 12 | reserved, 0 |
/// | 64 | … | parameters, then tag (UTF-8), then payload |
/// | end − 8 | 4 | CRC-32 of every byte before it |
/// | end − 4 | 4 | end marker `GEND` |
///
/// Loading checks, in order: the magic, the version, the byte-order marker, the header checksum, the
/// kind, metric and dimension, the file size against the lengths (before reading the payload), the
/// whole-file checksum, then the structure of the payload. Nothing is used before every check passes.
public enum IndexFile {
    /// The first eight bytes of every index file.
    public static let magic: [UInt8] = Array("GLMPSIDX".utf8)
    /// The last four bytes of every index file.
    public static let endMarker: [UInt8] = Array("GEND".utf8)
    /// The format version this build writes and reads.
    public static let formatVersion = 2
    /// The fixed header size in bytes.
    public static let headerSize = 64
    /// The trailer size in bytes (checksum and end marker).
    public static let trailerSize = 8
    /// The longest tag, in UTF-8 bytes.
    public static let maximumTagBytes = 4096
    static let byteOrderMarker: UInt16 = 0xFEFF

    /// The kind of index a file holds.
    public enum Kind: UInt8, Sendable, CustomStringConvertible {
        /// A ``FlatIndex``.
        case flat = 1
        /// An ``Int8FlatIndex``.
        case int8Flat = 2
        /// An ``HNSWIndex``.
        case hnsw = 3
        /// A ``BinaryIVFIndex`` (read with ``IndexFile/loadBinaryIVF(from:expectedDimension:expectedTag:)``:
        /// it is searched with a rescoring function, so it is not a ``LoadedIndex``).
        case binaryIVF = 4

        /// The kind's name in messages.
        public var description: String {
            switch self {
            case .flat: "flat"
            case .int8Flat: "int8-flat"
            case .hnsw: "HNSW"
            case .binaryIVF: "binary IVF"
            }
        }
    }

    /// The fields of a validated header.
    struct Header {
        var kind: Kind
        var metric: DistanceMetric
        var dimension: Int
        var count: Int
        var parametersLength: Int
        var tagLength: Int
        var payloadLength: Int

        /// The size the whole file must have, or `nil` when the lengths overflow.
        var fileSize: Int? {
            var total = IndexFile.headerSize + IndexFile.trailerSize
            for part in [parametersLength, tagLength, payloadLength] {
                let (sum, overflow) = total.addingReportingOverflow(part)
                guard !overflow else { return nil }
                total = sum
            }
            return total
        }
    }

    /// Assembles a complete file image from its parts.
    static func assemble(
        kind: Kind, metric: DistanceMetric, dimension: Int, count: Int, tag: String, parameters: [UInt8],
        payload: (inout ByteWriter) -> Void, payloadLength: Int
    ) -> [UInt8] {
        let tagBytes = Array(tag.utf8.prefix(maximumTagBytes))
        var writer = ByteWriter(capacity: headerSize + parameters.count + tagBytes.count + payloadLength + trailerSize)
        writer.append(contentsOf: magic)
        writer.append(UInt16(formatVersion))
        writer.append(byteOrderMarker)
        writer.append(kind.rawValue)
        writer.append(metric.rawValue)
        writer.append(UInt16(0))
        writer.append(UInt32(dimension))
        writer.append(UInt32(parameters.count))
        writer.append(UInt64(count))
        writer.append(UInt32(tagBytes.count))
        writer.append(UInt32(0))
        writer.append(UInt64(payloadLength))
        writer.append(CRC32.checksum(writer.bytes))
        writer.append(contentsOf: [UInt8](repeating: 0, count: headerSize - writer.bytes.count))
        writer.append(contentsOf: parameters)
        writer.append(contentsOf: tagBytes)
        let payloadStart = writer.bytes.count
        payload(&writer)
        precondition(writer.bytes.count - payloadStart == payloadLength, "index payload length mismatch")
        writer.append(CRC32.checksum(writer.bytes))
        writer.append(contentsOf: endMarker)
        return writer.bytes
    }

    /// Validates the fixed header of `bytes` (which may be only its first ``headerSize`` bytes).
    static func readHeader(_ bytes: UnsafeRawBufferPointer, expectedDimension: Int?) throws(IndexFileError) -> Header {
        guard bytes.count >= headerSize else {
            if bytes.count >= magic.count, !zip(bytes, magic).allSatisfy({ $0 == $1 }) { throw .notAnIndexFile }
            throw .truncated(expectedBytes: headerSize + trailerSize, actualBytes: bytes.count)
        }
        guard zip(bytes.prefix(magic.count), magic).allSatisfy({ $0 == $1 }) else { throw .notAnIndexFile }
        var reader = ByteReader(bytes, offset: magic.count, failure: IndexFileError.init(reading:))
        let version = Int(try reader.read(UInt16.self, "format version"))
        guard version == formatVersion else { throw .unsupportedVersion(found: version, supported: formatVersion) }
        guard try reader.read(UInt16.self, "byte-order marker") == byteOrderMarker else { throw .wrongByteOrder }
        let declaredHeaderCRC = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 48, as: UInt32.self))
        let computedHeaderCRC = CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<48]))
        guard declaredHeaderCRC == computedHeaderCRC else {
            throw .headerChecksumMismatch(declared: declaredHeaderCRC, computed: computedHeaderCRC)
        }
        let kindCode = try reader.read(UInt8.self, "kind")
        let metricCode = try reader.read(UInt8.self, "metric")
        guard let kind = Kind(rawValue: kindCode) else { throw .unknownKind(Int(kindCode)) }
        guard let metric = DistanceMetric(rawValue: metricCode) else { throw .unknownMetric(Int(metricCode)) }
        guard try reader.read(UInt16.self, "reserved") == 0 else { throw .malformed("reserved header bytes are set") }
        let dimension = Int(try reader.read(UInt32.self, "dimension"))
        let parametersLength = Int(try reader.read(UInt32.self, "parameters length"))
        let count = try reader.read(UInt64.self, "count")
        let tagLength = Int(try reader.read(UInt32.self, "tag length"))
        guard try reader.read(UInt32.self, "reserved") == 0 else { throw .malformed("reserved header bytes are set") }
        let payloadLength = try reader.read(UInt64.self, "payload length")
        guard bytes[52..<64].allSatisfy({ $0 == 0 }) else { throw .malformed("reserved header bytes are set") }
        guard (1...IndexLimits.maximumDimension).contains(dimension) else {
            throw .malformed("dimension \(dimension) is out of range")
        }
        if let expectedDimension, expectedDimension != dimension {
            throw .dimensionMismatch(expected: expectedDimension, found: dimension)
        }
        guard count <= UInt64(IndexLimits.maximumCount) else { throw .malformed("count \(count) is out of range") }
        guard payloadLength <= UInt64(Int.max / 2) else { throw .malformed("payload length is out of range") }
        guard tagLength <= maximumTagBytes else { throw .malformed("tag length \(tagLength) is out of range") }
        return Header(
            kind: kind, metric: metric, dimension: dimension, count: Int(count), parametersLength: parametersLength,
            tagLength: tagLength, payloadLength: Int(payloadLength))
    }

    /// Validates a complete file image: header, size, trailer and checksum. Returns the header.
    static func validate(_ bytes: UnsafeRawBufferPointer, expectedDimension: Int?) throws(IndexFileError) -> Header {
        let header = try readHeader(bytes, expectedDimension: expectedDimension)
        guard let size = header.fileSize else { throw .malformed("section lengths overflow") }
        guard bytes.count >= size else { throw .truncated(expectedBytes: size, actualBytes: bytes.count) }
        guard bytes.count == size else { throw .trailingBytes(expectedBytes: size, actualBytes: bytes.count) }
        guard zip(bytes.suffix(endMarker.count), endMarker).allSatisfy({ $0 == $1 }) else {
            throw .malformed("the end marker is damaged")
        }
        let declared = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: size - trailerSize, as: UInt32.self))
        let computed = CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<(size - trailerSize)]))
        guard declared == computed else { throw .checksumMismatch(declared: declared, computed: computed) }
        return header
    }
}
