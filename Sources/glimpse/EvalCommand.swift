import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseEvaluation
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseIntents
import GlimpseLabels
import GlimpseVision
import GlimpseBasics

/// `glimpse eval`: the accuracy and latency harness of visual matching.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure how well photos are matched to their catalog places.",
        discussion: """
            MANIFEST is a JSON array of {"query": path relative to the manifest, "place_id": id or null, \
            "labels": [...], "ops": [...]} objects, as written by distort.py. A null place_id means the \
            photo shows no catalog place and must come back as no match. Prints recall@1 (the accepted \
            place is right), recall@5 (the place is among the first five candidates), the false-match \
            rate on the null queries, latency per stage (decode at reduced scale, features, the mirror \
            image's features, shortlist, verification, the feature print, total) as p50/p99 on the wall \
            clock and in thread CPU time, the index's memory, and recall@1 per distortion bucket. Queries \
            run one at a time on one thread.
            """
    )

    @OptionGroup var engine: EngineOptions

    @Option(help: "The query manifest (JSON).")
    var queries: String

    @Flag(help: "Print one JSON object with recall_at_1, recall_at_5, false_match_rate, queries, latency_ms, cpu_ms, recall_by_op (and label_f1, labels when the manifest lists labels).")
    var json = false

    @Option(name: .customLong("leave-out"),
            help: "Leave every Nth catalog place out of the index; queries of those places must then match nothing.")
    var leaveOut: Int?

    @Option(name: .customLong("synthetic-references"), help: ArgumentHelp(
        "Add N synthetic references to measure query time against a larger index.", visibility: .hidden))
    var syntheticReferences: Int = 0

    @Option(name: .customLong("accept-score"), help: ArgumentHelp("Override the decision threshold.", visibility: .hidden))
    var acceptScore: Int?

    @Option(name: .customLong("decisive-score"), help: ArgumentHelp(
        "Override the score above which the feature print is skipped (a large value always computes it).",
        visibility: .hidden))
    var decisiveScore: Int?

    @Option(name: .customLong("print-shortlist"), help: ArgumentHelp(
        "Override how many references nearest by feature print are verified besides the keypoint shortlist.",
        visibility: .hidden))
    var printShortlist: Int?

    @Option(name: .customLong("decision"), help: ArgumentHelp(
        "Override the accept model as INTERCEPT,SCOREWEIGHT,SIMILARITYWEIGHT,MARGINWEIGHT,RIVALFLOOR (see MatchDecision).", visibility: .hidden))
    var decision: String?

    @Option(name: .customLong("false-match-rate"), help: """
        The share of photos of no catalog place (the null prints beside the feature-print model) the \
        print-alone accept line lets over it on this catalog (default 0.01).
        """)
    var falseMatchRate: Double?

    @Option(name: .customLong("print-evidence"), help: ArgumentHelp(
        "Override the print evidence as MARGINWEIGHT,SLOPE (e = c + w·m; confidence σ(slope·(e − line))).",
        visibility: .hidden))
    var printEvidence: String?

    @Option(name: .customLong("min-score"), help: """
        Count the first candidate at or above this confidence as the answer instead of the accepted one \
        (0 takes the first candidate whatever its score; default: the accept line, 0.5, as served).
        """)
    var minScore: Double?

    @Flag(name: .customLong("precision"), help: """
        Also run the whole visual search for each query (outside the timings) and report the precision over \
        the accept line: the share of places and collections scoring 0.5 or more that are right (the place \
        shown, or a collection holding it; for a photo of no catalog place every one is wrong).
        """)
    var precision = false

    @Option(name: .customLong("reference-keypoint-grid"), help: ArgumentHelp(
        "Override the grid reference photos spread their keypoints over, cells a side (1 keeps the strongest).",
        visibility: .hidden))
    var referenceKeypointGrid: Int?

    @Option(name: .customLong("reference-keypoints"), help: ArgumentHelp(
        "Keep at most this many keypoints per reference photo, chosen from those extracted (queries keep theirs).",
        visibility: .hidden))
    var referenceKeypoints: Int?

    @Flag(name: .customLong("check-distractors"), help: ArgumentHelp(
        "Instead of evaluating, check that distractors made from the catalog lie as close to the manifest's photos (of no catalog place) as the catalog's photos do.",
        visibility: .hidden))
    var checkDistractors = false

    @Option(name: .customLong("dump-candidates"), help: ArgumentHelp(
        "Write one JSON line per query with every candidate's score, print similarity and confidence (for calibration).",
        visibility: .hidden))
    var dumpCandidates: String?

    func validate() throws {
        if let leaveOut, leaveOut < 2 { throw ValidationError("--leave-out must be at least 2, got \(leaveOut)") }
        if let falseMatchRate, !(0...1).contains(falseMatchRate) {
            throw ValidationError("--false-match-rate must lie in 0…1, got \(falseMatchRate)")
        }
        if let minScore, !(0...1).contains(minScore) { throw ValidationError("--min-score must lie in 0…1, got \(minScore)") }
        if syntheticReferences < 0 { throw ValidationError("--synthetic-references must be at least 0") }
    }

    func run() async throws {
        var vision = VisionConfiguration.default
        if let acceptScore { vision.acceptScore = acceptScore }
        if let decisiveScore { vision.decisiveScore = decisiveScore }
        if let printShortlist { vision.printShortlistSize = printShortlist }
        if let referenceKeypointGrid { vision.referenceKeypointGrid = referenceKeypointGrid }
        if let referenceKeypoints { vision.referenceKeypointLimit = referenceKeypoints }
        if let decision {
            let parts = decision.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 5 else { throw ValidationError("--decision takes five numbers, got \(decision)") }
            vision.decision = MatchDecision(intercept: parts[0], scoreWeight: parts[1], similarityWeight: parts[2],
                                            marginWeight: parts[3], rivalFloor: parts[4])
        }
        if let falseMatchRate { vision.decision.falseMatchRate = falseMatchRate }
        if let printEvidence {
            let parts = printEvidence.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2 else { throw ValidationError("--print-evidence takes two numbers, got \(printEvidence)") }
            vision.decision.printMarginWeight = parts[0]
            vision.decision.printSlope = parts[1]
        }
        try vision.validate()
        let entries = try QueryManifest.load(path: queries)
        let places = try Catalog.load(directory: engine.catalog).places
        var placeIDs: Set<String>?
        if let leaveOut {
            placeIDs = Set(places.enumerated().filter { $0.offset % leaveOut != 0 }.map(\.element.id))
        }
        let indexStart = StageInstant.now()
        let loaded: Engine
        do {
            loaded = try await engine.load { configuration in
                configuration.vision = vision
                configuration.placeIDs = placeIDs
                configuration.syntheticReferences = syntheticReferences
                // A subset of the places would replace the catalog's shared cache file: only a named one is used.
                if placeIDs != nil && engine.featureCache.path == nil { configuration.featureCache = nil }
                if !entries.contains(where: { !$0.labels.isEmpty }) { configuration.labelModel = .off }
            }
        } catch {
            throw IntentsCommandError(error.description)
        }
        if checkDistractors {
            try await runDistractorCheck(loaded, places: places, vision: vision, entries: entries)
            return
        }
        let generation = loaded.current
        guard let matcher = generation.matcher else { throw IntentsCommandError("the engine built no matcher") }
        let labeler = loaded.labeler
        let printer = loaded.featurePrinter
        if let problem = generation.cacheProblem { FileHandle.standardError.write(Data("note: \(problem)\n".utf8)) }
        let calibration = matcher.printCalibration
        var labelMetrics = LabelMetrics()
        var dump: [String] = []
        let indexMs = indexStart.elapsed(to: .now()).wall.milliseconds
        let indexed = placeIDs ?? Set(places.map(\.id))

        var accumulator = EvaluationAccumulator()
        var overLine = OverLineTally()
        var failures = 0
        let options = loaded.decodingOptions
        for entry in entries {
            let expected = entry.placeID.flatMap { indexed.contains($0) ? $0 : nil }
            let start = StageInstant.now()
            let buffer: PixelBuffer
            do {
                buffer = try ImageDecoder.decode(contentsOfFile: entry.path, options: options).pixelBuffer
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("error: \(entry.path): \(error)\n".utf8))
                continue
            }
            let decode = start.elapsed(to: .now())
            let report = matcher.match(buffer, limit: dumpCandidates == nil ? 5 : 24)
            if let labeler, !entry.labels.isEmpty {
                labelMetrics.add(predicted: labeler.labels(for: buffer).map(\.label), truth: entry.labels)
            }
            let t = report.timings
            var stages = ["decode": decode.wall, "features": t.features, "mirror_features": t.mirrorFeatures,
                          "shortlist": t.shortlist,
                          "verification": t.verification, "total": decode.wall + t.total]
            var stagesCPU = ["decode": decode.cpu, "features": t.featuresCPU, "mirror_features": t.mirrorFeaturesCPU,
                             "shortlist": t.shortlistCPU,
                             "verification": t.verificationCPU, "total": decode.cpu + t.totalCPU]
            if printer != nil {
                stages["featureprint"] = t.featurePrint
                stagesCPU["featureprint"] = t.featurePrintCPU
            }
            let answer = minScore.map { line in report.candidates.first { $0.confidence >= line } }
                ?? report.accepted
            accumulator.add(QueryOutcome(
                expected: expected, accepted: answer?.referenceID, ranked: report.candidates.prefix(5).map(\.referenceID),
                stageMs: stages.mapValues(\.milliseconds), stageCPUMs: stagesCPU.mapValues(\.milliseconds), ops: entry.ops))
            if dumpCandidates != nil { dump.append(CandidateDump.line(entry: entry, expected: expected, report: report)) }
            if precision {
                let page = try await loaded.search(SemanticContentDescriptor(pixelBuffer: buffer), limit: 100)
                overLine.add(page.items, expected: expected)
            }
        }
        if let dumpCandidates {
            try Data((dump.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dumpCandidates))
        }
        let summary = accumulator.summary()
        let context = EvalContext(
            references: matcher.referenceCount, syntheticReferences: syntheticReferences,
            leftOut: places.count - indexed.count, referenceSource: generation.referenceSource?.rawValue ?? "none",
            indexBuildMs: indexMs, indexMemoryBytes: matcher.memoryBytes, acceptScore: vision.acceptScore,
            failedQueries: failures, printLine: calibration.map(PrintLine.init), overLine: precision ? overLine : nil,
            labels: labeler == nil ? nil : LabelEvaluationReport.Section(labelMetrics))
        if json {
            print(try EvalOutput.json(summary, context))
        } else {
            print(EvalOutput.text(summary, context, manifest: queries))
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

extension EvalCommand {
    /// `--check-distractors`: the catalog's features (from the feature cache), the prints of the
    /// manifest's photos, and ``DistractorCheck``.
    func runDistractorCheck(_ loaded: Engine, places: [PlaceEntity], vision: VisionConfiguration, entries: [ManifestEntry]) async throws {
        guard let printer = loaded.featurePrinter else {
            throw IntentsCommandError("--check-distractors needs the feature-print model (Models/featureprint.glimpsemodel)")
        }
        let photos = places.flatMap { place in place.photos.map { ReferencePhoto(id: place.id, path: $0.path) } }
        let references: [ImageFeatures]
        do {
            references = try ReferenceLoader.load(
                photos: photos, configuration: vision, cachePath: engine.featureCache.prepare(catalogDirectory: engine.catalog),
                cacheIsOptional: true, threads: max(1, ProcessInfo.processInfo.activeProcessorCount), printer: printer
            ).references.map(\.features)
        } catch {
            throw IntentsCommandError(error.description)
        }
        var probes: [FeaturePrint] = []
        for entry in entries where entry.placeID == nil {
            let buffer = try ImageDecoder.decode(contentsOfFile: entry.path, options: loaded.decodingOptions).pixelBuffer
            probes.append(try printer.featurePrint(of: buffer))
        }
        guard !probes.isEmpty else { throw IntentsCommandError("the manifest lists no photo of no catalog place (place_id null)") }
        let check = try DistractorCheck.run(references: references, probes: probes, seed: 0x4449_5354)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(check), as: UTF8.self))
        } else {
            print(check.text)
        }
    }
}

/// What an evaluation ran against, printed next to its figures.
struct EvalContext: Encodable {
    var references: Int
    var syntheticReferences: Int
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

    init(_ calibration: PrintCalibration) {
        evidence = calibration.threshold
        falseMatchRate = calibration.falseMatchRate
        nulls = calibration.nullCount
        nullsOver = calibration.nullsOverLine
        places = calibration.places
    }

    enum CodingKeys: String, CodingKey {
        case evidence
        case falseMatchRate = "false_match_rate"
        case nulls
        case nullsOver = "nulls_over"
        case places
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
        lines.append("references \(c.references) (\(c.referenceSource)\(c.syntheticReferences > 0 ? ", \(c.syntheticReferences) synthetic" : "")\(c.leftOut > 0 ? ", \(c.leftOut) places left out" : "")), index built in \(f(c.indexBuildMs, 0)) ms, \(c.indexMemoryBytes / max(1, c.references)) bytes per reference")
        lines.append("queries    \(s.queries) (\(s.placeQueries) of catalog places, \(s.noPlaceQueries) of no place)")
        lines.append("recall@1   \(f(s.recallAt1))")
        lines.append("recall@5   \(f(s.recallAt5))")
        lines.append("false-match rate \(f(s.falseMatchRate)) (no-place queries given a place; accept score \(c.acceptScore))")
        if let line = c.printLine {
            lines.append("print line evidence \(f(line.evidence)) over \(line.places) places: \(line.nullsOver) of \(line.nulls) null prints over it (target \(f(line.falseMatchRate)))")
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
