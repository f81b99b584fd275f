import GlimpseEvaluation
@testable import GlimpseLabels
import GlimpseTestSupport
import Testing

@Suite("Label votes and metrics")
struct LabelVoteTests {
    // sky = 0, water = 1, tree = 2
    let references = [
        LabelledReference(id: "a", labels: [0, 1]),
        LabelledReference(id: "b", labels: [0]),
        LabelledReference(id: "c", labels: [2]),
    ]

    @Test("equal weights give each label the share of voters that carry it")
    func unweightedShares() {
        let scores = LabelVote.scores(neighbours: [[(0, 1), (1, 4), (2, 9)]], references: references, labelCount: 3,
                                      vote: VoteParameters(k: 3, weightPower: 0, threshold: 0.5))
        #expect(abs(scores[0] - 2.0 / 3) < 1e-6)
        #expect(abs(scores[1] - 1.0 / 3) < 1e-6)
        #expect(abs(scores[2] - 1.0 / 3) < 1e-6)
    }

    @Test("nearer voters weigh more")
    func distanceWeighting() {
        let neighbours: [[(position: Int, squaredDistance: Float)]] = [[(2, 0.01), (0, 1), (1, 1)]]
        let flat = LabelVote.scores(neighbours: neighbours, references: references, labelCount: 3,
                                    vote: VoteParameters(k: 3, weightPower: 0, threshold: 0.5))
        let weighted = LabelVote.scores(neighbours: neighbours, references: references, labelCount: 3,
                                        vote: VoteParameters(k: 3, weightPower: 2, threshold: 0.5))
        #expect(weighted[2] > flat[2])
        #expect(weighted[0] < flat[0])
        // distance 0.1 + 0.05 vs 1 + 0.05: weights 1/0.0225 and 1/1.1025 (twice)
        let near: Float = 1 / (0.15 * 0.15)
        let far: Float = 1 / (1.05 * 1.05)
        #expect(abs(weighted[2] - near / (near + 2 * far)) < 1e-4)
    }

    @Test("only the k nearest vote")
    func onlyKVote() {
        let scores = LabelVote.scores(neighbours: [[(2, 1), (0, 2), (1, 3)]], references: references, labelCount: 3,
                                      vote: VoteParameters(k: 1, weightPower: 1, threshold: 0.5))
        #expect(scores == [0, 0, 1])
    }

    @Test("rows of a region model each share one unit of weight")
    func rowsAverage() {
        let scores = LabelVote.scores(neighbours: [[(0, 1)], [(2, 1)]], references: references, labelCount: 3,
                                      vote: VoteParameters(k: 1, weightPower: 0, threshold: 0.5))
        #expect(scores == [0.5, 0.5, 0.5])
    }

    @Test("per-label thresholds override the global one")
    func perLabelThreshold() {
        let vote = VoteParameters(k: 3, weightPower: 0, threshold: 0.5, labelThresholds: [0.9, 0.2, 0.5])
        #expect(vote.threshold(for: 0) == 0.9)
        #expect(vote.threshold(for: 1) == 0.2)
        #expect(VoteParameters(k: 3, weightPower: 0, threshold: 0.5).threshold(for: 1) == 0.5)
    }

    @Test("the predictor labels a picture by the references nearest to it")
    func predictorOnSyntheticScenes() throws {
        let extractor = SceneFeatureExtractor()
        let skyOverGrass = try TestImages.image(width: 96, height: 64) { _, y in y < 32 ? (90, 150, 230) : (40, 140, 40) }
        let brickWall = try TestImages.image(width: 96, height: 64) { x, y in
            (x / 8 + y / 4) % 2 == 0 ? (150, 60, 40) : (200, 190, 180)
        }
        let vectors = extractor.features(of: skyOverGrass) + extractor.features(of: brickWall)
        let model = try LabelModel(extractor: extractor.descriptor, vote: VoteParameters(k: 1, weightPower: 1, threshold: 0.5),
                                   vocabulary: ["sky", "grass", "building"],
                                   references: [LabelledReference(id: "field", labels: [0, 1]),
                                                LabelledReference(id: "wall", labels: [2])],
                                   vectors: vectors)
        let predictor = LabelPredictor(model: model)
        let query = try TestImages.image(width: 120, height: 80) { x, y in
            y < 36 ? (100, 160, 235) : (50, 150, 45 + UInt8(x % 5))
        }
        #expect(Set(predictor.labels(for: query).map(\.label)) == ["sky", "grass"])
        #expect(predictor.scores(for: query).map(\.label) == ["sky", "grass", "building"])
    }

    @Test("metrics count true and false positives per label and average them")
    func metrics() {
        var metrics = LabelMetrics()
        metrics.add(predicted: ["sky", "water"], truth: ["sky"])
        metrics.add(predicted: ["sky"], truth: ["sky", "tree"])
        metrics.add(predicted: [String](), truth: ["tree"])
        #expect(metrics.photoCount == 3)
        #expect(metrics.exactMatches == 0)
        #expect(metrics.counts["sky"]?.truePositives == 2)
        #expect(metrics.counts["water"]?.falsePositives == 1)
        #expect(metrics.counts["tree"]?.falseNegatives == 2)
        // micro: tp 2, fp 1, fn 2 → P 2/3, R 1/2, F1 4/7
        #expect(abs(metrics.micro.precision - 2.0 / 3) < 1e-9)
        #expect(abs(metrics.micro.recall - 0.5) < 1e-9)
        #expect(abs(metrics.micro.f1 - 4.0 / 7) < 1e-9)
        // macro over labels with support (sky F1 1, tree F1 0)
        #expect(abs(metrics.macro.f1 - 0.5) < 1e-9)
        #expect(LabelEvaluationReport.Section(metrics).summaryLine
            == "micro P 0.667 R 0.500 F1 0.571, macro F1 0.500 (3 photos)")
        var other = LabelMetrics()
        other.add(predicted: ["tree"], truth: ["tree"])
        metrics.merge(other)
        #expect(metrics.counts["tree"]?.truePositives == 1)
        #expect(metrics.photoCount == 4)
        #expect(metrics.exactMatches == 1)
    }
}
