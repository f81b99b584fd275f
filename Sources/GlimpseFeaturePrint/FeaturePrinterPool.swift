public import GlimpseImage
import Synchronization

/// Feature printers for concurrent callers: each call borrows an idle printer (making one when
/// none is idle) and returns it afterwards, so callers never wait for each other and no printer
/// runs two images at once. The pool keeps as many printers as calls have ever run at the same
/// time (each holds about 20 MB for EfficientNet-Lite0).
public final class FeaturePrinterPool: Sendable {
    /// The model every printer runs.
    public let model: FeaturePrintModel
    /// How images become the network input.
    public let preprocessing: FeaturePrintPreprocessing
    private let idle = Mutex<[FeaturePrinter]>([])

    /// A pool for `model`; printers are made on first use.
    public init(model: FeaturePrintModel, preprocessing: FeaturePrintPreprocessing = .squash) {
        self.model = model
        self.preprocessing = preprocessing
    }

    /// The number of printers made so far that are idle now.
    public var idleCount: Int { idle.withLock { $0.count } }

    /// Calls `body` with a printer no other caller is using, then keeps the printer for the next call.
    ///
    /// - Throws: ``FeaturePrintError/engineUnavailable(reason:)`` when a printer cannot be made, or
    ///   what `body` throws.
    public func withPrinter<R>(_ body: (FeaturePrinter) throws(FeaturePrintError) -> R) throws(FeaturePrintError) -> R {
        let printer: FeaturePrinter
        if let reused = idle.withLock({ $0.popLast() }) {
            printer = reused
        } else {
            printer = try FeaturePrinter(model: model, preprocessing: preprocessing)
        }
        defer { idle.withLock { $0.append(printer) } }
        return try body(printer)
    }

    /// The feature print of an image of any size and pixel format (see ``FeaturePrinter/featurePrint(of:)``).
    public func featurePrint(of pixels: PixelBuffer) throws(FeaturePrintError) -> FeaturePrint {
        try withPrinter { (printer) throws(FeaturePrintError) in try printer.featurePrint(of: pixels) }
    }

    /// The feature print and the logits of an image of any size and pixel format.
    public func featurePrintWithLogits(of pixels: PixelBuffer) throws(FeaturePrintError)
        -> (featurePrint: FeaturePrint, logits: [Float])
    {
        try withPrinter { (printer) throws(FeaturePrintError) in try printer.featurePrintWithLogits(of: pixels) }
    }
}
