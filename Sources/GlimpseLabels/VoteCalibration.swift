package import GlimpseIndex

/// The nearest reference rows of each row of each query, nearest first: the input of the vote, of
/// calibration and of leave-one-out evaluation.
package struct NeighbourTable: Sendable {
    /// `lists[query][row]`: up to `depth` (reference position, squared distance) pairs.
    let lists: [[[(position: Int, squaredDistance: Float)]]]

    /// Neighbours of the rows of each query, ignoring for query `i` the references in `excluded[i]`.
    package init(queries: [[Float]], excluded: [Set<Int>], vectors: [Float], dimension: Int, rows: Int,
         depth: Int) throws(IndexError) {
        let index = try FlatIndex(dimension: dimension, metric: .squaredEuclidean, rowMajor: vectors)
        var lists: [[[(position: Int, squaredDistance: Float)]]] = []
        lists.reserveCapacity(queries.count)
        for (query, skip) in zip(queries, excluded) {
            lists.append(try Self.search(index, query: query, skip: skip, dimension: dimension, rows: rows, depth: depth))
        }
        self.lists = lists
    }

    /// For each row of `query`, its `depth` nearest rows of references not in `skip`.
    static func search(
        _ index: some NearestNeighborIndex, query: [Float], skip: Set<Int>, dimension: Int, rows: Int, depth: Int
    ) throws(IndexError) -> [[(position: Int, squaredDistance: Float)]] {
        let want = min(index.count, depth + skip.count * rows)
        var result: [[(position: Int, squaredDistance: Float)]] = []
        result.reserveCapacity(query.count / dimension)
        try query.withUnsafeBufferPointer { (all) throws(IndexError) in
            for row in 0..<(all.count / dimension) {
                let found = try index.search(UnsafeBufferPointer(rebasing: all[(row * dimension)..<((row + 1) * dimension)]),
                                             k: want)
                result.append(found.lazy.map { (position: $0.id / rows, squaredDistance: $0.distance) }
                    .filter { !skip.contains($0.position) }.prefix(depth).map { $0 })
            }
        }
        return result
    }
}

/// Chooses vote settings (k, distance weighting, threshold) that maximise micro-averaged F1.
package enum VoteCalibration {
    static let kChoices = [3, 5, 7, 9, 11, 15, 21, 31]
    static let powerChoices: [Float] = [-1, 0, 1, 2]
    static let thresholdChoices: [Float] = stride(from: 0.10, through: 0.901, by: 0.0125).map { Float($0) }
    /// Whether calibration gives frequent labels their own thresholds.
    nonisolated(unsafe) package static var perLabelThresholds = true
    /// Neighbours needed for the largest k.
    package static var depth: Int { kChoices.max() ?? 31 }

    /// The settings with the best micro F1 when the queries at `subset` are labelled from
    /// `table.lists` and compared with `truth`, and that F1. Ties go to the first in grid order.
    package static func calibrate(
        table: NeighbourTable, truth: [[Int]], references: [LabelledReference], labelCount: Int, subset: [Int],
        perLabel: Bool = perLabelThresholds
    ) -> (vote: VoteParameters, f1: Double) {
        var best = (vote: VoteParameters.standard, f1: -1.0)
        for k in kChoices {
            for power in powerChoices {
                let vote = VoteParameters(k: k, weightPower: power, threshold: 1)
                let scores = subset.map {
                    LabelVote.scores(neighbours: table.lists[$0], references: references, labelCount: labelCount,
                                     vote: vote)
                }
                for threshold in thresholdChoices {
                    var tp = 0, fp = 0, fn = 0
                    for (row, query) in zip(scores, subset) {
                        let actual = truth[query]
                        for label in 0..<labelCount {
                            let predicted = row[label] >= threshold
                            let isTrue = actual.contains(label)
                            if predicted && isTrue { tp += 1 } else if predicted { fp += 1 } else if isTrue { fn += 1 }
                        }
                    }
                    let f1 = LabelScore(truePositives: tp, falsePositives: fp, falseNegatives: fn).f1
                    if f1 > best.f1 {
                        best = (VoteParameters(k: k, weightPower: power, threshold: threshold), f1)
                    }
                }
            }
        }
        guard perLabel else { return best }
        return (refinePerLabel(best.vote, table: table, truth: truth, references: references, labelCount: labelCount,
                               subset: subset), best.f1)
    }

    /// Labels with fewer true cases than this in the calibration set keep the global threshold.
    static let minimumSupportForOwnThreshold = 8

    /// Gives each label that is frequent enough its own threshold: the one that maximises micro F1
    /// with every other label's decisions fixed (one pass of coordinate ascent).
    static func refinePerLabel(
        _ vote: VoteParameters, table: NeighbourTable, truth: [[Int]], references: [LabelledReference],
        labelCount: Int, subset: [Int]
    ) -> VoteParameters {
        let scores = subset.map {
            LabelVote.scores(neighbours: table.lists[$0], references: references, labelCount: labelCount, vote: vote)
        }
        var thresholds = [Float](repeating: vote.threshold, count: labelCount)
        func counts(_ label: Int, _ threshold: Float) -> (tp: Int, fp: Int, fn: Int) {
            var tp = 0, fp = 0, fn = 0
            for (row, query) in zip(scores, subset) {
                let predicted = row[label] >= threshold
                let isTrue = truth[query].contains(label)
                if predicted && isTrue { tp += 1 } else if predicted { fp += 1 } else if isTrue { fn += 1 }
            }
            return (tp, fp, fn)
        }
        var perLabel = (0..<labelCount).map { counts($0, vote.threshold) }
        for label in 0..<labelCount {
            let support = perLabel[label].tp + perLabel[label].fn
            guard support >= minimumSupportForOwnThreshold else { continue }
            let others = perLabel.indices.filter { $0 != label }
                .reduce((tp: 0, fp: 0, fn: 0)) { ($0.tp + perLabel[$1].tp, $0.fp + perLabel[$1].fp, $0.fn + perLabel[$1].fn) }
            var bestF1 = -1.0
            for threshold in thresholdChoices {
                let mine = counts(label, threshold)
                let f1 = LabelScore(truePositives: others.tp + mine.tp, falsePositives: others.fp + mine.fp,
                                    falseNegatives: others.fn + mine.fn).f1
                if f1 > bestF1 {
                    bestF1 = f1
                    thresholds[label] = threshold
                    perLabel[label] = mine
                }
            }
        }
        var refined = vote
        refined.labelThresholds = thresholds
        return refined
    }

    /// Accumulates the labels predicted for queries `subset` with `vote` against `truth` into `metrics`.
    package static func evaluate(
        table: NeighbourTable, truth: [[Int]], references: [LabelledReference], vocabulary: [String],
        subset: [Int], vote: VoteParameters, into metrics: inout LabelMetrics
    ) {
        var unused: [PhotoLabelCounts] = []
        evaluate(table: table, truth: truth, references: references, vocabulary: vocabulary, subset: subset,
                 vote: vote, into: &metrics, perPhoto: &unused)
    }

    /// Accumulates as above and also stores each query's own counts at `perPhoto[query]` (when
    /// `perPhoto` has room for it), for paired comparisons between methods.
    package static func evaluate(
        table: NeighbourTable, truth: [[Int]], references: [LabelledReference], vocabulary: [String],
        subset: [Int], vote: VoteParameters, into metrics: inout LabelMetrics, perPhoto: inout [PhotoLabelCounts]
    ) {
        for query in subset {
            let scores = LabelVote.scores(neighbours: table.lists[query], references: references,
                                          labelCount: vocabulary.count, vote: vote)
            let predicted = scores.indices.filter { scores[$0] >= vote.threshold(for: $0) }.map { vocabulary[$0] }
            let actual = truth[query].map { vocabulary[$0] }
            metrics.add(predicted: predicted, truth: actual)
            if perPhoto.indices.contains(query) {
                perPhoto[query] = PhotoLabelCounts(predicted: predicted, truth: actual)
            }
        }
    }
}
