import GlimpseFeaturePrint
import GlimpseFiles

/// The binary layout of a label model file (all integers little-endian):
///
/// ```
/// magic          8 bytes  "GLMLABEL"
/// formatVersion  u16      1
/// reserved       u16      0
/// totalLength    u64      length of the whole file, checksum included
/// extractor      str id, u32 version, str parameters, u32 dimension, u32 rows per picture
/// vote           u32 k, f32 weightPower, f32 threshold, u32 n, n × f32 per-label threshold (n is 0 or
///                the vocabulary size)
/// vocabulary     u32 count, then count × str
/// references     u32 count, then count × (str id, u16 n, n × u16 label index)
/// vectors        count × rows × dimension × f32
/// checksum       u32      CRC-32 of every byte before it
/// ```
/// where `str` is a u32 byte count followed by UTF-8.
enum LabelModelFile {
    static let magic: [UInt8] = Array("GLMLABEL".utf8)
    static let formatVersion: UInt16 = 1
    static let headerLength = 20
    static let maximumStringLength = 4096
    static let maximumDimension = 1 << 16
    static let maximumReferences = 1 << 20
    static let maximumRows = 1 << 12
    static let maximumVocabulary = 1 << 15

    /// The file bytes of `model`.
    static func encode(_ model: LabelModel) -> [UInt8] {
        var out = ByteWriter()
        out.append(contentsOf: magic)
        out.append(formatVersion)
        out.append(UInt16(0))
        out.append(UInt64(0)) // patched below
        out.append(string: model.extractor.id)
        out.append(model.extractor.version)
        out.append(string: model.extractor.parameters)
        out.append(UInt32(model.extractor.dimension))
        out.append(UInt32(model.extractor.rows))
        out.append(UInt32(model.vote.k))
        out.append(model.vote.weightPower.bitPattern)
        out.append(model.vote.threshold.bitPattern)
        out.append(UInt32(model.vote.labelThresholds.count))
        for threshold in model.vote.labelThresholds { out.append(threshold.bitPattern) }
        out.append(UInt32(model.vocabulary.count))
        for label in model.vocabulary { out.append(string: label) }
        out.append(UInt32(model.references.count))
        for reference in model.references {
            out.append(string: reference.id)
            out.append(UInt16(reference.labels.count))
            for label in reference.labels { out.append(UInt16(label)) }
        }
        for value in model.vectors { out.append(value.bitPattern) }
        out.patch(UInt64(out.bytes.count + 4), at: 12)
        out.append(CRC32.checksum(out.bytes))
        return out.bytes
    }

    /// The model in `bytes`, after checking magic, version, length, checksum, every count and index,
    /// and that this build computes the model's extractor. `path` only names the file in errors.
    static func decode(
        _ bytes: [UInt8], path: String, featurePrinter: FeaturePrinterPool? = nil
    ) throws(LabelModelError) -> LabelModel {
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw .file(.notAModelFile(path: path))
        }
        guard bytes.count >= headerLength + 4 else {
            throw .file(.truncated(path: path, expected: headerLength + 4, actual: bytes.count))
        }
        return try withBytes(of: bytes) { (raw) throws(LabelModelError) -> LabelModel in
            try decode(raw, path: path, featurePrinter: featurePrinter)
        }
    }

    /// The model in `raw`, whose magic and length were checked by the caller.
    private static func decode(
        _ raw: UnsafeRawBufferPointer, path: String, featurePrinter: FeaturePrinterPool?
    ) throws(LabelModelError) -> LabelModel {
        func failure(_ error: ByteReadError) -> LabelModelError {
            switch error.problem {
            case .overrun:
                .file(.malformed(path: path, reason: "a field at byte \(error.offset) runs past the end of the data"))
            case let .stringOutOfRange(length):
                .file(.malformed(path: path, reason: "a string of \(length) bytes at byte \(error.offset) is out of range"))
            case .invalidUTF8:
                .file(.malformed(path: path, reason: "a string at byte \(error.offset) is not valid UTF-8"))
            }
        }
        var header = ByteReader(raw, offset: magic.count, failure: failure)
        let version: UInt16 = try header.read()
        guard version == formatVersion else {
            throw .file(.unsupportedFormatVersion(path: path, found: version, supported: formatVersion...formatVersion))
        }
        let reserved: UInt16 = try header.read()
        let total: UInt64 = try header.read()
        guard total == UInt64(raw.count) else {
            throw .file(.truncated(path: path, expected: Int(clamping: total), actual: raw.count))
        }
        let bodyEnd = raw.count - 4
        var trailer = ByteReader(raw, offset: bodyEnd, failure: failure)
        let stored: UInt32 = try trailer.read()
        let computed = CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<bodyEnd]))
        guard stored == computed else { throw .file(.checksumMismatch(path: path, stored: stored, computed: computed)) }
        // Reserved for later formats: a file with anything else there was not written by this one.
        guard reserved == 0 else { throw .file(.malformed(path: path, reason: "the reserved header field is \(reserved), not 0")) }

        var reader = ByteReader(raw, offset: headerLength, end: bodyEnd, failure: failure)
        let extractorID = try reader.readString(maxLength: maximumStringLength)
        let extractorVersion: UInt32 = try reader.read()
        let parameters = try reader.readString(maxLength: maximumStringLength)
        let dimension = Int(try reader.read() as UInt32)
        guard (1...maximumDimension).contains(dimension) else {
            throw .file(.malformed(path: path, reason: "dimension \(dimension) is out of range"))
        }
        let rows = Int(try reader.read() as UInt32)
        guard (1...maximumRows).contains(rows) else {
            throw .file(.malformed(path: path, reason: "\(rows) rows per picture is out of range"))
        }
        let k = Int(try reader.read() as UInt32)
        let power = try reader.readFloat()
        let threshold = try reader.readFloat()
        let labelThresholdCount = Int(try reader.read() as UInt32)
        guard labelThresholdCount <= maximumVocabulary else {
            throw .file(.malformed(path: path, reason: "\(labelThresholdCount) per-label thresholds is out of range"))
        }
        var labelThresholds: [Float] = []
        for _ in 0..<labelThresholdCount { labelThresholds.append(try reader.readFloat()) }
        let vocabularyCount = Int(try reader.read() as UInt32)
        guard vocabularyCount <= maximumVocabulary else {
            throw .file(.malformed(path: path, reason: "vocabulary of \(vocabularyCount) labels is out of range"))
        }
        var vocabulary: [String] = []
        for _ in 0..<vocabularyCount { vocabulary.append(try reader.readString(maxLength: maximumStringLength)) }
        let referenceCount = Int(try reader.read() as UInt32)
        guard referenceCount <= maximumReferences else {
            throw .file(.malformed(path: path, reason: "\(referenceCount) references is out of range"))
        }
        var references: [LabelledReference] = []
        references.reserveCapacity(referenceCount)
        for _ in 0..<referenceCount {
            let id = try reader.readString(maxLength: maximumStringLength)
            let count = Int(try reader.read() as UInt16)
            var labels: [Int] = []
            for _ in 0..<count {
                let label = Int(try reader.read() as UInt16)
                guard label < vocabularyCount else {
                    throw .file(.malformed(path: path, reason: "reference \(id) has label index \(label) "
                        + "outside a vocabulary of \(vocabularyCount)"))
                }
                // As written: ascending, no repeats (so every model has exactly one file).
                guard labels.last.map({ label > $0 }) ?? true else {
                    throw .file(.malformed(path: path, reason: "reference \(id) lists label index \(label) out of order "
                        + "or twice"))
                }
                labels.append(label)
            }
            references.append(LabelledReference(id: id, labels: labels))
        }
        let valueCount = referenceCount * rows * dimension
        guard valueCount <= 1 << 28 else {
            throw .file(.malformed(path: path, reason: "\(valueCount) vector values is out of range"))
        }
        guard reader.remaining == valueCount * 4 else {
            throw .file(.malformed(path: path, reason: "expected \(valueCount) vector values "
                + "(\(valueCount * 4) bytes) but \(reader.remaining) bytes remain"))
        }
        let vectors = try reader.readFloats(count: valueCount)

        let descriptor = FeatureExtractorDescriptor(id: extractorID, version: extractorVersion,
                                                    parameters: parameters, dimension: dimension, rows: rows)
        do {
            return try LabelModel(extractor: descriptor, vote: VoteParameters(k: k, weightPower: power, threshold: threshold,
                                                                  labelThresholds: labelThresholds),
                                  vocabulary: vocabulary, references: references, vectors: vectors,
                                  featurePrinter: featurePrinter)
        } catch {
            switch error {
            case let .extractorMismatch(_, model, current):
                throw .extractorMismatch(path: path, model: model, current: current)
            case let .invalidModel(reason):
                throw .file(.malformed(path: path, reason: reason))
            default:
                throw error
            }
        }
    }
}
