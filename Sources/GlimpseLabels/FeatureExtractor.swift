public import GlimpseImage
public import GlimpseFeaturePrint

/// Identifies a feature extractor and the exact settings a model's vectors were computed with.
///
/// A model file stores its extractor's descriptor; a model is only usable when the descriptor equals
/// the one the running code produces, since vectors from different settings are not comparable.
public struct FeatureExtractorDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// A stable name such as `scene`.
    public let id: String
    /// The version of the algorithm; raised whenever the same settings would give different vectors.
    public let version: UInt32
    /// The settings, as `key=value` pairs joined by `;` in a fixed order.
    public let parameters: String
    /// The number of values in each feature vector.
    public let dimension: Int
    /// The number of feature vectors per picture (one per region for region-based extractors).
    public let rows: Int

    /// Creates a descriptor from its parts.
    public init(id: String, version: UInt32, parameters: String, dimension: Int, rows: Int = 1) {
        self.id = id
        self.version = version
        self.parameters = parameters
        self.dimension = dimension
        self.rows = rows
    }

    /// `id` v`version` (`rows`×`dimension`-d; `parameters`).
    public var description: String { "\(id) v\(version) (\(rows)×\(dimension)-d; \(parameters))" }
}

/// Turns a picture into a fixed number of feature vectors (`rows`, for example one per region) whose
/// Euclidean distances reflect how alike two scenes, or two parts of scenes, look.
public protocol ImageFeatureExtractor: Sendable {
    /// The extractor's name, version, settings and dimension.
    var descriptor: FeatureExtractorDescriptor { get }
    /// The feature vectors of `image`, `descriptor.rows × descriptor.dimension` values, row by row.
    func features(of image: PixelBuffer) -> [Float]
}

/// The feature extractors this version of Glimpse can compute.
public enum FeatureExtractors {
    /// The extractor used for new label models: ``SceneFeatureExtractor`` with default settings.
    public static let standard: any ImageFeatureExtractor = SceneFeatureExtractor()

    /// Every known extractor, including the colour-histogram baseline.
    public static let all: [any ImageFeatureExtractor] = [
        SceneFeatureExtractor(), RegionFeatureExtractor(), ColourHistogramExtractor(),
    ]

    /// The extractor that produces vectors matching `descriptor` exactly, or `nil` when this build has
    /// none; the feature-print extractor is available when `featurePrinter` is given.
    public static func extractor(
        matching descriptor: FeatureExtractorDescriptor, featurePrinter: FeaturePrinterPool? = nil
    ) -> (any ImageFeatureExtractor)? {
        available(featurePrinter: featurePrinter).first { $0.descriptor == descriptor }
    }

    /// The known extractor named `id`, or `nil`; `featureprint` needs `featurePrinter`.
    public static func extractor(
        named id: String, featurePrinter: FeaturePrinterPool? = nil
    ) -> (any ImageFeatureExtractor)? {
        available(featurePrinter: featurePrinter).first { $0.descriptor.id == id }
    }

    /// ``all``, with the feature-print extractor first when `featurePrinter` is given.
    public static func available(featurePrinter: FeaturePrinterPool?) -> [any ImageFeatureExtractor] {
        (featurePrinter.map { [FeaturePrintExtractor(printer: $0)] } ?? []) + all
    }
}

/// Scales `vector[range]` so that its values are square roots of a normalised histogram with
/// Euclidean length `weight` (the Hellinger embedding); an all-zero block stays zero.
func normaliseBlock(_ vector: inout [Float], _ range: Range<Int>, weight: Float) {
    var sum: Float = 0
    for i in range { sum += max(0, vector[i]) }
    guard sum > 0 else { return }
    // sqrt(h / sum) has unit Euclidean length when h sums to `sum`.
    let scale = 1 / sum
    for i in range { vector[i] = weight * (max(0, vector[i]) * scale).squareRoot() }
}
