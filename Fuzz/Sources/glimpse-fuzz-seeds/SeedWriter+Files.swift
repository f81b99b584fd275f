import Foundation
import FuzzSupport
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseIndex
import GlimpseLabels
import GlimpseVision

extension SeedWriter {
    /// One model of two references per known extractor, built from catalog photos decoded small; one of
    /// four references with per-label thresholds.
    func labelModels() throws {
        let pictures = try Self.photos.map { try Self.photo($0, side: 48) }
        let vocabulary = ["water", "sky", "wood", "animal", "leaf"]
        let references = [
            LabelledReference(id: "jetty", labels: [0, 1, 2]), LabelledReference(id: "splash", labels: [0]),
            LabelledReference(id: "ladybug", labels: [3, 4]), LabelledReference(id: "maple-leaf", labels: [4]),
        ]
        var files: [(String, [UInt8])] = []
        for extractor in FeatureExtractors.all {
            let model = try LabelModel(featureExtractor: extractor, vote: .standard, vocabulary: vocabulary,
                                       references: Array(references.prefix(2)),
                                       vectors: pictures.prefix(2).flatMap { extractor.features(of: $0) })
            files.append(("\(extractor.descriptor.id).glimpsemodel", model.encoded()))
        }
        let standard = FeatureExtractors.standard
        let thresholds = try LabelModel(
            featureExtractor: standard,
            vote: VoteParameters(k: 2, weightPower: 2, threshold: 0.3, labelThresholds: [0.5, 0.2, 0.4, 0.6, 0.1]),
            vocabulary: vocabulary, references: references, vectors: pictures.flatMap { standard.features(of: $0) })
        files.append(("label-thresholds.glimpsemodel", thresholds.encoded()))
        try write("label-model", files)
    }

    /// Caches of features extracted from catalog photos (at most 12 keypoints kept each), without and
    /// with feature prints, under the key and print identity of the fuzz target.
    func featureCaches() throws {
        let key: UInt64 = 0x0123_4567_89AB_CDEF
        let references = try Self.photos.prefix(3).map { name -> (id: String, features: ImageFeatures) in
            let features = FeatureExtractor.extract(from: try Self.photo(name, side: 160))
            let kept = min(features.count, 12)
            return (String(name.prefix(3)), ImageFeatures(
                width: features.width, height: features.height, keypoints: Array(features.keypoints.prefix(kept)),
                descriptorWords: Array(features.descriptorWords.prefix(kept * ImageFeatures.wordsPerDescriptor))))
        }
        var printed: [(id: String, features: ImageFeatures)] = []
        for (offset, reference) in references.enumerated() {
            let prints = (0..<2).map { view -> FeaturePrint in
                let values: [Float] = (0..<8).map { Float(($0 + offset * 3 + view) % 5) - 1.5 }
                return FeaturePrint(normalizing: values)
            }
            printed.append((reference.id, reference.features.with(featurePrints: prints)))
        }
        try write("feature-cache", [
            ("keypoints.glfeat", FeatureCache.encode(references, key: key, configuration: .default)),
            ("one-reference.glfeat", FeatureCache.encode(Array(references.prefix(1)), key: key, configuration: .default)),
            ("empty.glfeat", FeatureCache.encode([], key: key, configuration: .default)),
            ("prints.glfeat", FeatureCache.encode(printed, key: key, configuration: .default,
                                                  printIdentity: "fuzz-printer")),
        ])
    }

    /// Small flat, int8, HNSW and binary IVF index files, one flat one per metric.
    func indexFiles() throws {
        let dimension = 4
        var rows: [Float] = []
        for row in 0..<24 {
            for column in 0..<dimension { rows.append(Float((row * 7 + column * 3) % 11) - 5) }
        }
        var files: [(String, [UInt8])] = []
        for metric in DistanceMetric.allCases {
            let flat = try FlatIndex(dimension: dimension, metric: metric, rowMajor: Array(rows.prefix(5 * dimension)))
            files.append(("flat-\(metric).glidx", IndexFile.encode(flat, tag: "fuzz")))
        }
        let flat = try FlatIndex(dimension: dimension, metric: .squaredEuclidean, rowMajor: rows)
        files.append(("int8.glidx", IndexFile.encode(Int8FlatIndex(quantizing: flat), tag: "")))
        let hnsw = try HNSWIndex(building: flat, parameters: HNSWParameters(maxLinks: 4, efConstruction: 16, efSearch: 8))
        files.append(("hnsw.glidx", IndexFile.encode(hnsw, tag: "scene v1")))
        let model = BinaryIVFModel.train(rows: rows, dimension: dimension, clusters: 3, seed: 1)
        let ivf = BinaryIVFIndex(model: model, ids: (0..<UInt32(24)).map { $0 * 8 }, vectors: rows)
        files.append(("binary-ivf.glidx", IndexFile.encode(ivf, tag: "prints v1")))
        try write("index-file", files)
    }

    /// Tiny networks with every layer kind, in 32- and 16-bit weights, and one whose input is too large
    /// for the target to run it.
    func featurePrintModels() throws {
        var files: [(String, [UInt8])] = []
        for (name, weightType, size) in [("f32", FeaturePrintWeightType.float32, 9), ("f16", .float16, 8),
                                          ("large-input", .float32, 224)] {
            let model = try Self.tinyNetwork(weightType: weightType, inputSize: size)
            files.append(("\(name).glimpsemodel", model.encoded()))
        }
        try write("featureprint-model", files)
    }

    /// Stem convolution, depthwise convolution, projection with a residual add, pooling and a classifier.
    static func tinyNetwork(weightType: FeaturePrintWeightType, inputSize: Int) throws -> FeaturePrintModel {
        func values(_ count: Int, _ seed: Int) -> [Float] {
            (0..<count).map { (index: Int) -> Float in Float((index * 31 + seed) % 17) / 17 - 0.5 }
        }
        let layers: [FeaturePrintLayer] = [
            .convolution(input: 0, output: 1, kernel: 3, stride: 2, inputChannels: 3, outputChannels: 4,
                         activation: .relu6, weights: values(4 * 9 * 3, 1), bias: values(4, 2)),
            .depthwiseConvolution(input: 1, output: 2, kernel: 3, stride: 1, channels: 4, activation: .relu6,
                                  weights: values(9 * 4, 3), bias: values(4, 4)),
            .convolution(input: 2, output: 3, kernel: 1, stride: 1, inputChannels: 4, outputChannels: 4,
                         activation: .none, weights: values(16, 5), bias: values(4, 6)),
            .add(3, 1, output: 4, channels: 4),
            .globalAveragePool(input: 4, output: 5, channels: 4),
            .fullyConnected(input: 5, output: 6, inputChannels: 4, outputChannels: 3, weights: values(12, 7),
                            bias: values(3, 8)),
        ]
        return try FeaturePrintModel(
            network: "fuzz-tiny", provenance: "glimpse-fuzz-seeds",
            input: FeaturePrintInput(size: inputSize, mean: 127, scale: 1.0 / 128), weightType: weightType,
            valueCount: 7, embeddingValue: 5, logitsValue: 6, layers: layers)
    }
}
