import CGlimpseFeaturePrint

/// One XNNPACK runtime for a model, with its input and output buffers: the only Swift that calls
/// the C engine or touches its pointers.
///
/// Everything is allocated in `init`; ``run()`` allocates nothing. Not copyable: exactly one owner
/// destroys the runtime. The model is held so the weights XNNPACK reads outlive the runtime.
struct XNNPACKNetwork: ~Copyable {
    private let handle: OpaquePointer
    private let model: FeaturePrintModel
    /// Floats in the input buffer (`size × size × 3`).
    let inputCount: Int
    /// Floats in the embedding.
    let embeddingCount: Int
    /// Floats in the logits (0 when the model has none).
    let logitCount: Int
    /// For an int8 input, the code of every channel byte 0...255 (`(x - mean) × scale` quantised); empty
    /// for a float input.
    let inputCodes: [Int8]

    /// Builds the runtime for `model` (which has passed every file check); `int8Engine` says which code
    /// runs an int8 model.
    init(model: FeaturePrintModel, int8Engine: Int8Engine = .automatic) throws(FeaturePrintError) {
        let arena = model.parameters
        let quantization = model.quantization
        let layers: [gfp_layer] = model.records.enumerated().map { index, record in
            let layer = record.layer
            let output = quantization?.outputs[index]
            let int8Weights = output != nil && !record.weights.isEmpty
            // The classifier reads and writes f32 but has int8 weights too, for the VNNI engine.
            let codes = quantization != nil && !record.weights.isEmpty
            let channels = quantization?.channels[index].lowerBound ?? 0
            return gfp_layer(
                kind: UInt32(layer.kind.rawValue), relu6: layer.activation == .relu6 ? 1 : 0,
                same_padding: layer.padding == .tensorFlowSame ? 1 : 0, input: UInt32(layer.input),
                input2: layer.secondInput.map { UInt32($0) } ?? UInt32.max, output: UInt32(layer.output),
                kernel_height: UInt32(layer.kernelHeight), kernel_width: UInt32(layer.kernelWidth),
                stride_height: UInt32(layer.strideHeight), stride_width: UInt32(layer.strideWidth),
                input_channels: UInt32(layer.inputChannels), output_channels: UInt32(layer.outputChannels),
                weights: record.weights.isEmpty || int8Weights ? nil : arena.address(of: record.weights.lowerBound),
                bias: record.bias.isEmpty || int8Weights ? nil : arena.address(of: record.bias.lowerBound),
                quantized_weights: codes ? quantization?.codes.address(of: record.weights.lowerBound) : nil,
                weight_scales: codes ? quantization?.scales.address(of: channels) : nil,
                quantized_bias: int8Weights ? quantization?.biases.address(of: channels) : nil,
                output_scale: output?.scale ?? 0, output_zero_point: output?.zeroPoint ?? 0)
        }
        let shapes: [gfp_shape] = model.shapes.map { shape in
            gfp_shape(height: UInt32(shape?.height ?? 0), width: UInt32(shape?.width ?? 0),
                      channels: UInt32(shape?.channels ?? 0))
        }
        var created: OpaquePointer?
        var message = [CChar](repeating: 0, count: 512)
        let status = layers.withUnsafeBufferPointer { layerBuffer in
            shapes.withUnsafeBufferPointer { shapeBuffer in
                var description = gfp_network_description(
                    layers: layerBuffer.baseAddress, layer_count: UInt32(layerBuffer.count),
                    shapes: shapeBuffer.baseAddress, value_count: UInt32(shapeBuffer.count),
                    embedding_value: UInt32(model.embeddingValue),
                    logits_value: model.logitsValue.map { UInt32($0) } ?? UInt32.max,
                    input_scale: quantization?.input.scale ?? 0, input_zero_point: quantization?.input.zeroPoint ?? 0,
                    int8_engine: int8Engine.cValue.rawValue)
                return message.withUnsafeMutableBufferPointer { text in
                    gfp_network_create(&description, &created, text.baseAddress, text.count)
                }
            }
        }
        guard status == GFP_OK, let created else {
            let reason = message.withUnsafeBufferPointer { text in
                String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            throw .engineUnavailable(reason: reason.isEmpty ? "XNNPACK status \(status.rawValue)" : reason)
        }
        handle = created
        self.model = model
        inputCount = model.input.size * model.input.size * 3
        embeddingCount = model.embeddingDimension
        logitCount = model.logitCount
        let input = model.input
        inputCodes = quantization.map { q in
            (0...255).map { byte in q.input.quantize((Float(byte) - input.mean) * input.scale) }
        } ?? []
    }

    deinit { gfp_network_destroy(handle) }

    /// Hands `body` the float input buffer (`size × size × 3`, NHWC) to fill before ``run()``; the buffer
    /// is empty when the input is int8.
    func writeInput<R>(_ body: (UnsafeMutableBufferPointer<Float>) -> R) -> R {
        let input = gfp_network_input(handle)
        return body(UnsafeMutableBufferPointer(start: input, count: input == nil ? 0 : inputCount))
    }

    /// Hands `body` the int8 input buffer (`size × size × 3`, NHWC) to fill before ``run()``; the buffer
    /// is empty when the input is float.
    func writeQuantizedInput<R>(_ body: (UnsafeMutableBufferPointer<Int8>) -> R) -> R {
        let input = gfp_network_quantized_input(handle)
        return body(UnsafeMutableBufferPointer(start: input, count: input == nil ? 0 : inputCount))
    }

    /// Runs the network on the calling thread over the current input.
    func run() throws(FeaturePrintError) {
        let status = gfp_network_run(handle)
        guard status == GFP_OK else { throw .runFailed(reason: "XNNPACK status \(status.rawValue)") }
    }

    /// Hands `body` the embedding and the logits (empty when the model has none) of the last run.
    func readOutputs<R>(_ body: (_ embedding: UnsafeBufferPointer<Float>, _ logits: UnsafeBufferPointer<Float>) -> R)
        -> R
    {
        let embedding = UnsafeBufferPointer(start: gfp_network_embedding(handle), count: embeddingCount)
        let logits = UnsafeBufferPointer(start: gfp_network_logits(handle), count: logitCount)
        return body(embedding, logits)
    }
}
