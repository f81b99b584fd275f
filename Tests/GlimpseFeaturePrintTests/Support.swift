import Foundation
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseTestSupport

/// Paths and builders shared by the feature-print tests.
enum Support {
    /// The repository root.
    static var root: String { Repository.root }

    static var committedModelPath: String { root + "/" + FeaturePrintModel.conventionalPath }
    static var fixtures: String { root + "/Tests/GlimpseFeaturePrintTests/Fixtures" }

    /// The committed EfficientNet-Lite0 model, loaded once.
    static let committedModel: Result<FeaturePrintModel, FeaturePrintModelError> = {
        do throws(FeaturePrintModelError) {
            return .success(try FeaturePrintModel.load(from: committedModelPath))
        } catch {
            return .failure(error)
        }
    }()

    /// Deterministic pseudo-random numbers in -1...1 (a 64-bit LCG).
    struct Numbers {
        var state: UInt64

        mutating func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }

        mutating func array(_ count: Int, scale: Float) -> [Float] { (0..<count).map { _ in next() * scale } }
    }

    /// A small network with every layer kind and both paddings: a 3×3 stride-2 stem, an MBConv block
    /// with a 5×5 stride-2 depthwise, one with a 3×3 stride-1 depthwise and a residual add, a 1×1
    /// head, pooling and a classifier. `inputSize` odd or even exercises both SAME paddings.
    static func smallModel(inputSize: Int, weightType: FeaturePrintWeightType = .float32, seed: UInt64 = 1)
        throws(FeaturePrintModelError) -> FeaturePrintModel
    {
        var numbers = Numbers(state: seed)
        var layers: [FeaturePrintLayer] = []
        func convolution(_ input: Int, _ output: Int, kernel: Int, stride: Int, _ inC: Int, _ outC: Int,
                         _ activation: FeaturePrintLayer.Activation) {
            let scale = 1.5 / Float(kernel * kernel * inC).squareRoot()
            layers.append(.convolution(input: input, output: output, kernel: kernel, stride: stride, inputChannels: inC,
                                       outputChannels: outC, activation: activation,
                                       weights: numbers.array(outC * kernel * kernel * inC, scale: scale),
                                       bias: numbers.array(outC, scale: 0.2)))
        }
        func depthwise(_ input: Int, _ output: Int, kernel: Int, stride: Int, _ channels: Int) {
            layers.append(.depthwiseConvolution(input: input, output: output, kernel: kernel, stride: stride,
                                                channels: channels, activation: .relu6,
                                                weights: numbers.array(kernel * kernel * channels,
                                                                       scale: 1.5 / Float(kernel)),
                                                bias: numbers.array(channels, scale: 0.2)))
        }
        convolution(0, 1, kernel: 3, stride: 2, 3, 8, .relu6)         // stem
        convolution(1, 2, kernel: 1, stride: 1, 8, 16, .relu6)        // expand
        depthwise(2, 3, kernel: 5, stride: 2, 16)                     // depthwise 5×5 s2
        convolution(3, 4, kernel: 1, stride: 1, 16, 12, .none)        // project
        convolution(4, 5, kernel: 1, stride: 1, 12, 24, .relu6)       // expand
        depthwise(5, 6, kernel: 3, stride: 1, 24)                     // depthwise 3×3 s1
        convolution(6, 7, kernel: 1, stride: 1, 24, 12, .none)        // project
        layers.append(.add(7, 4, output: 8, channels: 12))            // residual
        convolution(8, 9, kernel: 1, stride: 1, 12, 20, .relu6)       // head
        layers.append(.globalAveragePool(input: 9, output: 10, channels: 20))
        layers.append(.fullyConnected(input: 10, output: 11, inputChannels: 20, outputChannels: 7,
                                      weights: numbers.array(7 * 20, scale: 0.3), bias: numbers.array(7, scale: 0.1)))
        return try FeaturePrintModel(network: "test-net", provenance: "Support.smallModel(seed: \(seed))",
                                     input: FeaturePrintInput(size: inputSize, mean: 127, scale: 1.0 / 128),
                                     weightType: weightType, valueCount: 12, embeddingValue: 10, logitsValue: 11,
                                     layers: layers)
    }

    /// A busy test picture: gradients and a checkerboard, different per `seed`.
    static func pattern(width: Int, height: Int, seed: Int = 0) throws -> PixelBuffer {
        try TestImages.image(width: width, height: height) { x, y in
            (UInt8(truncatingIfNeeded: x * 255 / max(width - 1, 1) + seed * 37),
             UInt8(truncatingIfNeeded: y * 255 / max(height - 1, 1) + seed * 11),
             ((x / 3 + y / 3 + seed) % 2 == 0) ? 230 : 20)
        }
    }

    /// The cosine similarity of two vectors.
    static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        var dot = 0.0, na = 0.0, nb = 0.0
        for (x, y) in zip(a, b) {
            dot += Double(x) * Double(y)
            na += Double(x) * Double(x)
            nb += Double(y) * Double(y)
        }
        return dot / (na.squareRoot() * nb.squareRoot())
    }
}

/// A plain scalar forward pass written from the format description: the reference the engine is
/// tested against (TF SAME padding, depthwise, add, pool and fully connected semantics).
enum ReferenceForward {
    /// Every value the network computes for `input` (NHWC floats, already normalised), by value id.
    static func run(_ model: FeaturePrintModel, input: [Float]) -> [Int: (shape: [Int], data: [Float])] {
        var values: [Int: (shape: [Int], data: [Float])] = [0: ([model.input.size, model.input.size, 3], input)]
        for layer in model.layers {
            guard let x = values[layer.input] else { continue }
            let (h, w, c) = (x.shape[0], x.shape[1], x.shape[2])
            var result: (shape: [Int], data: [Float])
            switch layer.kind {
            case .convolution, .depthwiseConvolution:
                let (kh, kw, sh, sw) = (layer.kernelHeight, layer.kernelWidth, layer.strideHeight, layer.strideWidth)
                let oh = (h + sh - 1) / sh, ow = (w + sw - 1) / sw
                let padTop = layer.padding == .tensorFlowSame ? max((oh - 1) * sh + kh - h, 0) / 2 : 0
                let padLeft = layer.padding == .tensorFlowSame ? max((ow - 1) * sw + kw - w, 0) / 2 : 0
                let oc = layer.outputChannels
                var out = [Float](repeating: 0, count: oh * ow * oc)
                for oy in 0..<oh {
                    for ox in 0..<ow {
                        for o in 0..<oc {
                            var sum = Double(layer.bias[o])
                            for ky in 0..<kh {
                                let iy = oy * sh + ky - padTop
                                guard iy >= 0, iy < h else { continue }
                                for kx in 0..<kw {
                                    let ix = ox * sw + kx - padLeft
                                    guard ix >= 0, ix < w else { continue }
                                    if layer.kind == .depthwiseConvolution {
                                        sum += Double(layer.weights[(ky * kw + kx) * oc + o])
                                            * Double(x.data[(iy * w + ix) * c + o])
                                    } else {
                                        for i in 0..<c {
                                            sum += Double(layer.weights[((o * kh + ky) * kw + kx) * c + i])
                                                * Double(x.data[(iy * w + ix) * c + i])
                                        }
                                    }
                                }
                            }
                            out[(oy * ow + ox) * oc + o] = Float(sum)
                        }
                    }
                }
                result = ([oh, ow, oc], out)
            case .add:
                let y = values[layer.secondInput ?? -1]?.data ?? []
                result = (x.shape, zip(x.data, y).map { $0 + $1 })
            case .globalAveragePool:
                var out = [Float](repeating: 0, count: c)
                for channel in 0..<c {
                    var sum = 0.0
                    for p in 0..<(h * w) { sum += Double(x.data[p * c + channel]) }
                    out[channel] = Float(sum / Double(h * w))
                }
                result = ([1, 1, c], out)
            case .fullyConnected:
                let oc = layer.outputChannels
                result = ([1, 1, oc], (0..<oc).map { o in
                    var sum = Double(layer.bias[o])
                    for i in 0..<c { sum += Double(layer.weights[o * c + i]) * Double(x.data[i]) }
                    return Float(sum)
                })
            }
            if layer.activation == .relu6 { result.data = result.data.map { min(max($0, 0), 6) } }
            values[layer.output] = result
        }
        return values
    }

    /// The normalised NHWC input of an rgb8 network-input image.
    static func input(_ pixels: PixelBuffer, mean: Float, scale: Float) -> [Float] {
        pixels.withUnsafeBytes { bytes in
            var out: [Float] = []
            for y in 0..<pixels.height {
                for x in 0..<pixels.width {
                    for channel in 0..<3 {
                        out.append((Float(bytes[y * pixels.bytesPerRow + x * 3 + channel]) - mean) * scale)
                    }
                }
            }
            return out
        }
    }
}
