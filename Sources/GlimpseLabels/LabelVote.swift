import Foundation

/// A label with its score: the distance-weighted share of the nearest references that carry it.
public struct ScoredLabel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The label, from the catalog's vocabulary.
    public let label: String
    /// How strongly the nearest references agree on it, from 0 (none) to 1 (all).
    public let score: Double

    /// Creates a scored label.
    public init(label: String, score: Double) {
        self.label = label
        self.score = score
    }

    /// `label (score)`, the score with two decimals.
    public var description: String {
        let hundredths = Int((score * 100).rounded())
        let fraction = hundredths % 100
        return "\(label) (\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction))"
    }
}

/// The distance-weighted vote of nearest references.
enum LabelVote {
    /// Offset added to distances so an exact duplicate does not get an infinite weight.
    static let distanceOffset: Float = 0.05

    /// Per-label scores in 0…1 from `neighbours[row]` (reference position and squared distance,
    /// nearest first) for each row of the query; only the first `vote.k` of each row vote.
    ///
    /// Each row's voters share one unit of weight, in proportion to their distance weights; a label's
    /// score is the mean over rows of the weight of voters that carry it.
    static func scores(
        neighbours: [[(position: Int, squaredDistance: Float)]],
        references: [LabelledReference],
        labelCount: Int,
        vote: VoteParameters
    ) -> [Float] {
        if vote.weightPower < 0 {
            return contrastScores(neighbours: neighbours, references: references, labelCount: labelCount, k: vote.k)
        }
        var scores = [Float](repeating: 0, count: labelCount)
        var rowScores = [Float](repeating: 0, count: labelCount)
        var rows = 0
        for row in neighbours {
            var total: Float = 0
            for i in rowScores.indices { rowScores[i] = 0 }
            for neighbour in row.prefix(vote.k) {
                let weight = Self.weight(squaredDistance: neighbour.squaredDistance, power: vote.weightPower)
                total += weight
                for label in references[neighbour.position].labels { rowScores[label] += weight }
            }
            guard total > 0 else { continue }
            rows += 1
            for i in scores.indices { scores[i] += rowScores[i] / total }
        }
        guard rows > 0 else { return scores }
        for i in scores.indices { scores[i] = min(1, scores[i] / Float(rows)) }
        return scores
    }

    /// Per-label scores from how much nearer each query row is to rows of references that carry the
    /// label than to rows of references that do not (a local naive-Bayes nearest-neighbour rule).
    ///
    /// For each row, among its `k` nearest reference rows, `near` is the distance to the first that
    /// carries the label and `far` to the first that does not (the `k`-th distance when there is none);
    /// the row contributes `(far − near) / (far + near)`. The score is the mean contribution mapped from
    /// −1…1 to 0…1, so 0.5 means the label makes no difference.
    static func contrastScores(
        neighbours: [[(position: Int, squaredDistance: Float)]],
        references: [LabelledReference],
        labelCount: Int,
        k: Int
    ) -> [Float] {
        var sums = [Float](repeating: 0, count: labelCount)
        var near = [Float](repeating: 0, count: labelCount)
        var far = [Float](repeating: 0, count: labelCount)
        var carries = [Bool](repeating: false, count: labelCount)
        var rows = 0
        for row in neighbours {
            let voters = row.prefix(k)
            guard let last = voters.last else { continue }
            rows += 1
            let background = max(0, last.squaredDistance).squareRoot()
            for i in 0..<labelCount {
                near[i] = -1
                far[i] = -1
            }
            for voter in voters {
                let distance = max(0, voter.squaredDistance).squareRoot()
                for i in 0..<labelCount { carries[i] = false }
                for label in references[voter.position].labels { carries[label] = true }
                for i in 0..<labelCount {
                    if carries[i] {
                        if near[i] < 0 { near[i] = distance }
                    } else if far[i] < 0 {
                        far[i] = distance
                    }
                }
            }
            for i in 0..<labelCount {
                let n = near[i] < 0 ? background : near[i]
                let f = far[i] < 0 ? background : far[i]
                sums[i] += (f - n) / (f + n + 1e-6)
            }
        }
        guard rows > 0 else { return sums }
        return sums.map { ($0 / Float(rows) + 1) / 2 }
    }

    /// `1 / (distance + offset)^power`.
    static func weight(squaredDistance: Float, power: Float) -> Float {
        if power == 0 { return 1 }
        let distance = max(0, squaredDistance).squareRoot() + distanceOffset
        if power == 1 { return 1 / distance }
        if power == 2 { return 1 / (distance * distance) }
        return 1 / Float(Foundation.pow(Double(distance), Double(power)))
    }
}
