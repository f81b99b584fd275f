import CGlimpseFeaturePrint

/// One int8 depthwise convolution run both on the layer-by-layer engine's AVX-512 VNNI kernel and on
/// XNNPACK's qs8 operator, so tests can hold the kernel to XNNPACK's bytes: the only Swift that calls
/// `gfp_depthwise_compare`.
struct Int8DepthwiseComparison: Sendable {
    /// The input's height, width and channels (NHWC), the square kernel's side and the stride.
    var height: Int, width: Int, channels: Int, kernel: Int, stride: Int
    /// TensorFlow SAME padding, else none.
    var samePadding: Bool
    var inputScale: Float, outputScale: Float
    var inputZeroPoint: Int8, outputZeroPoint: Int8
    /// The output clamp (ReLU6's codes, or −128...127).
    var outputMin: Int8, outputMax: Int8

    /// Output rows and columns.
    var outputHeight: Int { samePadding ? (height + stride - 1) / stride : (height - kernel) / stride + 1 }
    var outputWidth: Int { samePadding ? (width + stride - 1) / stride : (width - kernel) / stride + 1 }

    /// Both outputs (output height × width × channels each), or nil when the processor has no VNNI kernel.
    /// `weights` are kernel × kernel × channels; `bias` and `weightScales` one per channel.
    func run(input: [Int8], weights: [Int8], bias: [Int32], weightScales: [Float])
        throws(FeaturePrintError) -> (vnni: [Int8], xnnpack: [Int8])? {
        guard input.count == height * width * channels, weights.count == kernel * kernel * channels,
              bias.count == channels, weightScales.count == channels, outputHeight > 0, outputWidth > 0 else {
            throw .runFailed(reason: "the depthwise comparison's arrays do not match its shape")
        }
        let count = outputHeight * outputWidth * channels
        var vnni = [Int8](repeating: 0, count: count), xnnpack = [Int8](repeating: 0, count: count)
        var shape = gfp_depthwise_case(
            height: UInt32(height), width: UInt32(width), channels: UInt32(channels), kernel: UInt32(kernel),
            stride: UInt32(stride), same_padding: samePadding ? 1 : 0, input_scale: inputScale,
            output_scale: outputScale, input_zero_point: Int32(inputZeroPoint),
            output_zero_point: Int32(outputZeroPoint), output_min: Int32(outputMin), output_max: Int32(outputMax))
        let status = vnni.withUnsafeMutableBufferPointer { fast in
            xnnpack.withUnsafeMutableBufferPointer { reference in
                gfp_depthwise_compare(&shape, input, weights, bias, weightScales, count, fast.baseAddress,
                                      reference.baseAddress)
            }
        }
        switch status {
        case GFP_OK: return (vnni, xnnpack)
        case GFP_UNSUPPORTED_HARDWARE: return nil
        default: throw .runFailed(reason: "the depthwise comparison failed with status \(status.rawValue)")
        }
    }
}
