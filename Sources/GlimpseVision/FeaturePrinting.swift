public import GlimpseFeaturePrint
public import GlimpseImage

/// Computes a picture's feature print: one L2-normalised vector describing the whole scene, whose dot
/// product with another picture's print (the cosine similarity) says how alike the two scenes look.
///
/// The matcher uses it as its second signal beside local keypoints: the shortlist takes the references
/// with the nearest prints as well as those with the most keypoint votes, and the accept rule weighs the
/// print similarity of a candidate together with its verified keypoints (``MatchDecision``).
/// ``FeaturePrinterPool`` (EfficientNet-Lite0, `Models/featureprint.glimpsemodel`) conforms; tests use
/// constructed printers.
public protocol FeaturePrinting: Sendable {
    /// Names the network, its weights and the preprocessing, so that prints made by different printers
    /// are never compared (it is part of the reference feature cache key).
    var featurePrintIdentity: String { get }
    /// The number of values in every print.
    var featurePrintDimension: Int { get }
    /// The print of `image` (any size and pixel format), ``featurePrintDimension`` values.
    func featurePrint(of image: PixelBuffer) throws -> FeaturePrint
    /// The prints stored for a reference photo: one per view of it, the whole picture's first. A
    /// query's similarity to the reference is the best over them.
    func referencePrints(of image: PixelBuffer) throws -> [FeaturePrint]
}

extension FeaturePrinterPool: FeaturePrinting {
    /// The network, where its weights came from (with the checksum of the original weights), its input
    /// settings, the preprocessing and, for an int8 network, its precision (fp32 identities are unchanged).
    public var featurePrintIdentity: String {
        "\(model.network);params=\(model.parameterCount);input=\(model.input.size)/\(model.input.mean)/"
            + "\(model.input.scale);prep=\(preprocessing.rawValue);views=\(FeaturePrintViews.count);\(model.provenance)"
            + (model.precision == .fp32 ? "" : ";precision=\(model.precision)")
    }

    /// The model's embedding width.
    public var featurePrintDimension: Int { model.embeddingDimension }

    /// The prints of the photo's ``FeaturePrintViews``.
    public func referencePrints(of image: PixelBuffer) throws -> [FeaturePrint] { try viewPrints(of: image) }
}
