/// Precision, recall and F1 of a set of predictions.
public struct LabelScore: Sendable, Hashable, Codable {
    /// Share of predicted labels that were right (0 when nothing was predicted).
    public let precision: Double
    /// Share of true labels that were predicted (0 when there were none).
    public let recall: Double
    /// Harmonic mean of precision and recall (0 when both are 0).
    public let f1: Double

    /// The scores of `truePositives`, `falsePositives` and `falseNegatives`.
    public init(truePositives: Int, falsePositives: Int, falseNegatives: Int) {
        let predicted = truePositives + falsePositives
        let actual = truePositives + falseNegatives
        precision = predicted == 0 ? 0 : Double(truePositives) / Double(predicted)
        recall = actual == 0 ? 0 : Double(truePositives) / Double(actual)
        f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }

    /// Creates scores from their values (for averages).
    public init(precision: Double, recall: Double, f1: Double) {
        self.precision = precision
        self.recall = recall
        self.f1 = f1
    }
}

/// Counts for one label across many photos.
public struct LabelCounts: Sendable, Hashable, Codable {
    /// The label.
    public let label: String
    /// Photos that have the label and got it.
    public internal(set) var truePositives = 0
    /// Photos that got the label without having it.
    public internal(set) var falsePositives = 0
    /// Photos that have the label but did not get it.
    public internal(set) var falseNegatives = 0

    /// Photos that truly have the label.
    public var support: Int { truePositives + falseNegatives }
    /// Precision, recall and F1 for this label.
    public var score: LabelScore {
        LabelScore(truePositives: truePositives, falsePositives: falsePositives, falseNegatives: falseNegatives)
    }
}

/// Accumulates multi-label predictions against true labels and reports precision, recall and F1 per
/// label, micro-averaged (over all photo–label pairs) and macro-averaged (over labels).
///
/// Feed it one photo at a time with ``add(predicted:truth:)``; labels are compared as strings.
public struct LabelMetrics: Sendable, Codable {
    /// Per-label counts, by label.
    public private(set) var counts: [String: LabelCounts] = [:]
    /// Number of photos added.
    public private(set) var photoCount = 0
    /// Photos whose predicted label set equals the true one exactly.
    public private(set) var exactMatches = 0

    /// An empty accumulator.
    public init() {}

    /// Records one photo's predicted labels against its true labels.
    public mutating func add<P: Sequence<String>, T: Sequence<String>>(predicted: P, truth: T) {
        let predictedSet = Set(predicted)
        let truthSet = Set(truth)
        photoCount += 1
        if predictedSet == truthSet { exactMatches += 1 }
        for label in predictedSet.union(truthSet) {
            var entry = counts[label] ?? LabelCounts(label: label)
            switch (predictedSet.contains(label), truthSet.contains(label)) {
            case (true, true): entry.truePositives += 1
            case (true, false): entry.falsePositives += 1
            case (false, true): entry.falseNegatives += 1
            case (false, false): break
            }
            counts[label] = entry
        }
    }

    /// Adds the counts of `other`.
    public mutating func merge(_ other: LabelMetrics) {
        photoCount += other.photoCount
        exactMatches += other.exactMatches
        for (label, entry) in other.counts {
            var mine = counts[label] ?? LabelCounts(label: label)
            mine.truePositives += entry.truePositives
            mine.falsePositives += entry.falsePositives
            mine.falseNegatives += entry.falseNegatives
            counts[label] = mine
        }
    }

    /// Scores over every photo–label pair.
    public var micro: LabelScore {
        let all = counts.values
        return LabelScore(truePositives: all.reduce(0) { $0 + $1.truePositives },
                          falsePositives: all.reduce(0) { $0 + $1.falsePositives },
                          falseNegatives: all.reduce(0) { $0 + $1.falseNegatives })
    }

    /// The mean of the per-label scores over labels that some photo truly has.
    public var macro: LabelScore {
        let present = counts.values.filter { $0.support > 0 }
        guard !present.isEmpty else { return LabelScore(precision: 0, recall: 0, f1: 0) }
        let n = Double(present.count)
        return LabelScore(precision: present.reduce(0) { $0 + $1.score.precision } / n,
                          recall: present.reduce(0) { $0 + $1.score.recall } / n,
                          f1: present.reduce(0) { $0 + $1.score.f1 } / n)
    }

    /// Per-label counts, most frequent true label first (ties by name).
    public var perLabel: [LabelCounts] {
        counts.values.sorted { $0.support > $1.support || ($0.support == $1.support && $0.label < $1.label) }
    }
}

/// One test photo's label counts: how many of its labels were right, wrong or missed.
public struct PhotoLabelCounts: Sendable, Hashable, Codable {
    /// Labels predicted that the photo has.
    public var truePositives: Int
    /// Labels predicted that the photo does not have.
    public var falsePositives: Int
    /// Labels the photo has that were not predicted.
    public var falseNegatives: Int

    /// Creates counts.
    public init(truePositives: Int, falsePositives: Int, falseNegatives: Int) {
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
    }

    /// The counts of `predicted` against `truth`.
    public init<P: Sequence<String>, T: Sequence<String>>(predicted: P, truth: T) {
        let predictedSet = Set(predicted)
        let truthSet = Set(truth)
        truePositives = predictedSet.intersection(truthSet).count
        falsePositives = predictedSet.count - truePositives
        falseNegatives = truthSet.count - truePositives
    }

    /// The counts of both.
    package static func + (lhs: Self, rhs: Self) -> Self {
        Self(truePositives: lhs.truePositives + rhs.truePositives, falsePositives: lhs.falsePositives + rhs.falsePositives,
             falseNegatives: lhs.falseNegatives + rhs.falseNegatives)
    }

    /// No labels at all.
    package static let zero = Self(truePositives: 0, falsePositives: 0, falseNegatives: 0)

    /// The micro F1 of these counts.
    package var microF1: Double {
        LabelScore(truePositives: truePositives, falsePositives: falsePositives, falseNegatives: falseNegatives).f1
    }
}
