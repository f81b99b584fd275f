import Foundation

/// How the matcher turns a candidate's evidence into a confidence, and so into the accept decision.
///
/// Two kinds of evidence: the verified score `s` (distinct reference keypoints reproduced in one
/// consistent geometry, see ``MatchCandidate/score``) and, when the matcher has a feature printer, the
/// cosine similarity `c` of the query's feature print to the reference's nearest view print, with its
/// margin `m = c − max(r, rivalFloor)` over the most similar other reference `r` (negative when another
/// reference is closer). The floor (0.5, about where unrelated scenes lie) keeps a small catalog, whose
/// few other places are all far from the query, from lending an unrelated scene a large margin.
/// - Without a print the confidence is `s / (s + T)` for the accept score `T`
///   (``VisionConfiguration/acceptScore``): exactly ``acceptLine`` at `s = T`.
/// - With a print it is a logistic model, `1 / (1 + e^−z)` with
///   `z = intercept + scoreWeight · ln(1 + s) + similarityWeight · c + marginWeight · m`, fitted on labelled queries
///   (photos of catalog places and of none) and shifted so that ``acceptLine`` keeps photos of no
///   catalog place out. Either signal can carry a candidate: many reproduced keypoints with a
///   middling print, or a very similar print with a few keypoints for low-texture scenes.
///
/// - With a print and a ``PrintCalibration`` for the catalog (made from ``NullPrints``, photos of no
///   catalog place), the print alone can carry a candidate: its print evidence `e = c + w·m`
///   (``printEvidence(similarity:rival:)``) gives the confidence `σ(printSlope · (e − line))`, and the
///   candidate's confidence is the larger of the two. The line is where at most ``falseMatchRate`` of the
///   null prints land on this catalog, so a confidence of 0.5 or more on the print means "photos of no
///   catalog place reach this far less often than that".
///
/// A candidate is accepted when its confidence reaches ``acceptLine`` and it was verified, or its print
/// confidence alone reaches the line.
public struct MatchDecision: Sendable, Hashable, Codable {
    /// The confidence at which a verified candidate is accepted.
    public static let acceptLine = 0.5

    /// The constant term of the logistic model.
    public var intercept: Double
    /// The weight of `ln(1 + s)`.
    public var scoreWeight: Double
    /// The weight of the print similarity `c`.
    public var similarityWeight: Double
    /// The weight of the similarity margin `m`.
    public var marginWeight: Double
    /// The least rival similarity the margin is measured against.
    public var rivalFloor: Double
    /// The weight `w` of the margin in the print evidence `e = c + w·m`.
    public var printMarginWeight: Double
    /// How fast the print confidence rises through the line, per unit of print evidence.
    public var printSlope: Double
    /// The share of photos of no catalog place the print-alone line lets over it on the catalog served.
    public var falseMatchRate: Double

    /// Creates a decision model from its coefficients.
    public init(
        intercept: Double, scoreWeight: Double, similarityWeight: Double, marginWeight: Double, rivalFloor: Double = 0.5,
        printMarginWeight: Double = 5, printSlope: Double = 10, falseMatchRate: Double = 0.01
    ) {
        self.printMarginWeight = printMarginWeight
        self.printSlope = printSlope
        self.falseMatchRate = falseMatchRate
        self.intercept = intercept
        self.scoreWeight = scoreWeight
        self.similarityWeight = similarityWeight
        self.marginWeight = marginWeight
        self.rivalFloor = rivalFloor
    }

    /// The calibrated model (see `Models/README.md`, "Matching with the feature print").
    public static let `default` = MatchDecision(intercept: -21.5, scoreWeight: 8, similarityWeight: 4, marginWeight: 20)

    /// The confidence, 0…1, of a candidate with verified score `score`, print similarity `similarity`
    /// (`nil` when prints were not compared), when the most similar other reference has similarity `rival`.
    public func confidence(score: Double, similarity: Double?, rival: Double, acceptScore: Int) -> Double {
        let s = max(0, score.isFinite ? score : 0)
        guard let similarity, similarity.isFinite else {
            return s / (s + Double(max(acceptScore, 1)))
        }
        let margin = similarity - max(rival.isFinite ? rival : 0, rivalFloor)
        let z = intercept + scoreWeight * log1p(s) + similarityWeight * similarity + marginWeight * margin
        return 1 / (1 + exp(-z))
    }
}
