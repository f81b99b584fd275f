public import GlimpseLabels

/// Label quality of one feature extractor on photos the model has not seen.
public struct LabelEvaluationReport: Sendable, Codable {
    /// Scores over one set of test photos.
    public struct Section: Sendable, Codable {
        /// Number of test photos.
        public let photos: Int
        /// Scores over every photo–label pair.
        public let micro: LabelScore
        /// Mean of the per-label scores.
        public let macro: LabelScore
        /// Per-label counts and scores.
        public let perLabel: [Row]

        /// The scores accumulated in `metrics`.
        public init(_ metrics: LabelMetrics) {
            photos = metrics.photoCount
            micro = metrics.micro
            macro = metrics.macro
            perLabel = metrics.perLabel.map { Row(label: $0.label, support: $0.support, score: $0.score) }
        }

        /// One line: photo count, micro precision/recall/F1 and macro F1.
        public var summaryLine: String {
            func f(_ value: Double) -> String {
                let thousandths = Int((value * 1000).rounded())
                let digits = String(thousandths % 1000)
                return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - digits.count) + digits
            }
            return "micro P \(f(micro.precision)) R \(f(micro.recall)) F1 \(f(micro.f1)), macro F1 \(f(macro.f1)) "
                + "(\(photos) photos)"
        }
    }

    /// One label's line of a ``Section``.
    public struct Row: Sendable, Codable {
        /// The label.
        public let label: String
        /// Test photos that truly have it.
        public let support: Int
        /// Precision, recall and F1 for it.
        public let score: LabelScore
    }

    /// One extractor's results.
    public struct Method: Sendable, Codable {
        /// The extractor's descriptor, as text.
        public let extractor: String
        /// Vote settings calibrated on all references (what `glimpse models build` stores).
        public let k: Int
        /// Distance-weighting power of those settings.
        public let weightPower: Float
        /// Threshold of those settings.
        public let threshold: Float
        /// Leave-one-out over the references, each photo labelled by all the others with vote settings
        /// calibrated on the other folds.
        public let leaveOneOut: Section
        /// Distorted copies of references, each labelled without its own reference, with vote settings
        /// calibrated on the folds that do not hold that reference.
        public let distorted: Section?
    }

    /// The gain in micro F1 of the first method over another one on one test set.
    public struct Gain: Sendable, Codable {
        /// The first method's extractor.
        public let extractor: String
        /// The extractor it is compared with.
        public let baseline: String
        /// `leave-one-out` or `distorted`.
        public let testSet: String
        /// The gain and its paired-bootstrap interval.
        public let microF1: MicroF1Gain
    }

    /// Number of labelled references.
    public let references: Int
    /// Number of cross-validation folds used to calibrate vote settings.
    public let folds: Int
    /// The methods compared, the model's extractor first.
    public let methods: [Method]
    /// The first method's gain over each other method, per test set.
    public let gains: [Gain]
}

/// Measures label quality on unseen photos for one or more feature extractors.
public enum LabelEvaluation {
    /// Evaluates every extractor in `extractors` over the same references and queries, each storing
    /// `views` of every reference photo.
    ///
    /// Vote settings are chosen by `folds`-fold cross-validation: a photo is always scored with settings
    /// calibrated on the other folds, so no score uses a threshold fitted on the photo itself.
    public static func run(
        vocabulary: [String], references: [LabelledPhoto], queries: [DistortedQuery],
        extractors: [any ImageFeatureExtractor], views: ReferenceViews = .none, folds: Int = 5,
        concurrency: Int = 2
    ) async throws(LabelBuildError) -> LabelEvaluationReport {
        var outcomes: [Outcome] = []
        let queryPhotos = queries.map { LabelledPhoto(id: $0.path, path: $0.path, labels: []) }
        for extractor in extractors {
            let builder = LabelModelBuilder(extractor: extractor, views: views)
            let referenceFeatures = try await builder.features(of: references, concurrency: concurrency)
            let queryFeatures = try await builder.features(of: queryPhotos, views: ReferenceViews.none,
                                                           concurrency: concurrency).map { $0[0] }
            outcomes.append(try evaluate(vocabulary: vocabulary, references: references,
                                         referenceFeatures: referenceFeatures, queries: queries,
                                         queryFeatures: queryFeatures, builder: builder, folds: folds))
        }
        return LabelEvaluationReport(references: references.count, folds: folds, methods: outcomes.map(\.method),
                                     gains: gains(outcomes, queries: queries))
    }

    /// One extractor's report with the counts of every test photo, in test-photo order.
    struct Outcome {
        let method: LabelEvaluationReport.Method
        let leaveOneOut: [PhotoLabelCounts]
        let distorted: [PhotoLabelCounts]
    }

    /// The first outcome's micro-F1 gain over each other one, on each test set. Distorted queries are
    /// resampled by source photo.
    static func gains(_ outcomes: [Outcome], queries: [DistortedQuery]) -> [LabelEvaluationReport.Gain] {
        guard let first = outcomes.first else { return [] }
        var gains: [LabelEvaluationReport.Gain] = []
        for other in outcomes.dropFirst() {
            let sets: [(String, [PhotoLabelCounts], [PhotoLabelCounts], [Int])] = [
                ("leave-one-out", first.leaveOneOut, other.leaveOneOut, Array(first.leaveOneOut.indices)),
                ("distorted", first.distorted, other.distorted, queries.map(\.source)),
            ]
            for (name, mine, theirs, groups) in sets {
                guard let gain = PairedBootstrap.microF1Gain(method: mine, baseline: theirs, group: groups) else {
                    continue
                }
                gains.append(LabelEvaluationReport.Gain(extractor: first.method.extractor, baseline: other.method.extractor,
                                                        testSet: name, microF1: gain))
            }
        }
        return gains
    }

    /// Evaluates one extractor from precomputed feature vectors.
    static func evaluate(
        vocabulary: [String], references: [LabelledPhoto], referenceFeatures: [[[Float]]],
        queries: [DistortedQuery], queryFeatures: [[Float]], builder: LabelModelBuilder, folds: Int
    ) throws(LabelBuildError) -> Outcome {
        let built = try builder.assemble(vocabulary: vocabulary, photos: references, features: referenceFeatures,
                                         vote: nil)
        let model = built.model
        let foldCount = max(2, min(folds, references.count))
        let foldOf = { (photo: Int) in photo % foldCount }
        let queryTable: NeighbourTable
        do {
            queryTable = try NeighbourTable(queries: queryFeatures, excluded: queries.map { Set(built.positions[$0.source]) },
                                            vectors: model.vectors, dimension: model.extractor.dimension,
                                            rows: model.extractor.rows, depth: VoteCalibration.depth)
        } catch {
            throw LabelBuildError("cannot index the feature vectors: \(error)")
        }
        var leaveOneOut = LabelMetrics()
        var distorted = LabelMetrics()
        var leaveOneOutCounts = [PhotoLabelCounts](repeating: .zero, count: references.count)
        var distortedCounts = [PhotoLabelCounts](repeating: .zero, count: queries.count)
        let queryTruth = queries.map { built.truth[$0.source] }
        for fold in 0..<foldCount {
            let training = references.indices.filter { foldOf($0) != fold }
            let held = references.indices.filter { foldOf($0) == fold }
            let vote = VoteCalibration.calibrate(table: built.table, truth: built.truth, references: model.references,
                                                 labelCount: vocabulary.count, subset: training).vote
            VoteCalibration.evaluate(table: built.table, truth: built.truth, references: model.references,
                                     vocabulary: vocabulary, subset: held, vote: vote, into: &leaveOneOut,
                                     perPhoto: &leaveOneOutCounts)
            let heldQueries = queries.indices.filter { foldOf(queries[$0].source) == fold }
            VoteCalibration.evaluate(table: queryTable, truth: queryTruth, references: model.references,
                                     vocabulary: vocabulary, subset: heldQueries, vote: vote, into: &distorted,
                                     perPhoto: &distortedCounts)
        }
        let method = LabelEvaluationReport.Method(
            extractor: model.extractor.description, k: model.vote.k, weightPower: model.vote.weightPower,
            threshold: model.vote.threshold, leaveOneOut: section(leaveOneOut),
            distorted: queries.isEmpty ? nil : section(distorted))
        return Outcome(method: method, leaveOneOut: leaveOneOutCounts, distorted: distortedCounts)
    }

    static func section(_ metrics: LabelMetrics) -> LabelEvaluationReport.Section {
        LabelEvaluationReport.Section(metrics)
    }
}
