public import GlimpseFeaturePrint
public import GlimpseImage

/// Labels pictures with a ``LabelModel``: features of the picture, its nearest labelled references,
/// and their distance-weighted vote.
///
/// A predictor is an immutable value: share one across tasks. Each call extracts one feature vector
/// and scans the references once.
public struct LabelPredictor: Sendable {
    /// The model the labels come from.
    public let model: LabelModel

    /// Creates a predictor for `model`.
    public init(model: LabelModel) {
        self.model = model
    }

    /// The labels whose score reaches the model's threshold, highest score first.
    public func labels(for image: PixelBuffer) -> [ScoredLabel] {
        labels(forFeatures: model.featureExtractor.features(of: image))
    }

    /// The labels of `image`, from `featurePrint` instead of running the network again when the model
    /// is built on feature prints of its width (the matcher has often printed the picture already).
    public func labels(for image: PixelBuffer, reusing featurePrint: FeaturePrint?) -> [ScoredLabel] {
        if let featurePrint, model.extractor.id == FeaturePrintExtractor.id,
           featurePrint.dimension == model.extractor.dimension, model.extractor.rows == 1 {
            return labels(forFeatures: featurePrint.values)
        }
        return labels(for: image)
    }

    /// Every label of the vocabulary with its score, highest score first (ties in vocabulary order).
    public func scores(for image: PixelBuffer) -> [ScoredLabel] {
        ranked(scores(forFeatures: model.featureExtractor.features(of: image), excluding: []))
    }

    /// The labels reaching the threshold for a feature vector computed by the model's extractor.
    public func labels(forFeatures features: [Float], excluding excluded: Set<Int> = []) -> [ScoredLabel] {
        let scores = scores(forFeatures: features, excluding: excluded)
        let passing = scores.indices.filter { scores[$0] >= model.vote.threshold(for: $0) }
        return passing.map { ScoredLabel(label: model.vocabulary[$0], score: Double(scores[$0])) }
            .sorted { $0.score > $1.score }
    }

    /// Per-label scores, in vocabulary order, for a feature vector computed by the model's extractor,
    /// ignoring the references at positions in `excluded` (for leave-one-out evaluation).
    public func scores(forFeatures features: [Float], excluding excluded: Set<Int>) -> [Float] {
        let neighbours = nearest(features, k: model.vote.k, excluding: excluded)
        return LabelVote.scores(neighbours: neighbours, references: model.references,
                                labelCount: model.vocabulary.count, vote: model.vote)
    }

    /// For each row of `features`, the `k` nearest reference rows (reference positions and squared
    /// distances), nearest first.
    func nearest(_ features: [Float], k: Int, excluding excluded: Set<Int>) -> [[(position: Int, squaredDistance: Float)]] {
        let extractor = model.extractor
        guard features.count == extractor.rows * extractor.dimension else { return [] }
        do {
            return try NeighbourTable.search(model.index, query: features, skip: excluded,
                                             dimension: extractor.dimension, rows: extractor.rows, depth: k)
        } catch {
            // Unreachable: the length is checked above and extractors produce finite values.
            return []
        }
    }

    private func ranked(_ scores: [Float]) -> [ScoredLabel] {
        scores.enumerated()
            .sorted { $0.element > $1.element || ($0.element == $1.element && $0.offset < $1.offset) }
            .map { ScoredLabel(label: model.vocabulary[$0.offset], score: Double($0.element)) }
    }
}
