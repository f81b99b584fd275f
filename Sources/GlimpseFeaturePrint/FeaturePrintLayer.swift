/// One layer of a feature-print network, as the model file stores it.
///
/// Tensors are `1 × height × width × channels` (NHWC); values are numbered, value 0 is the input
/// image, and every layer writes one new value. Weight layouts: convolution
/// `outputChannels × kernelHeight × kernelWidth × inputChannels`, depthwise
/// `kernelHeight × kernelWidth × channels`, fully connected `outputChannels × inputChannels`; add
/// and pool have no weights. Convolutions and fully connected layers have `outputChannels` biases.
public struct FeaturePrintLayer: Sendable, Equatable {
    /// What a layer computes.
    public enum Kind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        /// A 2-D convolution over all input channels.
        case convolution = 1
        /// A 2-D convolution of each channel with its own kernel.
        case depthwiseConvolution = 2
        /// The element-wise sum of two values of the same shape (a residual connection).
        case add = 3
        /// The mean over height and width, giving `1 × 1 × channels`.
        case globalAveragePool = 4
        /// A matrix product of a `1 × 1 × inputChannels` value with the weights.
        case fullyConnected = 5

        /// The kind's name, for messages.
        public var description: String {
            switch self {
            case .convolution: "convolution"
            case .depthwiseConvolution: "depthwise convolution"
            case .add: "add"
            case .globalAveragePool: "global average pool"
            case .fullyConnected: "fully connected"
            }
        }
    }

    /// The function applied to a layer's output.
    public enum Activation: UInt8, Sendable, CaseIterable {
        /// The output as computed.
        case none = 0
        /// The output clamped to `0...6`.
        case relu6 = 1
    }

    /// How a convolution pads its input.
    public enum Padding: UInt8, Sendable, CaseIterable {
        /// No padding (1×1 kernels, add, pool and fully connected layers).
        case none = 0
        /// TensorFlow "SAME": output size `ceil(input / stride)`; total padding
        /// `max((ceil(input / stride) - 1) × stride + kernel - input, 0)`, the smaller half before
        /// (asymmetric at stride 2).
        case tensorFlowSame = 1
    }

    /// What the layer computes.
    public var kind: Kind
    /// The function applied to the output.
    public var activation: Activation
    /// How the input is padded.
    public var padding: Padding
    /// The value the layer reads.
    public var input: Int
    /// The second value an add reads; `nil` for every other kind.
    public var secondInput: Int?
    /// The value the layer writes (a new id, never reused).
    public var output: Int
    /// The kernel height (1 for add, pool and fully connected).
    public var kernelHeight: Int
    /// The kernel width (1 for add, pool and fully connected).
    public var kernelWidth: Int
    /// The vertical stride (1 for add, pool and fully connected).
    public var strideHeight: Int
    /// The horizontal stride (1 for add, pool and fully connected).
    public var strideWidth: Int
    /// The channels the layer reads.
    public var inputChannels: Int
    /// The channels the layer writes (equal to ``inputChannels`` for depthwise, add and pool).
    public var outputChannels: Int
    /// The weights in the kind's layout; empty for add and pool.
    public var weights: [Float]
    /// One bias per output channel; empty for add and pool.
    public var bias: [Float]

    /// A layer with every field given; ``FeaturePrintModel`` checks that they fit together.
    public init(
        kind: Kind, activation: Activation, padding: Padding, input: Int, secondInput: Int?, output: Int,
        kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int,
        inputChannels: Int, outputChannels: Int, weights: [Float], bias: [Float]
    ) {
        self.kind = kind
        self.activation = activation
        self.padding = padding
        self.input = input
        self.secondInput = secondInput
        self.output = output
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
        self.weights = weights
        self.bias = bias
    }

    /// A square convolution with TensorFlow "SAME" padding; weights `output × k × k × input`.
    public static func convolution(
        input: Int, output: Int, kernel: Int, stride: Int, inputChannels: Int, outputChannels: Int,
        activation: Activation, weights: [Float], bias: [Float]
    ) -> FeaturePrintLayer {
        FeaturePrintLayer(kind: .convolution, activation: activation, padding: .tensorFlowSame, input: input,
                          secondInput: nil, output: output, kernelHeight: kernel, kernelWidth: kernel,
                          strideHeight: stride, strideWidth: stride, inputChannels: inputChannels,
                          outputChannels: outputChannels, weights: weights, bias: bias)
    }

    /// A square depthwise convolution with TensorFlow "SAME" padding; weights `k × k × channels`.
    public static func depthwiseConvolution(
        input: Int, output: Int, kernel: Int, stride: Int, channels: Int, activation: Activation,
        weights: [Float], bias: [Float]
    ) -> FeaturePrintLayer {
        FeaturePrintLayer(kind: .depthwiseConvolution, activation: activation, padding: .tensorFlowSame,
                          input: input, secondInput: nil, output: output, kernelHeight: kernel, kernelWidth: kernel,
                          strideHeight: stride, strideWidth: stride, inputChannels: channels,
                          outputChannels: channels, weights: weights, bias: bias)
    }

    /// The element-wise sum of two values with `channels` channels.
    public static func add(_ first: Int, _ second: Int, output: Int, channels: Int) -> FeaturePrintLayer {
        FeaturePrintLayer(kind: .add, activation: .none, padding: .none, input: first, secondInput: second,
                          output: output, kernelHeight: 1, kernelWidth: 1, strideHeight: 1, strideWidth: 1,
                          inputChannels: channels, outputChannels: channels, weights: [], bias: [])
    }

    /// The mean over height and width of a value with `channels` channels.
    public static func globalAveragePool(input: Int, output: Int, channels: Int) -> FeaturePrintLayer {
        FeaturePrintLayer(kind: .globalAveragePool, activation: .none, padding: .none, input: input, secondInput: nil,
                          output: output, kernelHeight: 1, kernelWidth: 1, strideHeight: 1, strideWidth: 1,
                          inputChannels: channels, outputChannels: channels, weights: [], bias: [])
    }

    /// A fully connected layer; weights `outputChannels × inputChannels`.
    public static func fullyConnected(
        input: Int, output: Int, inputChannels: Int, outputChannels: Int, activation: Activation = .none,
        weights: [Float], bias: [Float]
    ) -> FeaturePrintLayer {
        FeaturePrintLayer(kind: .fullyConnected, activation: activation, padding: .none, input: input,
                          secondInput: nil, output: output, kernelHeight: 1, kernelWidth: 1, strideHeight: 1,
                          strideWidth: 1, inputChannels: inputChannels, outputChannels: outputChannels,
                          weights: weights, bias: bias)
    }

    /// How many weights the layer's kind and sizes call for.
    var expectedWeightCount: Int {
        switch kind {
        case .convolution: outputChannels * kernelHeight * kernelWidth * inputChannels
        case .depthwiseConvolution: kernelHeight * kernelWidth * outputChannels
        case .fullyConnected: outputChannels * inputChannels
        case .add, .globalAveragePool: 0
        }
    }

    /// How many biases the layer's kind and sizes call for.
    var expectedBiasCount: Int {
        switch kind {
        case .convolution, .depthwiseConvolution, .fullyConnected: outputChannels
        case .add, .globalAveragePool: 0
        }
    }
}

/// The height, width and channels of one value.
struct ValueShape: Sendable, Equatable, CustomStringConvertible {
    var height: Int
    var width: Int
    var channels: Int

    var elementCount: Int { height * width * channels }
    var description: String { "\(height)×\(width)×\(channels)" }
}

/// The checks every layer passes, shared by the model initializer and the file decoder: kinds,
/// sizes and ids in range, inputs defined before use, channels and shapes consistent.
enum LayerRules {
    static let maximumKernel = 15
    static let maximumStride = 8
    static let maximumChannels = 1 << 16
    static let maximumValues = 1 << 16
    static let maximumLayers = 1 << 16
    static let maximumInputSize = 4096
    static let maximumElements = 1 << 28

    /// Checks `layer` (its metadata; weights are not looked at) against the shapes defined so far,
    /// then records the shape of its output. Throws a reason.
    static func check(_ layer: FeaturePrintLayer, index: Int, shapes: inout [ValueShape?]) throws(LayerRuleError) {
        let name = "layer \(index) (\(layer.kind))"
        func fail(_ reason: String) -> LayerRuleError { LayerRuleError(reason: "\(name) " + reason) }
        func shape(of value: Int) throws(LayerRuleError) -> ValueShape {
            guard value >= 0, value < shapes.count else {
                throw fail("reads value \(value) outside the \(shapes.count) values")
            }
            guard let shape = shapes[value] else { throw fail("reads value \(value) before any layer writes it") }
            return shape
        }
        guard layer.output > 0, layer.output < shapes.count else {
            throw fail("writes value \(layer.output), outside 1..<\(shapes.count)")
        }
        guard shapes[layer.output] == nil else { throw fail("writes value \(layer.output) a second time") }
        guard (1...maximumChannels).contains(layer.inputChannels), (1...maximumChannels).contains(layer.outputChannels)
        else {
            throw fail("has \(layer.inputChannels) input and \(layer.outputChannels) output channels, "
                + "outside 1...\(maximumChannels)")
        }
        let input = try shape(of: layer.input)
        guard layer.inputChannels == input.channels else {
            throw fail("takes \(layer.inputChannels) channels but value \(layer.input) has \(input.channels)")
        }
        if layer.kind == .add {
            guard let second = layer.secondInput else { throw fail("has no second input") }
            let other = try shape(of: second)
            guard other == input else {
                throw fail("adds values of shapes \(input) and \(other)")
            }
        } else if layer.secondInput != nil {
            throw fail("has a second input, which only add layers have")
        }
        let output: ValueShape
        switch layer.kind {
        case .convolution, .depthwiseConvolution:
            guard (1...maximumKernel).contains(layer.kernelHeight), (1...maximumKernel).contains(layer.kernelWidth),
                  (1...maximumStride).contains(layer.strideHeight), (1...maximumStride).contains(layer.strideWidth)
            else {
                throw fail("has kernel \(layer.kernelHeight)×\(layer.kernelWidth) and stride "
                    + "\(layer.strideHeight)×\(layer.strideWidth), outside 1...\(maximumKernel) and 1...\(maximumStride)")
            }
            if layer.kind == .depthwiseConvolution, layer.outputChannels != layer.inputChannels {
                throw fail("has \(layer.inputChannels) input but \(layer.outputChannels) output channels")
            }
            if layer.padding == .none, layer.kernelHeight != 1 || layer.kernelWidth != 1 {
                throw fail("has a \(layer.kernelHeight)×\(layer.kernelWidth) kernel without padding; "
                    + "the format pads every kernel larger than 1×1 (TensorFlow SAME)")
            }
            output = ValueShape(height: (input.height + layer.strideHeight - 1) / layer.strideHeight,
                                width: (input.width + layer.strideWidth - 1) / layer.strideWidth,
                                channels: layer.outputChannels)
        case .add, .globalAveragePool, .fullyConnected:
            guard layer.kernelHeight == 1, layer.kernelWidth == 1, layer.strideHeight == 1, layer.strideWidth == 1 else {
                throw fail("has kernel \(layer.kernelHeight)×\(layer.kernelWidth) and stride "
                    + "\(layer.strideHeight)×\(layer.strideWidth), but this kind takes 1×1 and 1")
            }
            guard layer.padding == .none else { throw fail("has padding, which this kind does not take") }
            if layer.kind == .fullyConnected {
                guard input.height == 1, input.width == 1 else {
                    throw fail("reads value \(layer.input) of shape \(input), but fully connected layers take 1×1×C")
                }
                output = ValueShape(height: 1, width: 1, channels: layer.outputChannels)
            } else {
                guard layer.outputChannels == layer.inputChannels else {
                    throw fail("has \(layer.inputChannels) input but \(layer.outputChannels) output channels")
                }
                output = layer.kind == .add ? input : ValueShape(height: 1, width: 1, channels: layer.outputChannels)
            }
        }
        guard output.elementCount <= maximumElements else { throw fail("writes a value of shape \(output), too large") }
        shapes[layer.output] = output
    }

    /// Checks the network's ends once every layer has been checked: the embedding and the logits
    /// are written by layers and are `1 × 1 × C` vectors, and every other value (the input image
    /// included) is read by some layer. A value nothing reads is a dead end that XNNPACK cannot set up
    /// (it leaves such a value without memory and then asserts), and says the file is not a network.
    static func checkOutputs(
        embedding: Int, logits: Int?, shapes: [ValueShape?], layers: [FeaturePrintLayer]
    ) throws(LayerRuleError) {
        var read = [Bool](repeating: false, count: shapes.count)
        for layer in layers {
            read[layer.input] = true
            if let second = layer.secondInput { read[second] = true }
        }
        for (value, shape) in shapes.enumerated() where shape != nil && !read[value] {
            guard value == embedding || value == logits else {
                throw LayerRuleError(reason: "value \(value) is written but no layer reads it, and it is neither the "
                    + "embedding nor the logits")
            }
        }
        func vector(_ value: Int, _ name: String) throws(LayerRuleError) {
            guard value > 0, value < shapes.count, let shape = shapes[value] else {
                throw LayerRuleError(reason: "the \(name) value \(value) is not written by any layer")
            }
            guard shape.height == 1, shape.width == 1 else {
                throw LayerRuleError(reason: "the \(name) value \(value) has shape \(shape), not 1×1×C")
            }
        }
        try vector(embedding, "embedding")
        if let logits {
            try vector(logits, "logits")
            guard logits != embedding else {
                throw LayerRuleError(reason: "the logits and the embedding are the same value \(logits)")
            }
        }
    }
}

/// A reason a layer list is not a valid network.
struct LayerRuleError: Error {
    let reason: String
}
