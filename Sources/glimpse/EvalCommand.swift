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
        "Add N synthetic references to measure query time against a larger index (made from --distractor-pool's photos when given).",
        visibility: .hidden))
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

    @Option(name: .customLong("shortlist-size"), help: ArgumentHelp(
        "Verify the N references with the most keypoint votes (default 8).", valueName: "N", visibility: .hidden))
    var shortlistSize: Int?

    @Option(name: .customLong("printed-shortlist-tables"), help: ArgumentHelp(
        "With a feature printer, the first keypoint shortlist looks in N of the hash tables (default 4).",
        valueName: "N", visibility: .hidden))
    var printedShortlistTables: Int?

    @Option(name: .customLong("lsh-bucket-cap"), help: ArgumentHelp(
        "The keypoint shortlist skips hash buckets holding more than N descriptors (default 64, with --keypoint-slots 256; 0: none skipped).",
        valueName: "N", visibility: .hidden))
    var lshBucketCap: Int?

    @Option(name: .customLong("lsh-contiguous-line"), help: ArgumentHelp(
        "Read hash buckets holding more than N descriptors (and no more than the bucket cap) from contiguous copies of their descriptors (default 32, with --keypoint-slots 64; 0: no copies).",
        valueName: "N", visibility: .hidden))
    var lshContiguousLine: Int?

    @Option(name: .customLong("indexed-keypoint-centre"), help: ArgumentHelp(
        "With --keypoint-slots: choose the indexed keypoints from the centred box of this share of each side (default 0.4; 1: the whole picture).",
        valueName: "share", visibility: .hidden))
    var indexedKeypointCentre: Double?

    @Option(name: .customLong("print-vote-depth"), help: ArgumentHelp(
        "With print codes: verify the most-voted references among the N groups nearest by print too (default 64, 0: off).",
        valueName: "N", visibility: .hidden))
    var printVoteDepth: Int?

    @Option(name: .customLong("print-agreement-depth"), help: ArgumentHelp(
        "In the compact regime with print codes: rank the N groups nearest by print by keypoint agreement when the print's own nearest do not decide (default 64, 0: off).",
        valueName: "N", visibility: .hidden))
    var printAgreementDepth: Int?

    @Option(name: .customLong("print-code-line"), help: ArgumentHelp(
        "Keep the references' print views as one-bit codes in an inverted file once they number at least N (default 4096).",
        valueName: "N", visibility: .hidden))
    var printCodeLine: Int?

    @Option(name: .customLong("print-code-probe"), help: ArgumentHelp(
        "With print codes: lists probed per query (default 8).", valueName: "N", visibility: .hidden))
    var printCodeProbe: Int?

    @Option(name: .customLong("print-code-shortlist"), help: ArgumentHelp(
        "With print codes: codes whose similarity is estimated per query (default 1024).", valueName: "N", visibility: .hidden))
    var printCodeShortlist: Int?

    @Flag(name: .customLong("check-distractors"), help: ArgumentHelp(
        "Instead of evaluating, check that distractors (made from the catalog, or from --distractor-pool) lie as close to the manifest's photos (of no catalog place) as the catalog's photos do.",
        visibility: .hidden))
    var checkDistractors = false

    @Option(name: .customLong("measure-edits"), help: ArgumentHelp(
        "Instead of evaluating, apply N edits to the loaded catalog (each a new place whose photo is the next manifest picture) and report what each update costs and whether the next query finds it.",
        valueName: "N", visibility: .hidden))
    var measureEdits: Int?

    @Option(name: .customLong("distractor-pool"), help: ArgumentHelp(
        "A manifest of real photos of no catalog place to make the checks' distractors from, instead of the catalog's photos.",
        valueName: "manifest", visibility: .hidden))
    var distractorPool: String?

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
        // --keypoint-slots, --reference-keypoints, --indexed-keypoints and --lsh-tables: the engine options'.
        var vision = engine.largeCatalog.applied(to: .default)
        if let acceptScore { vision.acceptScore = acceptScore }
        if let decisiveScore { vision.decisiveScore = decisiveScore }
        if let printShortlist { vision.printShortlistSize = printShortlist }
        if let referenceKeypointGrid { vision.referenceKeypointGrid = referenceKeypointGrid }
        if let shortlistSize { vision.shortlistSize = shortlistSize }
        if let printCodeLine { vision.printCodeLine = printCodeLine }
        if let printVoteDepth { vision.printVoteDepth = printVoteDepth }
        if let printAgreementDepth { vision.printAgreementDepth = printAgreementDepth }
        if let lshBucketCap { vision.lshBucketCap = lshBucketCap }
        if let lshContiguousLine { vision.lshContiguousBucketLine = lshContiguousLine }
        if let indexedKeypointCentre { vision.indexedKeypointCentre = indexedKeypointCentre }
        if let printCodeProbe { vision.printCodeProbe = printCodeProbe }
        if let printCodeShortlist { vision.printCodeShortlist = printCodeShortlist }
        if let printedShortlistTables { vision.printedShortlistTables = printedShortlistTables }
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
        let pool = try distractorPoolPhotos()
        let indexStart = StageInstant.now()
        let loaded: Engine
        do {
            loaded = try await engine.load(command: "eval") { configuration in
                configuration.vision = vision
                configuration.placeIDs = placeIDs
                configuration.syntheticReferences = syntheticReferences
                configuration.distractorPool = pool
                if syntheticReferences > 0 || configuration.matcherIndex != nil {
                    configuration.buildProgress = { step in
                        FileHandle.standardError.write(Data("glimpse eval: building the matcher: \(step)\n".utf8))
                    }
                }
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
        if let measureEdits {
            try await runEditMeasurement(loaded, entries: entries, count: measureEdits)
            return
        }
        let generation = loaded.current
        guard let matcher = generation.matcher else { throw IntentsCommandError("the engine built no matcher") }
        let labeler = loaded.labeler
        let printer = loaded.featurePrinter
        if let problem = generation.cacheProblem { FileHandle.standardError.write(Data("note: \(problem)\n".utf8)) }
        let calibration = matcher.printCalibration
        // What measuring the line costs this catalog (at load, and in the background after each edit).
        let measuring = StageInstant.now()
        if calibration != nil { _ = matcher.measureCalibration() }
        let measureMs = measuring.elapsed(to: .now()).wall.milliseconds
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
            syntheticFrom: pool.map { "pool of \($0.count) photos" } ?? "catalog",
            leftOut: places.count - indexed.count, referenceSource: generation.referenceSource?.rawValue ?? "none",
            indexBuildMs: indexMs, indexMemoryBytes: matcher.memoryBytes, acceptScore: vision.acceptScore,
            failedQueries: failures, printLine: calibration.map { PrintLine($0, measureMs: measureMs) }, overLine: precision ? overLine : nil,
            labels: labeler == nil ? nil : LabelEvaluationReport.Section(labelMetrics))
        if json {
            print(try EvalOutput.json(summary, context))
        } else {
            print(EvalOutput.text(summary, context, manifest: queries))
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
