import GlimpseFeaturePrint
import GlimpseImage
@testable import GlimpseLabels

/// Paths and builders shared by the label tests.
enum Fixtures {
    /// The repository root, found from this file's path.
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/GlimpseLabelsTests/Fixtures.swift
        return parts.joined(separator: "/")
    }()

    static var catalogPath: String { root + "/Images/catalog.json" }
    static var committedModelPath: String { root + "/Models/labels.glimpsemodel" }

    /// The committed feature-print network, which the committed label model is built on.
    static let printer: FeaturePrinterPool = {
        do { return FeaturePrinterPool(model: try FeaturePrintModel.load(from: root + "/Models/featureprint.glimpsemodel")) }
        catch { fatalError("the committed feature-print model must load: \(error)") }
    }()

    /// The extractor of the committed label model.
    static var committedExtractor: FeaturePrintExtractor { FeaturePrintExtractor(printer: printer) }

    /// The committed label model.
    static func committedModel() throws -> LabelModel {
        try LabelModel.load(from: committedModelPath, featurePrinter: printer)
    }

    /// A buffer of `width × height` pixels coloured by `colour(x, y)`.
    static func image(width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> PixelBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                bytes += [r, g, b]
            }
        }
        return try PixelBuffer(width: width, height: height, pixelFormat: .rgb8, bytes: bytes)
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
