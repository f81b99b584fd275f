#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseFiles

/// The binary layout of a feature-print model file, format version 1 (all integers little-endian):
///
/// ```
/// magic 8 "GLMFPRNT", u16 version 1, u16 0, u64 totalLength (checksum included),
/// str network, str provenance, u32 inputSize, f32 inputMean, f32 inputScale,
/// u32 weightType (0 f32, 1 f16), u32 valueCount, u32 embeddingValue, u32 logitsValue (0xFFFFFFFF: none),
/// u32 opCount, opCount × op, u32 CRC-32 of every byte before it
///
/// op: u8 kind, u8 activation, u8 padding, u8 0, u32 input, u32 input2 (0xFFFFFFFF unless add),
///     u32 output, u32 kernelH, kernelW, strideH, strideW, inChannels, outChannels,
///     weights (weightType), bias (f32 × outChannels) for convolution, depthwise, fully connected
/// ```
/// where `str` is a u32 byte count followed by UTF-8. Format version 2 is the int8 file (see
/// `FeaturePrintModelFile+Int8.swift`).
enum FeaturePrintModelFile {
    static let magic: [UInt8] = Array("GLMFPRNT".utf8)
    static let formatVersion: UInt16 = 1
    /// The format version of int8 files (weight type 2).
    static let int8FormatVersion: UInt16 = 2
    static let headerLength = 20
    static let noValue = UInt32.max
    static let maximumStringLength = 1 << 16

    /// The file bytes of `model`.
    static func encode(_ model: FeaturePrintModel) -> [UInt8] {
        if let quantization = model.quantization { return encodeInt8(model, quantization) }
        var out = ByteWriter(capacity: headerLength + model.parameterCount * 4 + 64 * model.layerCount + 1024)
        appendHead(model, version: formatVersion, to: &out)
        out.append(UInt32(model.layerCount))
        for record in model.records {
            appendFields(record.layer, to: &out)
            for weight in model.parameters.values(record.weights) {
                switch model.weightType {
                case .float16: out.append(Half.bits(weight))
                case .float32, .int8: out.append(weight.bitPattern)
                }
            }
            for bias in model.parameters.values(record.bias) { out.append(bias.bitPattern) }
        }
        out.patch(UInt64(out.bytes.count + 4), at: 12)
        out.append(CRC32.checksum(out.bytes))
        return out.bytes
    }

    /// Writes the header and the fields both versions share, up to the logits id: magic, `version`, a
    /// length to patch at byte 12, the strings, the input, the weight type, the counts and ids.
    static func appendHead(_ model: FeaturePrintModel, version: UInt16, to out: inout ByteWriter) {
        out.append(contentsOf: magic)
        out.append(version)
        out.append(UInt16(0))
        out.append(UInt64(0)) // patched when the file is complete
        out.append(string: model.network)
        out.append(string: model.provenance)
        out.append(UInt32(model.input.size))
        out.append(model.input.mean.bitPattern)
        out.append(model.input.scale.bitPattern)
        out.append(model.weightType.rawValue)
        out.append(UInt32(model.valueCount))
        out.append(UInt32(model.embeddingValue))
        out.append(model.logitsValue.map { UInt32($0) } ?? noValue)
    }

    /// Writes one op's fixed fields (kind, activation, padding, reserved byte, ids, sizes).
    static func appendFields(_ layer: FeaturePrintLayer, to out: inout ByteWriter) {
        out.append(contentsOf: [layer.kind.rawValue, layer.activation.rawValue, layer.padding.rawValue, 0])
        for field in [layer.input, layer.secondInput ?? Int(noValue), layer.output, layer.kernelHeight,
                      layer.kernelWidth, layer.strideHeight, layer.strideWidth, layer.inputChannels,
                      layer.outputChannels] {
            out.append(UInt32(truncatingIfNeeded: field))
        }
    }

    /// Refuses a file by its first `headerLength` bytes and its size, before the rest is read.
    static func checkHeader(_ head: [UInt8], size: Int, path: String) throws(FeaturePrintModelError) {
        guard head.count >= magic.count, head[0..<magic.count].elementsEqual(magic) else {
            throw .file(.notAModelFile(path: path))
        }
        guard head.count >= headerLength, size >= headerLength + 4 else {
            throw .file(.truncated(path: path, expected: headerLength + 4, actual: size))
        }
        let version = UInt16(head[8]) | UInt16(head[9]) << 8
        guard version == formatVersion || version == int8FormatVersion else {
            throw .file(.unsupportedFormatVersion(path: path, found: version, supported: formatVersion...int8FormatVersion))
        }
        var total: UInt64 = 0
        for i in 0..<8 { total |= UInt64(head[12 + i]) << (8 * UInt64(i)) }
        guard total == UInt64(size) else {
            throw .file(.truncated(path: path, expected: Int(clamping: total), actual: size))
        }
    }

    /// The model in `bytes`, after checking magic, version, length, checksum, every count, kind, id
    /// and shape. `path` only names the file in errors.
    static func decode(_ bytes: [UInt8], path: String) throws(FeaturePrintModelError) -> FeaturePrintModel {
        try checkHeader(Array(bytes.prefix(headerLength)), size: bytes.count, path: path)
        let bodyEnd = bytes.count - 4
        let stored = UInt32(bytes[bodyEnd]) | UInt32(bytes[bodyEnd + 1]) << 8 | UInt32(bytes[bodyEnd + 2]) << 16
            | UInt32(bytes[bodyEnd + 3]) << 24
        let computed = CRC32.checksum(bytes[0..<bodyEnd])
        guard stored == computed else { throw .file(.checksumMismatch(path: path, stored: stored, computed: computed)) }
        let int8 = bytes[8] == UInt8(int8FormatVersion)
        do throws(LayerRuleError) {
            return try withBytes(of: bytes) { (raw) throws(LayerRuleError) in
                int8 ? try decodeInt8Body(raw, end: bodyEnd) : try decodeBody(raw, end: bodyEnd)
            }
        } catch {
            throw .file(.malformed(path: path, reason: error.reason))
        }
    }

    /// Two passes over the layers: the first checks every header and lays out the parameters
    /// (so nothing large is allocated for a malformed file), the second reads the parameters.
    private static func decodeBody(_ raw: UnsafeRawBufferPointer, end: Int) throws(LayerRuleError) -> FeaturePrintModel {
        var reader = ByteReader(raw, offset: headerLength, end: end, failure: LayerRuleError.init(reading:))
        let network = try reader.readString(maxLength: maximumStringLength)
        let provenance = try reader.readString(maxLength: maximumStringLength)
        let size = Int(try reader.read(UInt32.self))
        let input = FeaturePrintInput(size: size, mean: try reader.readFloat(), scale: try reader.readFloat())
        let rawWeightType = try reader.read(UInt32.self)
        guard let weightType = FeaturePrintWeightType(rawValue: rawWeightType), weightType != .int8 else {
            throw LayerRuleError(reason: "weight type \(rawWeightType) is neither 0 (f32) nor 1 (f16), the weight "
                + "types of format version 1 (int8 files are version 2)")
        }
        let valueCount = Int(try reader.read(UInt32.self))
        let embedding = Int(try reader.read(UInt32.self))
        let rawLogits = try reader.read(UInt32.self)
        let logits = rawLogits == noValue ? nil : Int(rawLogits)
        let layerCount = Int(try reader.read(UInt32.self))
        var builder = try ModelBuilder(input: input, valueCount: valueCount, layerCount: layerCount)
        let weightSize = weightType == .float16 ? 2 : 4
        var parameterOffsets: [Int] = []
        parameterOffsets.reserveCapacity(layerCount)
        for index in 0..<layerCount {
            let layer = try readLayerFields(&reader, index: index)
            try builder.add(layer, index: index)
            parameterOffsets.append(reader.offset)
            let byteCount = layer.expectedWeightCount * weightSize + layer.expectedBiasCount * 4
            guard reader.remaining >= byteCount else {
                throw LayerRuleError(reason: "layer \(index) (\(layer.kind)) needs \(byteCount) bytes of weights and "
                    + "biases but only \(reader.remaining) remain")
            }
            reader.offset += byteCount
        }
        guard reader.remaining == 0 else {
            throw LayerRuleError(reason: "\(reader.remaining) bytes follow the last layer")
        }
        try LayerRules.checkOutputs(embedding: embedding, logits: logits, shapes: builder.shapes,
                                    layers: builder.records.map(\.layer))

        let records = builder.records
        let arena = ParameterArena<Float>(count: builder.parameterCount) { storage in
            for (record, start) in zip(records, parameterOffsets) {
                var at = start
                for i in record.weights {
                    if weightType == .float16 {
                        storage[i] = Half.float(raw.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian)
                        at += 2
                    } else {
                        storage[i] = Float(bitPattern: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                        at += 4
                    }
                }
                for i in record.bias {
                    storage[i] = Float(bitPattern: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                    at += 4
                }
            }
        }
        return FeaturePrintModel(network: network, provenance: provenance, input: input, weightType: weightType,
                                 valueCount: valueCount, embeddingValue: embedding, logitsValue: logits,
                                 records: records, shapes: builder.shapes, parameters: arena, quantization: nil)
    }

    /// Reads one op's fixed fields, checking the kind, activation, padding and reserved byte.
    static func readLayerFields(
        _ reader: inout ByteReader<LayerRuleError>, index: Int
    ) throws(LayerRuleError) -> FeaturePrintLayer {
        let rawKind = try reader.read(UInt8.self), rawActivation = try reader.read(UInt8.self)
        let rawPadding = try reader.read(UInt8.self), reserved = try reader.read(UInt8.self)
        guard let kind = FeaturePrintLayer.Kind(rawValue: rawKind) else {
            throw LayerRuleError(reason: "layer \(index) has unknown kind \(rawKind) (1...5 are defined)")
        }
        guard let activation = FeaturePrintLayer.Activation(rawValue: rawActivation) else {
            throw LayerRuleError(reason: "layer \(index) has unknown activation \(rawActivation)")
        }
        guard let padding = FeaturePrintLayer.Padding(rawValue: rawPadding) else {
            throw LayerRuleError(reason: "layer \(index) has unknown padding \(rawPadding)")
        }
        guard reserved == 0 else { throw LayerRuleError(reason: "layer \(index) has reserved byte \(reserved), not 0") }
        var fields: [Int] = []
        for _ in 0..<9 { fields.append(Int(try reader.read(UInt32.self))) }
        return FeaturePrintLayer(
            kind: kind, activation: activation, padding: padding, input: fields[0],
            secondInput: fields[1] == Int(noValue) ? nil : fields[1], output: fields[2],
            kernelHeight: fields[3], kernelWidth: fields[4], strideHeight: fields[5], strideWidth: fields[6],
            inputChannels: fields[7], outputChannels: fields[8], weights: [], bias: [])
    }
}

extension LayerRuleError {
    /// The error of a field that runs past the end of the data, or of a bad string.
    init(reading error: ByteReadError) {
        switch error.problem {
        case .overrun: reason = "a field at byte \(error.offset) runs past the end of the data"
        case let .stringOutOfRange(length): reason = "a string of \(length) bytes at byte \(error.offset) is out of range"
        case .invalidUTF8: reason = "the string at byte \(error.offset) is not valid UTF-8"
        }
    }
}

extension FeaturePrintModel {
    /// Reads and validates the model file at `path`. The header is checked before the rest of the
    /// file is read, so a wrong file never causes a large allocation.
    ///
    /// - Throws: ``FeaturePrintModelError`` when the file is missing or unreadable, is not a model
    ///   file, is truncated, damaged or malformed, or has another format version.
    public static func load(from path: String) throws(FeaturePrintModelError) -> FeaturePrintModel {
        let bytes = try AtomicFile.read(
            path, peekBytes: FeaturePrintModelFile.headerLength,
            mapError: { error -> FeaturePrintModelError in
                error.operation == .open && error.code == ENOENT
                    ? .missing(path: path) : .file(.unreadable(path: path, reason: error.reason))
            },
            check: { (head, size) throws(FeaturePrintModelError) in
                try FeaturePrintModelFile.checkHeader(head, size: size, path: path)
            })
        return try FeaturePrintModelFile.decode(bytes, path: path)
    }

    /// Validates model file contents already in memory; `name` identifies them in errors.
    public static func decode(_ bytes: [UInt8], name: String = "(in memory)") throws(FeaturePrintModelError)
        -> FeaturePrintModel
    {
        try FeaturePrintModelFile.decode(bytes, path: name)
    }

    /// The model file contents (format version 1, weights stored as ``weightType``).
    public func encoded() -> [UInt8] { FeaturePrintModelFile.encode(self) }
}
