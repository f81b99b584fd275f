import GlimpseFiles

/// The int8 model file, format version 2 (weight type 2; integers little-endian):
///
/// ```
/// magic 8 "GLMFPRNT", u16 version 2, u16 0, u64 totalLength (checksum included),
/// str network, str provenance, u32 inputSize, f32 inputMean, f32 inputScale, u32 weightType (2),
/// u32 valueCount, u32 embeddingValue, u32 logitsValue (0xFFFFFFFF: none),
/// f32 inputQuantScale, i32 inputZeroPoint, u32 opCount, opCount × op, u32 CRC-32 of every byte before it
///
/// op: the version-1 fields (u8 kind, u8 activation, u8 padding, u8 0, u32 input, u32 input2, u32 output,
///     u32 kernelH, kernelW, strideH, strideW, inChannels, outChannels),
///     f32 outputScale (0: the output is a float value), i32 outputZeroPoint,
///     then for convolution, depthwise, fully connected: i8 × weights (same layouts, symmetric, -127...127),
///     f32 × outChannels weight scales, f32 × outChannels biases
/// ```
///
/// An int8 value holds `(q - zeroPoint) × scale`. Convolutions, depthwise convolutions and adds read and
/// write int8 values; the global average pool reads either and writes a float value; the fully connected
/// layer reads and writes float values (its weights are dequantised). The embedding and logits are float.
extension FeaturePrintModelFile {
    /// The bytes of an int8 model.
    static func encodeInt8(_ model: FeaturePrintModel, _ quantization: QuantizedParameters) -> [UInt8] {
        var out = ByteWriter(capacity: headerLength + model.parameterCount + 16 * model.layerCount + 1024)
        appendHead(model, version: int8FormatVersion, to: &out)
        out.append(quantization.input.scale.bitPattern)
        out.append(quantization.input.zeroPoint)
        out.append(UInt32(model.layerCount))
        for (index, record) in model.records.enumerated() {
            appendFields(record.layer, to: &out)
            let output = quantization.outputs[index]
            out.append((output?.scale ?? 0).bitPattern)
            out.append(output?.zeroPoint ?? 0)
            guard !record.weights.isEmpty else { continue }
            for i in record.weights { out.append(quantization.codes[i]) }
            for i in quantization.channels[index] { out.append(quantization.scales[i].bitPattern) }
            for bias in model.parameters.values(record.bias) { out.append(bias.bitPattern) }
        }
        out.patch(UInt64(out.bytes.count + 4), at: 12)
        out.append(CRC32.checksum(out.bytes))
        return out.bytes
    }

    /// The body of an int8 file: every check of version 1 plus the quantisation rules (scales finite and
    /// positive, zero points in -128...127, int8 layers reading int8 values, float layers float ones, codes
    /// in -127...127, biases that fit the int32 accumulator).
    static func decodeInt8Body(_ raw: UnsafeRawBufferPointer, end: Int) throws(LayerRuleError) -> FeaturePrintModel {
        var reader = ByteReader(raw, offset: headerLength, end: end, failure: LayerRuleError.init(reading:))
        let network = try reader.readString(maxLength: maximumStringLength)
        let provenance = try reader.readString(maxLength: maximumStringLength)
        let size = Int(try reader.read(UInt32.self))
        let input = FeaturePrintInput(size: size, mean: try reader.readFloat(), scale: try reader.readFloat())
        let rawWeightType = try reader.read(UInt32.self)
        guard rawWeightType == FeaturePrintWeightType.int8.rawValue else {
            throw LayerRuleError(reason: "weight type \(rawWeightType) is not 2 (int8), the weight type of format version 2")
        }
        let valueCount = Int(try reader.read(UInt32.self))
        let embedding = Int(try reader.read(UInt32.self))
        let rawLogits = try reader.read(UInt32.self)
        let logits = rawLogits == noValue ? nil : Int(rawLogits)
        let inputQuantization = try readQuantization(&reader, of: "the input")
        guard let inputQuantization else { throw LayerRuleError(reason: "the input has no int8 scale") }
        let layerCount = Int(try reader.read(UInt32.self))
        var builder = try ModelBuilder(input: input, valueCount: valueCount, layerCount: layerCount)
        var valueQuantization = [FeaturePrintQuantization?](repeating: nil, count: valueCount)
        valueQuantization[0] = inputQuantization
        var outputs: [FeaturePrintQuantization?] = [], channels: [Range<Int>] = [], offsets: [Int] = []
        var channelCount = 0
        for index in 0..<layerCount {
            let layer = try readLayerFields(&reader, index: index)
            try builder.add(layer, index: index)
            let output = try readQuantization(&reader, of: "layer \(index)'s output")
            try checkPrecision(layer, index: index, output: output, values: valueQuantization)
            valueQuantization[layer.output] = output
            outputs.append(output)
            offsets.append(reader.offset)
            let weighted = layer.expectedWeightCount > 0
            channels.append(channelCount..<(channelCount + (weighted ? layer.outputChannels : 0)))
            channelCount = channels[index].upperBound
            let byteCount = weighted ? layer.expectedWeightCount + 8 * layer.outputChannels : 0
            guard reader.remaining >= byteCount else {
                throw LayerRuleError(reason: "layer \(index) (\(layer.kind)) needs \(byteCount) bytes of weights, "
                    + "scales and biases but only \(reader.remaining) remain")
            }
            reader.offset += byteCount
        }
        guard reader.remaining == 0 else { throw LayerRuleError(reason: "\(reader.remaining) bytes follow the last layer") }
        try LayerRules.checkOutputs(embedding: embedding, logits: logits, shapes: builder.shapes,
                                    layers: builder.records.map(\.layer))
        for (value, name) in [(embedding, "embedding"), (logits, "logits")] {
            if let value, valueQuantization[value] != nil {
                throw LayerRuleError(reason: "the \(name) (value \(value)) is int8; it must be a float value")
            }
        }
        let records = builder.records
        let codes = try ParameterArena<Int8>(count: builder.parameterCount) { (storage) throws(LayerRuleError) in
            for (index, (record, start)) in zip(records, offsets).enumerated() {
                for (n, i) in record.weights.enumerated() {
                    let code = raw.load(fromByteOffset: start + n, as: Int8.self)
                    guard code != -128 else {
                        throw LayerRuleError(reason: "layer \(index) has weight code -128; weights are symmetric, -127...127")
                    }
                    storage[i] = code
                }
            }
        }
        let scales = try ParameterArena<Float>(count: channelCount) { (storage) throws(LayerRuleError) in
            for (index, (record, start)) in zip(records, offsets).enumerated() {
                for (n, i) in channels[index].enumerated() {
                    let scale = float(raw, at: start + record.weights.count + 4 * n)
                    guard scale.isFinite, scale > 0 else {
                        throw LayerRuleError(reason: "layer \(index) has weight scale \(scale); scales are finite and above 0")
                    }
                    storage[i] = scale
                }
            }
        }
        let parameters = try ParameterArena<Float>(count: builder.parameterCount) { (storage) throws(LayerRuleError) in
            for (index, (record, start)) in zip(records, offsets).enumerated() {
                let perChannel = record.layer.kind == .depthwiseConvolution ? 1 : record.weights.count / max(1, record.bias.count)
                for (n, i) in record.weights.enumerated() {
                    let channel = record.layer.kind == .depthwiseConvolution ? n % record.bias.count : n / perChannel
                    storage[i] = Float(codes[i]) * scales[channels[index].lowerBound + channel]
                }
                for (n, i) in record.bias.enumerated() {
                    let bias = float(raw, at: start + record.weights.count + 4 * (record.bias.count + n))
                    guard bias.isFinite else { throw LayerRuleError(reason: "layer \(index) has bias \(bias)") }
                    storage[i] = bias
                }
            }
        }
        let biases = try ParameterArena<Int32>(count: channelCount) { (storage) throws(LayerRuleError) in
            for (index, record) in records.enumerated() where outputs[index] != nil && !record.bias.isEmpty {
                guard let inputScale = valueQuantization[record.layer.input]?.scale else { continue }
                for (n, i) in channels[index].enumerated() {
                    let step = Double(inputScale) * Double(scales[i])
                    let code = (Double(parameters[record.bias.lowerBound + n]) / step).rounded()
                    guard abs(code) < Double(Int32.max) else {
                        throw LayerRuleError(reason: "layer \(index)'s bias \(n) is \(code) accumulator steps, "
                            + "beyond the int32 range")
                    }
                    storage[i] = Int32(code)
                }
            }
        }
        let quantization = QuantizedParameters(input: inputQuantization, outputs: outputs, codes: codes,
                                               channels: channels, scales: scales, biases: biases)
        return FeaturePrintModel(network: network, provenance: provenance, input: input, weightType: .int8,
                                 valueCount: valueCount, embeddingValue: embedding, logitsValue: logits,
                                 records: records, shapes: builder.shapes, parameters: parameters,
                                 quantization: quantization)
    }

    /// Reads a scale and zero point; a zero scale (with zero point 0) is a float value (`nil`).
    private static func readQuantization(
        _ reader: inout ByteReader<LayerRuleError>, of what: String
    ) throws(LayerRuleError) -> FeaturePrintQuantization? {
        let scale = try reader.readFloat()
        let zeroPoint = Int32(bitPattern: try reader.read(UInt32.self))
        if scale == 0 && zeroPoint == 0 { return nil }
        guard scale.isFinite, scale > 0, (-128...127).contains(zeroPoint) else {
            throw LayerRuleError(reason: "\(what) has int8 scale \(scale) and zero point \(zeroPoint); the scale must "
                + "be finite and above 0 (or 0 for a float value) and the zero point in -128...127")
        }
        return FeaturePrintQuantization(scale: scale, zeroPoint: zeroPoint)
    }

    /// Convolutions, depthwise convolutions and adds read and write int8 values; pools write float values
    /// from either; fully connected layers read and write float values.
    private static func checkPrecision(
        _ layer: FeaturePrintLayer, index: Int, output: FeaturePrintQuantization?, values: [FeaturePrintQuantization?]
    ) throws(LayerRuleError) {
        let inputs = [layer.input] + (layer.secondInput.map { [$0] } ?? [])
        let name = "layer \(index) (\(layer.kind))"
        switch layer.kind {
        case .convolution, .depthwiseConvolution, .add:
            guard output != nil, inputs.allSatisfy({ values[$0] != nil }) else {
                throw LayerRuleError(reason: "\(name) must read and write int8 values")
            }
        case .globalAveragePool:
            guard output == nil else { throw LayerRuleError(reason: "\(name) must write a float value") }
        case .fullyConnected:
            guard output == nil, values[layer.input] == nil else {
                throw LayerRuleError(reason: "\(name) must read and write float values")
            }
        }
    }

    private static func float(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Float {
        Float(bitPattern: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
    }
}
