public import GlimpseFeaturePrint
import GlimpseIndex

/// A labelled reference: one photo's identifier and the labels it was given.
public struct LabelledReference: Sendable, Hashable {
    /// Where the photo came from, such as a catalog place id or a file name.
    public let id: String
    /// Indices into the model's vocabulary, ascending, without repeats.
    public let labels: [Int]

    /// Creates a reference; `labels` are sorted and de-duplicated.
    public init(id: String, labels: [Int]) {
        self.id = id
        self.labels = Array(Set(labels)).sorted()
    }
}

/// How the nearest references vote for labels.
public struct VoteParameters: Sendable, Hashable {
    /// Number of nearest references that vote.
    public var k: Int
    /// Each voter weighs `1 / (distance + 0.05)^weightPower`; 0 gives every voter the same weight.
    public var weightPower: Float
    /// A label is reported when its score (weighted share of voters carrying it) is at least this,
    /// unless `labelThresholds` gives the label its own threshold.
    public var threshold: Float
    /// Per-label thresholds, in vocabulary order, or empty to use `threshold` for every label.
    public var labelThresholds: [Float]

    /// Creates vote settings.
    public init(k: Int, weightPower: Float, threshold: Float, labelThresholds: [Float] = []) {
        self.k = k
        self.weightPower = weightPower
        self.threshold = threshold
        self.labelThresholds = labelThresholds
    }

    /// The threshold of the label at vocabulary position `label`.
    public func threshold(for label: Int) -> Float {
        label < labelThresholds.count ? labelThresholds[label] : threshold
    }

    /// The settings used when nothing has been calibrated.
    public static let standard = VoteParameters(k: 7, weightPower: 1, threshold: 0.4)
}

/// Labelled reference photos as feature vectors, plus the vocabulary and vote settings: everything
/// needed to label a new picture by its nearest references.
///
/// A model is always consistent: its extractor is one this build computes, every label index is in
/// the vocabulary and every vector has the extractor's dimension and finite values.
public struct LabelModel: Sendable {
    /// The feature extractor the vectors were computed with.
    public let extractor: FeatureExtractorDescriptor
    /// How references vote, and the reporting threshold.
    public private(set) var vote: VoteParameters
    /// The label names, in the order of `catalog.json`'s `labels`.
    public let vocabulary: [String]
    /// The labelled references, in the order of their vectors.
    public let references: [LabelledReference]
    /// The feature vectors, `references.count × extractor.rows × extractor.dimension` values: the rows of
    /// reference 0, then those of reference 1, and so on.
    public let vectors: [Float]

    /// The extractor that computes `extractor`'s vectors.
    let featureExtractor: any ImageFeatureExtractor
    /// How the nearest references are found: ``ReferenceSearch/exact`` or
    /// ``ReferenceSearch/approximate(_:)`` (``ReferenceSearch/automatic`` is resolved when the model is
    /// assembled).
    public let search: ReferenceSearch
    /// Nearest-neighbour search over the rows of `vectors` (squared Euclidean distance); row `i`
    /// belongs to reference `i / extractor.rows`.
    let index: any NearestNeighborIndex

    /// Assembles a model after checking that its parts agree; `search` says how references are found.
    ///
    /// - Throws: ``LabelModelError/extractorMismatch(path:model:current:)`` when this build cannot compute
    ///   `extractor`'s vectors, ``LabelModelError/invalidModel(reason:)`` for any other inconsistency.
    public init(
        extractor: FeatureExtractorDescriptor,
        vote: VoteParameters,
        vocabulary: [String],
        references: [LabelledReference],
        vectors: [Float],
        search: ReferenceSearch = .automatic,
        featurePrinter: FeaturePrinterPool? = nil
    ) throws(LabelModelError) {
        guard let featureExtractor = FeatureExtractors.extractor(matching: extractor, featurePrinter: featurePrinter) else {
            let current = FeatureExtractors.extractor(named: extractor.id, featurePrinter: featurePrinter)?.descriptor
                ?? FeatureExtractors.standard.descriptor
            throw .extractorMismatch(path: "(in memory)", model: extractor.description, current: current.description)
        }
        try self.init(featureExtractor: featureExtractor, vote: vote, vocabulary: vocabulary, references: references,
                      vectors: vectors, search: search)
    }

    /// Assembles a model whose vectors were computed by `featureExtractor`, which may use settings other
    /// than the standard ones (for experiments and evaluation; such a model saves, but only loads in a
    /// build whose known extractors include those settings).
    ///
    /// - Throws: ``LabelModelError/invalidModel(reason:)`` when the parts disagree.
    public init(
        featureExtractor: any ImageFeatureExtractor,
        vote: VoteParameters,
        vocabulary: [String],
        references: [LabelledReference],
        vectors: [Float],
        search: ReferenceSearch = .automatic
    ) throws(LabelModelError) {
        let extractor = featureExtractor.descriptor
        try Self.check(vote, labelCount: vocabulary.count)
        guard !vocabulary.isEmpty, Set(vocabulary).count == vocabulary.count else {
            throw .invalidModel(reason: "the vocabulary is empty or repeats a label")
        }
        guard !references.isEmpty else { throw .invalidModel(reason: "the model has no references") }
        for reference in references {
            guard reference.labels.allSatisfy({ $0 >= 0 && $0 < vocabulary.count }) else {
                throw .invalidModel(reason: "reference \(reference.id) has a label outside the vocabulary")
            }
        }
        guard extractor.rows >= 1, vectors.count == references.count * extractor.rows * extractor.dimension else {
            throw .invalidModel(reason: "\(vectors.count) vector values for \(references.count) references of "
                + "\(extractor.rows) rows of dimension \(extractor.dimension)")
        }
        self.search = search.resolved(rows: references.count * extractor.rows)
        do {
            index = try self.search.makeIndex(dimension: extractor.dimension, vectors: vectors)
        } catch {
            throw .invalidModel(reason: "the vectors cannot be indexed: \(error)")
        }
        self.extractor = extractor
        self.vote = vote
        self.vocabulary = vocabulary
        self.references = references
        self.vectors = vectors
        self.featureExtractor = featureExtractor
    }

    /// The same references, and the same index, with other vote settings.
    public func with(vote: VoteParameters) throws(LabelModelError) -> LabelModel {
        try Self.check(vote, labelCount: vocabulary.count)
        var model = self
        model.vote = vote
        return model
    }

    /// Throws unless `vote` is usable with a vocabulary of `labelCount` labels.
    private static func check(_ vote: VoteParameters, labelCount: Int) throws(LabelModelError) {
        guard vote.k >= 1, vote.weightPower >= 0, vote.weightPower.isFinite,
              vote.threshold > 0, vote.threshold <= 1,
              vote.labelThresholds.isEmpty || vote.labelThresholds.count == labelCount,
              vote.labelThresholds.allSatisfy({ $0 > 0 && $0 <= 1 }) else {
            throw .invalidModel(reason: "vote settings k=\(vote.k), power=\(vote.weightPower), "
                + "threshold=\(vote.threshold) are out of range (k ≥ 1, power ≥ 0, 0 < threshold ≤ 1, one threshold "
                + "per label or none)")
        }
    }

    /// The feature vectors of reference `position`, row by row.
    public func vectors(of position: Int) -> ArraySlice<Float> {
        let size = extractor.rows * extractor.dimension
        return vectors[(position * size)..<((position + 1) * size)]
    }
}
