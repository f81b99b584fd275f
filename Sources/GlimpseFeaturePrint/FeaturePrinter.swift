public import GlimpseImage
import Synchronization

/// The raw outputs of one run, in buffers the caller keeps and passes again, so that running the
/// network allocates nothing after the first call.
public struct FeaturePrintOutput: Sendable {
    /// The embedding as the network computed it (not normalised).
    public internal(set) var embedding: [Float] = []
    /// The classifier's logits (1000 ImageNet classes for EfficientNet-Lite0); empty when the model
    /// has none.
    public internal(set) var logits: [Float] = []

    /// Empty outputs; the first run sizes them.
    public init() {}

    /// The L2-normalised feature print of ``embedding``.
    public var featurePrint: FeaturePrint { FeaturePrint(normalizing: embedding) }

    /// The index of the largest logit (the top-1 class), or `nil` when there are no logits.
    public var topClass: Int? { logits.indices.max { logits[$0] < logits[$1] } }
}

/// Computes feature prints with one XNNPACK runtime on the calling thread.
///
/// A printer owns its runtime and buffers (the runtime holds its own packed copy of the weights,
/// about 20 MB for EfficientNet-Lite0), so make one per thread, or take them from a
/// ``FeaturePrinterPool``. Calls on one printer are serialised by a lock, so sharing one between
/// threads is safe but runs one image at a time.
public final class FeaturePrinter: Sendable {
    /// The model the printer runs.
    public let model: FeaturePrintModel
    /// How ``featurePrint(of:)`` turns an image into the network input.
    public let preprocessing: FeaturePrintPreprocessing
    private let network: Mutex<XNNPACKNetwork>

    /// A printer for `model`, building its XNNPACK runtime (this packs the weights: tens of
    /// milliseconds; reuse printers).
    ///
    /// - Throws: ``FeaturePrintError/engineUnavailable(reason:)`` when XNNPACK cannot run the model here.
    public convenience init(model: FeaturePrintModel, preprocessing: FeaturePrintPreprocessing = .squash)
        throws(FeaturePrintError)
    {
        try self.init(model: model, preprocessing: preprocessing, int8Engine: .automatic)
    }

    /// A printer whose int8 network runs on `int8Engine` (tests compare the engines).
    init(model: FeaturePrintModel, preprocessing: FeaturePrintPreprocessing, int8Engine: Int8Engine) throws(FeaturePrintError) {
        self.model = model
        self.preprocessing = preprocessing
        network = Mutex(try XNNPACKNetwork(model: model, int8Engine: int8Engine))
    }

    /// The feature print of an image of any size and pixel format, reduced to the network input by
    /// ``preprocessing``.
    public func featurePrint(of pixels: PixelBuffer) throws(FeaturePrintError) -> FeaturePrint {
        try featurePrint(ofNetworkInput: networkInput(from: pixels))
    }

    /// The feature print and the classifier's logits of an image of any size and pixel format.
    public func featurePrintWithLogits(of pixels: PixelBuffer) throws(FeaturePrintError)
        -> (featurePrint: FeaturePrint, logits: [Float])
    {
        var output = FeaturePrintOutput()
        try run(networkInput: networkInput(from: pixels), into: &output)
        return (output.featurePrint, output.logits)
    }

    /// The feature print of an image that already is the network input: `size × size` pixels
    /// (any pixel format; gray is replicated, alpha ignored).
    ///
    /// - Throws: ``FeaturePrintError/wrongInputSize(width:height:expected:)`` for another size.
    public func featurePrint(ofNetworkInput pixels: PixelBuffer) throws(FeaturePrintError) -> FeaturePrint {
        var output = FeaturePrintOutput()
        try run(networkInput: pixels, into: &output)
        return output.featurePrint
    }

    /// The `size × size` RGB image the network sees for `pixels` under ``preprocessing``.
    public func networkInput(from pixels: PixelBuffer) -> PixelBuffer {
        preprocessing.networkInput(from: pixels, size: model.input.size)
    }

    /// Runs the network on an image that already is the network input (`size × size`, any pixel
    /// format) and writes the raw embedding and logits into `output`'s buffers, which are reused:
    /// after the first call with the same `output` this allocates nothing.
    ///
    /// - Throws: ``FeaturePrintError/wrongInputSize(width:height:expected:)`` for another size, or
    ///   ``FeaturePrintError/runFailed(reason:)``.
    public func run(networkInput pixels: PixelBuffer, into output: inout FeaturePrintOutput) throws(FeaturePrintError) {
        let size = model.input.size
        guard pixels.width == size, pixels.height == size else {
            throw .wrongInputSize(width: pixels.width, height: pixels.height, expected: size)
        }
        let mean = model.input.mean, scale = model.input.scale
        try network.withLock { (network: inout XNNPACKNetwork) throws(FeaturePrintError) in
            if network.inputCodes.isEmpty {
                network.writeInput { input in
                    pixels.withUnsafeBytes { bytes in
                        InputFill.normalise(bytes, bytesPerRow: pixels.bytesPerRow, format: pixels.pixelFormat,
                                            size: size, mean: mean, scale: scale, into: input)
                    }
                }
            } else {
                network.writeQuantizedInput { input in
                    pixels.withUnsafeBytes { bytes in
                        network.inputCodes.withUnsafeBufferPointer { codes in
                            InputFill.quantise(bytes, bytesPerRow: pixels.bytesPerRow, format: pixels.pixelFormat,
                                               size: size, codes: codes, into: input)
                        }
                    }
                }
            }
            try network.run()
            network.readOutputs { embedding, logits in
                InputFill.copy(embedding, into: &output.embedding)
                InputFill.copy(logits, into: &output.logits)
            }
        }
    }
}

/// The loops between pixel bytes and the network's float buffers.
enum InputFill {
    /// Writes `(x - mean) × scale` of every channel of a `size × size` image into `input` (NHWC, RGB;
    /// gray is replicated, alpha skipped).
    static func normalise(
        _ bytes: UnsafeRawBufferPointer, bytesPerRow: Int, format: PixelFormat, size: Int, mean: Float, scale: Float,
        into input: UnsafeMutableBufferPointer<Float>
    ) {
        let pixelBytes = format.bytesPerPixel
        let gray = format == .gray8
        var out = 0
        for row in 0..<size {
            var at = row * bytesPerRow
            for _ in 0..<size {
                let red = Float(bytes[at])
                let green = gray ? red : Float(bytes[at + 1])
                let blue = gray ? red : Float(bytes[at + 2])
                input[out] = (red - mean) * scale
                input[out + 1] = (green - mean) * scale
                input[out + 2] = (blue - mean) * scale
                at += pixelBytes
                out += 3
            }
        }
    }

    /// Writes the int8 code `codes[x]` of every channel value `x` of a `size × size` image into `input`
    /// (NHWC, RGB; gray is replicated, alpha skipped).
    static func quantise(
        _ bytes: UnsafeRawBufferPointer, bytesPerRow: Int, format: PixelFormat, size: Int,
        codes: UnsafeBufferPointer<Int8>, into input: UnsafeMutableBufferPointer<Int8>
    ) {
        let pixelBytes = format.bytesPerPixel
        let gray = format == .gray8
        var out = 0
        for row in 0..<size {
            var at = row * bytesPerRow
            for _ in 0..<size {
                let red = bytes[at]
                input[out] = codes[Int(red)]
                input[out + 1] = codes[Int(gray ? red : bytes[at + 1])]
                input[out + 2] = codes[Int(gray ? red : bytes[at + 2])]
                at += pixelBytes
                out += 3
            }
        }
    }

    /// Copies `source` into `target`, reusing `target`'s storage when it already has the size.
    static func copy(_ source: UnsafeBufferPointer<Float>, into target: inout [Float]) {
        if target.count != source.count {
            target = Array(source)
            return
        }
        target.withUnsafeMutableBufferPointer { destination in
            guard let to = destination.baseAddress, let from = source.baseAddress else { return }
            to.update(from: from, count: source.count)
        }
    }
}
