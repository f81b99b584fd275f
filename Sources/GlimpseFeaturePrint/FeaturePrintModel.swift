/// How a model wants its input: a square RGB image of ``size`` pixels, each channel value `x`
/// (0...255) fed as `(x - mean) × scale`.
public struct FeaturePrintInput: Sendable, Equatable {
    /// The side of the square input image in pixels (224 for EfficientNet-Lite0).
    public var size: Int
    /// Subtracted from every channel value (127 for EfficientNet-Lite0).
    public var mean: Float
    /// Multiplies every channel value after the mean is subtracted (1/128 for EfficientNet-Lite0).
    public var scale: Float

    /// Input settings with every field given.
    public init(size: Int, mean: Float, scale: Float) {
        self.size = size
        self.mean = mean
        self.scale = scale
    }
}

/// How a model file stores its weights (biases are always 32-bit floats).
public enum FeaturePrintWeightType: UInt32, Sendable, CaseIterable {
    /// IEEE-754 single precision.
    case float32 = 0
    /// IEEE-754 half precision, widened to `Float` when the file is loaded.
    case float16 = 1
    /// Signed 8-bit integers, symmetric per output channel, with calibrated 8-bit activations
    /// (format version 2): the network runs on XNNPACK's int8 operators.
    case int8 = 2
}

/// The arithmetic a feature-print network runs in. Prints of different precisions are never compared:
/// the precision is part of ``FeaturePrinterPool``'s print identity.
public enum FeaturePrintPrecision: String, Sendable, CaseIterable, CustomStringConvertible {
    /// 32-bit floats (weights stored as f16 or f32): `Models/featureprint.glimpsemodel`.
    case fp32
    /// Signed 8-bit integers: `Models/featureprint-int8.glimpsemodel`.
    case int8

    /// The precision's name, `fp32` or `int8`.
    public var description: String { rawValue }
}

/// How an int8 tensor maps to real numbers: `real = (q - zeroPoint) × scale`.
public struct FeaturePrintQuantization: Sendable, Equatable {
    /// The real step between neighbouring codes (finite, above zero).
    public var scale: Float
    /// The code of real zero (-128...127).
    public var zeroPoint: Int32

    /// A quantisation with both fields given.
    public init(scale: Float, zeroPoint: Int32) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }

    /// The nearest code of `value` (clamped to -128...127).
    public func quantize(_ value: Float) -> Int8 {
        let code = (value / scale).rounded() + Float(zeroPoint)
        return Int8(max(-128, min(127, code)))
    }

    /// The real value of `code`.
    public func dequantize(_ code: Int8) -> Float { Float(Int32(code) - zeroPoint) * scale }
}

/// The int8 side of a quantised model: the input's and every layer output's quantisation, the
/// weights' codes (indexed like the float parameters) and, per layer, its weight scales and its
/// biases rounded to the int32 accumulator grid (input scale × weight scale).
final class QuantizedParameters: Sendable {
    /// How the network's input is quantised.
    let input: FeaturePrintQuantization
    /// Per layer: its output's quantisation, `nil` for a float output (pool, fully connected).
    let outputs: [FeaturePrintQuantization?]
    /// The weight codes, at the same offsets as the float weights.
    let codes: ParameterArena<Int8>
    /// Per layer: where its weight scales and int32 biases are in ``scales`` and ``biases``.
    let channels: [Range<Int>]
    /// Every weighted layer's per-output-channel weight scales.
    let scales: ParameterArena<Float>
    /// Every weighted layer's biases in accumulator units.
    let biases: ParameterArena<Int32>

    init(input: FeaturePrintQuantization, outputs: [FeaturePrintQuantization?], codes: ParameterArena<Int8>,
         channels: [Range<Int>], scales: ParameterArena<Float>, biases: ParameterArena<Int32>) {
        self.input = input
        self.outputs = outputs
        self.codes = codes
        self.channels = channels
        self.scales = scales
        self.biases = biases
    }
}

/// A feature-print network: its layers with their weights (as 32-bit floats) and how it wants its
/// input. Immutable; load it once and share it between any number of ``FeaturePrinter``s.
///
/// Glimpse's model is EfficientNet-Lite0 with ImageNet weights (`Models/featureprint.glimpsemodel`);
/// its feature print is the 1280-wide pooled vector before the classifier, L2-normalised.
public final class FeaturePrintModel: Sendable {
    /// The network's name, such as `efficientnet-lite0`.
    public let network: String
    /// Where the weights came from and how they were converted (free text).
    public let provenance: String
    /// The input image size and normalisation.
    public let input: FeaturePrintInput
    /// How the weights are stored in the file (in memory they are always `Float`).
    public let weightType: FeaturePrintWeightType
    /// The number of value ids; value 0 is the input image.
    public let valueCount: Int
    /// The value that is the embedding (the pooled vector).
    public let embeddingValue: Int
    /// The value that is the classifier's logits, if the model has them.
    public let logitsValue: Int?

    /// The arithmetic the network runs in: ``FeaturePrintPrecision/int8`` for an int8 file.
    public var precision: FeaturePrintPrecision { weightType == .int8 ? .int8 : .fp32 }
    /// How the input is quantised (`nil` for an fp32 model).
    public var inputQuantization: FeaturePrintQuantization? { quantization?.input }

    /// The layers' fields with empty weight arrays; the weights are in `parameters`.
    let records: [LayerRecord]
    /// The shape of every value (`nil` for ids no layer writes).
    let shapes: [ValueShape?]
    /// Every weight and bias, in layer order (an int8 model's weights dequantised: code × scale).
    let parameters: ParameterArena<Float>
    /// The int8 codes, scales and quantisations of an int8 model; `nil` for fp32.
    let quantization: QuantizedParameters?

    /// The width of the embedding (1280 for EfficientNet-Lite0).
    public var embeddingDimension: Int { shapes[embeddingValue]?.channels ?? 0 }
    /// The number of logits (1000 ImageNet classes for EfficientNet-Lite0), 0 when there are none.
    public var logitCount: Int { logitsValue.flatMap { shapes[$0]?.channels } ?? 0 }
    /// The number of layers.
    public var layerCount: Int { records.count }
    /// The number of weights and biases.
    public var parameterCount: Int { parameters.count }

    /// The layers with their weights (copied out of the model's storage).
    public var layers: [FeaturePrintLayer] {
        records.map { record in
            var layer = record.layer
            layer.weights = parameters.values(record.weights)
            layer.bias = parameters.values(record.bias)
            return layer
        }
    }

    /// A model from its parts, checked as a model file is: ids defined before use, channels and
    /// shapes consistent, weight and bias counts matching each layer. With `weightType` `.float16`
    /// the weights are rounded to half precision, so the model equals what its file decodes to.
    ///
    /// - Throws: ``FeaturePrintModelError/invalidModel(reason:)`` saying which part is wrong, or
    ///   that an int8 model has to be loaded from its file (its calibration is made by the conversion script).
    public convenience init(
        network: String, provenance: String, input: FeaturePrintInput, weightType: FeaturePrintWeightType,
        valueCount: Int, embeddingValue: Int, logitsValue: Int?, layers: [FeaturePrintLayer]
    ) throws(FeaturePrintModelError) {
        guard weightType != .int8 else {
            throw .invalidModel(reason: "an int8 model carries calibrated activation ranges: load it from a file "
                + "written by scripts/featureprint/quantize.py")
        }
        var builder: ModelBuilder
        do throws(LayerRuleError) {
            builder = try ModelBuilder(input: input, valueCount: valueCount, layerCount: layers.count)
            for (index, layer) in layers.enumerated() {
                try builder.add(layer, index: index)
                guard layer.weights.count == layer.expectedWeightCount, layer.bias.count == layer.expectedBiasCount else {
                    throw LayerRuleError(reason: "layer \(index) (\(layer.kind)) has \(layer.weights.count) weights and "
                        + "\(layer.bias.count) biases, but its sizes call for \(layer.expectedWeightCount) and "
                        + "\(layer.expectedBiasCount)")
                }
            }
            try LayerRules.checkOutputs(embedding: embeddingValue, logits: logitsValue, shapes: builder.shapes,
                                        layers: layers)
        } catch {
            throw .invalidModel(reason: error.reason)
        }
        let arena = ParameterArena<Float>(count: builder.parameterCount) { storage in
            for (layer, record) in zip(layers, builder.records) {
                for (i, w) in layer.weights.enumerated() {
                    storage[record.weights.lowerBound + i] = weightType == .float16 ? Half.rounded(w) : w
                }
                for (i, b) in layer.bias.enumerated() { storage[record.bias.lowerBound + i] = b }
            }
        }
        self.init(network: network, provenance: provenance, input: input, weightType: weightType,
                  valueCount: valueCount, embeddingValue: embeddingValue, logitsValue: logitsValue,
                  records: builder.records, shapes: builder.shapes, parameters: arena, quantization: nil)
    }

    /// A model from checked parts.
    init(network: String, provenance: String, input: FeaturePrintInput, weightType: FeaturePrintWeightType,
         valueCount: Int, embeddingValue: Int, logitsValue: Int?, records: [LayerRecord], shapes: [ValueShape?],
         parameters: ParameterArena<Float>, quantization: QuantizedParameters?) {
        self.network = network
        self.provenance = provenance
        self.input = input
        self.weightType = weightType
        self.valueCount = valueCount
        self.embeddingValue = embeddingValue
        self.logitsValue = logitsValue
        self.records = records
        self.shapes = shapes
        self.parameters = parameters
        self.quantization = quantization
    }
}

/// A layer's fields (weights left empty) and where its weights and biases are in the arena.
struct LayerRecord: Sendable {
    var layer: FeaturePrintLayer
    var weights: Range<Int>
    var bias: Range<Int>
}

/// Checks layers one by one and lays out their parameters; shared by the initializer and the
/// file decoder.
struct ModelBuilder {
    private(set) var shapes: [ValueShape?]
    private(set) var records: [LayerRecord] = []
    private(set) var parameterCount = 0
    static let maximumParameters = 1 << 28

    init(input: FeaturePrintInput, valueCount: Int, layerCount: Int) throws(LayerRuleError) {
        guard (1...LayerRules.maximumInputSize).contains(input.size) else {
            throw LayerRuleError(reason: "input size \(input.size) is outside 1...\(LayerRules.maximumInputSize)")
        }
        guard input.mean.isFinite, input.scale.isFinite, input.scale != 0 else {
            throw LayerRuleError(reason: "input mean \(input.mean) and scale \(input.scale) must be finite, "
                + "the scale not zero")
        }
        guard (2...LayerRules.maximumValues).contains(valueCount) else {
            throw LayerRuleError(reason: "\(valueCount) values is outside 2...\(LayerRules.maximumValues)")
        }
        guard (1...LayerRules.maximumLayers).contains(layerCount) else {
            throw LayerRuleError(reason: "\(layerCount) layers is outside 1...\(LayerRules.maximumLayers)")
        }
        shapes = Array(repeating: nil, count: valueCount)
        shapes[0] = ValueShape(height: input.size, width: input.size, channels: 3)
        records.reserveCapacity(layerCount)
    }

    /// Checks `layer`'s fields (not its weight arrays) and reserves room for its parameters.
    mutating func add(_ layer: FeaturePrintLayer, index: Int) throws(LayerRuleError) {
        try LayerRules.check(layer, index: index, shapes: &shapes)
        let weightCount = layer.expectedWeightCount, biasCount = layer.expectedBiasCount
        guard parameterCount + weightCount + biasCount <= Self.maximumParameters else {
            throw LayerRuleError(reason: "layer \(index) takes the parameters past \(Self.maximumParameters)")
        }
        var fields = layer
        fields.weights = []
        fields.bias = []
        let weights = parameterCount..<(parameterCount + weightCount)
        let bias = weights.upperBound..<(weights.upperBound + biasCount)
        parameterCount = bias.upperBound
        records.append(LayerRecord(layer: fields, weights: weights, bias: bias))
    }
}
