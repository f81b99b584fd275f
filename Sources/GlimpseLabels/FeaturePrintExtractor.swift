public import GlimpseFeaturePrint
public import GlimpseImage

/// Label features from the learned feature print: the L2-normalised EfficientNet-Lite0 embedding of
/// the whole picture (see `GlimpseFeaturePrint`). Squared Euclidean distance between two unit vectors
/// is `2 − 2·cosine`, so the nearest references are the most similar scenes.
///
/// Its descriptor names the network and the preprocessing, so a label model built with one
/// feature-print model is refused with another.
public struct FeaturePrintExtractor: ImageFeatureExtractor {
    /// The printers that compute the prints.
    public let printer: FeaturePrinterPool

    /// An extractor over `printer`'s model.
    public init(printer: FeaturePrinterPool) {
        self.printer = printer
    }

    /// The id under which label models store feature-print vectors.
    public static let id = "featureprint"

    /// `featureprint` v1, the network, its parameter count and the preprocessing; one row of the
    /// embedding width.
    public var descriptor: FeatureExtractorDescriptor {
        FeatureExtractorDescriptor(
            id: Self.id, version: 1,
            parameters: "network=\(printer.model.network);params=\(printer.model.parameterCount);"
                + "input=\(printer.model.input.size);prep=\(printer.preprocessing.rawValue)",
            dimension: printer.model.embeddingDimension)
    }

    /// The picture's feature print. Should the engine fail (it does not on a machine where the model
    /// loaded), the vector is all zeros: equally far from every reference, so no label reaches its
    /// threshold.
    public func features(of image: PixelBuffer) -> [Float] {
        (try? printer.featurePrint(of: image).values)
            ?? [Float](repeating: 0, count: printer.model.embeddingDimension)
    }
}
