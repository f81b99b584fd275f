import GlimpseFeaturePrint
import GlimpseTestSupport
@testable import GlimpseLabels

/// Paths and builders shared by the label tests.
enum Fixtures {
    /// The repository root.
    static var root: String { Repository.root }

    static var catalogPath: String { root + "/Images/catalog.json" }
    static var committedModelPath: String { root + "/Models/labels.glimpsemodel" }

    /// The committed feature-print network, which the committed label model is built on.
    static let printer: FeaturePrinterPool = {
        do { return try CommittedModels.featurePrinter.get() }
        catch { fatalError("the committed feature-print model must load: \(error)") }
    }()

    /// The extractor of the committed label model.
    static var committedExtractor: FeaturePrintExtractor { FeaturePrintExtractor(printer: printer) }

    /// The committed label model.
    static func committedModel() throws -> LabelModel {
        try LabelModel.load(from: committedModelPath, featurePrinter: printer)
    }

    /// A small valid scene model: `count` references with synthetic vectors and rotating labels.
    static func smallModel(count: Int = 4) throws -> LabelModel {
        let extractor = SceneFeatureExtractor()
        let dimension = extractor.descriptor.dimension
        let vocabulary = ["sky", "water", "tree", "building"]
        let references = (0..<count).map {
            LabelledReference(id: "ref-\($0)", labels: [$0 % vocabulary.count, ($0 + 1) % vocabulary.count])
        }
        let vectors = (0..<(count * dimension)).map { Float(($0 * 7919) % 101) / 101 }
        return try LabelModel(extractor: extractor.descriptor,
                              vote: VoteParameters(k: 3, weightPower: 1, threshold: 0.4,
                                                   labelThresholds: [0.3, 0.4, 0.5, 0.6]),
                              vocabulary: vocabulary, references: references, vectors: vectors)
    }
}
