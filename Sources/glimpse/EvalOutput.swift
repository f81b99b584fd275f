// What `glimpse eval` prints: its context, tallies and formats.
import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseEvaluation
import GlimpseImage
import GlimpseIntents
import GlimpseLabels
import GlimpseVision
import GlimpseBasics

/// What an evaluation ran against, printed next to its figures.
struct EvalContext: Encodable {
    var references: Int
    var syntheticReferences: Int
    /// What the synthetic references were made from: `catalog` (perturbed copies of its descriptors) or
    /// `pool of N photos` (``Distractors`` of photos of no catalog place).
    var syntheticFrom: String
    var leftOut: Int
    var referenceSource: String
    var indexBuildMs: Double
    /// Bytes held by the references' descriptors, positions, prints and index (``VisualMatcher/memoryBytes``).
    var indexMemoryBytes: Int
    var acceptScore: Int
    var failedQueries: Int
    /// The print-alone accept line measured for this catalog, when the matcher has null prints.
    var printLine: PrintLine?
    /// Results over the accept line and how many were right, with `--precision`.
    var overLine: OverLineTally?
    /// Label precision/recall/F1 over the queries whose manifest entry lists labels.
    var labels: LabelEvaluationReport.Section?

    enum CodingKeys: String, CodingKey {
        case references
        case syntheticReferences = "synthetic_references"
        case syntheticFrom = "synthetic_from"
        case leftOut = "left_out_places"
        case referenceSource = "reference_source"
        case indexBuildMs = "index_build_ms"
        case indexMemoryBytes = "index_memory_bytes"
        case acceptScore = "accept_score"
        case failedQueries = "failed_queries"
        case printLine = "print_line"
        case overLine = "over_line"
        case labels
    }
}

/// Places and collections over the accept line in whole visual searches, and how many were right.
struct OverLineTally: Encodable {
    var places = 0
    var rightPlaces = 0
    var collections = 0
    var rightCollections = 0

    /// The share of results over the line that are right (1 when there are none).
    var precision: Double {
        let all = places + collections
        return all == 0 ? 1 : Double(rightPlaces + rightCollections) / Double(all)
    }

    /// Counts the results of one query of `expected` (nil: a photo of no catalog place) over the line.
    mutating func add(_ items: [VisualSearchItem], expected: String?) {
        for item in items where item.score >= 0.5 {
            switch item.result {
            case .place(let place):
                places += 1
                if place.id == expected { rightPlaces += 1 }
            case .collection(let collection):
                collections += 1
                if let expected, collection.places.contains(expected) { rightCollections += 1 }
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(precision, forKey: .precision)
        try container.encode(places, forKey: .places)
        try container.encode(rightPlaces, forKey: .rightPlaces)
        try container.encode(collections, forKey: .collections)
        try container.encode(rightCollections, forKey: .rightCollections)
    }

    enum CodingKeys: String, CodingKey {
        case precision, places, collections
        case rightPlaces = "right_places"
        case rightCollections = "right_collections"
    }
}

/// The print-alone accept line of an evaluation's catalog (``PrintCalibration``), as reported.
struct PrintLine: Encodable {
    var evidence: Double
    var falseMatchRate: Double
    var nulls: Int
    var nullsOver: Int
    var places: Int
    var nullsLeftOut: Int
    var catalogViews: Int
    var lookAlikeLines: Int
    /// How long measuring the line took, in milliseconds of wall time.
    var measureMs: Double

    init(_ calibration: PrintCalibration, measureMs: Double) {
        self.measureMs = measureMs
        evidence = calibration.threshold
        falseMatchRate = calibration.falseMatchRate
        nulls = calibration.nullCount
        nullsOver = calibration.nullsOverLine
        places = calibration.places
        nullsLeftOut = calibration.nullsLeftOut
        catalogViews = calibration.catalogViewsMeasured
        lookAlikeLines = calibration.raisedLines.count
    }

    enum CodingKeys: String, CodingKey {
        case evidence
        case falseMatchRate = "false_match_rate"
        case nulls
        case nullsOver = "nulls_over"
        case places
        case nullsLeftOut = "nulls_left_out"
        case catalogViews = "catalog_views"
        case lookAlikeLines = "look_alike_lines"
        case measureMs = "measure_ms"
    }
}

/// Formatting of `glimpse eval` results.
enum EvalOutput {
    static let stages = ["decode", "features", "mirror_features", "shortlist", "verification", "featureprint", "total"]

    /// The summary and its context merged into one JSON object (sorted keys).
    static func json(_ summary: EvaluationSummary, _ context: EvalContext) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var object = try JSONSerialization.jsonObject(with: encoder.encode(summary)) as? [String: Any] ?? [:]
        let extra = try JSONSerialization.jsonObject(with: encoder.encode(context)) as? [String: Any] ?? [:]
        object.merge(extra) { a, _ in a }
        if let labels = context.labels { object["label_f1"] = labels.micro.f1 }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A human-readable report.
    static func text(_ s: EvaluationSummary, _ c: EvalContext, manifest: String) -> String {
        func f(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }
        var lines: [String] = []
        lines.append("manifest   \(manifest)")
        lines.append("references \(c.references) (\(c.referenceSource)\(c.syntheticReferences > 0 ? ", \(c.syntheticReferences) synthetic from the \(c.syntheticFrom)" : "")\(c.leftOut > 0 ? ", \(c.leftOut) places left out" : "")), index built in \(f(c.indexBuildMs, 0)) ms, \(c.indexMemoryBytes / max(1, c.references)) bytes per reference")
        lines.append("queries    \(s.queries) (\(s.placeQueries) of catalog places, \(s.noPlaceQueries) of no place)")
        lines.append("recall@1   \(f(s.recallAt1))")
        lines.append("recall@5   \(f(s.recallAt5))")
        lines.append("false-match rate \(f(s.falseMatchRate)) (no-place queries given a place; accept score \(c.acceptScore))")
        if let line = c.printLine {
            lines.append("print line evidence \(f(line.evidence)) over \(line.places) places: \(line.nullsOver) of \(line.nulls) null prints over it (target \(f(line.falseMatchRate))); \(line.nullsLeftOut) left out as catalog photos; \(line.lookAlikeLines) places with a raised line (\(line.catalogViews) catalog views measured; measured in \(Int(line.measureMs)) ms)")
        } else {
            lines.append("print line none (no null prints beside the feature-print model): the print alone accepts nothing")
        }
        if let over = c.overLine {
            lines.append("precision over the line \(f(over.precision)) (places \(over.rightPlaces) of \(over.places) right, collections \(over.rightCollections) of \(over.collections))")
        }
        lines.append("wrong-match rate \(f(s.wrongMatchRate)) (place queries given another place)")
        lines.append("latency ms      wall p50   wall p99    cpu p50    cpu p99")
        for stage in stages {
            guard let w = s.latencyMs[stage], let u = s.cpuMs[stage] else { continue }
            lines.append(stage.padding(toLength: 14, withPad: " ", startingAt: 0)
                + [w.p50, w.p99, u.p50, u.p99].map { f($0, 2).leftPadded(11) }.joined())
        }
        lines.append("recall@1 by distortion:")
        for (bucket, r) in s.recallByOp.sorted(by: { $0.key < $1.key }) {
            lines.append("  " + bucket.padding(toLength: 34, withPad: " ", startingAt: 0) + f(r.recallAt1) + "  (\(r.queries))")
        }
        if let labels = c.labels { lines.append("labels     " + labels.summaryLine) }
        if c.failedQueries > 0 { lines.append("\(c.failedQueries) queries failed to decode") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// One JSON line per evaluation query with every candidate's evidence, for calibrating ``MatchDecision``.
enum CandidateDump {
    static func line(entry: ManifestEntry, expected: String?, report: MatchReport) -> String {
        let candidates: [[String: Any]] = report.candidates.map { c in
            var o: [String: Any] = ["id": c.referenceID, "verified": c.verified, "score": c.score,
                                    "inliers": c.inliers, "votes": c.votes, "confidence": c.confidence,
                                    "mirrored": c.mirrored]
            if let similarity = c.similarity { o["similarity"] = similarity }
            if let margin = c.margin { o["margin"] = margin }
            return o
        }
        let object: [String: Any] = [
            "query": entry.path, "expected": expected ?? NSNull(), "accepted": report.accepted?.referenceID ?? NSNull(),
            "candidates": candidates,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
