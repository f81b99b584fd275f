import Foundation
import Synchronization
import GlimpseBasics
import GlimpseCatalog
import GlimpseEngine
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseImage
import GlimpseIndex
import GlimpseVision

/// Whether the print index finds the places an exact scan finds (`glimpse eval --check-print-index N`):
/// the catalog's reference views and those of `N` distractors made from them go into a ``PrintIndex``
/// with a binary inverted file; for each manifest photo, the ten groups it returns are compared with the
/// ten of an exact scan over the same quantized rows. Also measured: generating, training, assigning,
/// saving and loading the inverted file, the bytes per reference, and the time of each search.
struct PrintIndexCheck: Encodable {
    /// The pass line: at least this share of the exact scan's ten groups found, on average.
    static let recallLine = 0.98
    /// How many groups are compared per query.
    static let depth = 10
    /// The ranks at which the share of photos whose place is found is reported.
    static let placeRanks = [1, 10, 30, 100]

    /// What the check is asked to build.
    struct Settings {
        var distractors: Int
        var lists: Int
        var search: PrintIndex.Search
        var seed: UInt64
    }

    var references: Int
    var realReferences: Int
    var distractors: Int
    var distractorPool: String
    var views: Int
    var lists: Int
    var probe: Int
    var shortlist: Int
    var queries: Int
    var generateSeconds: Double
    var trainSeconds: Double
    var assignSeconds: Double
    var rowBytesPerReference: Double
    var indexBytesPerReference: Double
    var indexFileBytes: Int
    var saveMs: Double
    var loadMs: Double
    var groupRecall: Double
    var firstAgrees: Double
    /// For each of ``placeRanks``, the share of the photos of a catalog place whose place is among that
    /// many groups of the exact scan, and of the index (empty without such photos).
    var placeWithinExact: [String: Double]
    var placeWithinIndex: [String: Double]
    var exactMs: LatencySummary
    var indexMs: LatencySummary
    var passes: Bool

    enum CodingKeys: String, CodingKey {
        case references, distractors, views, lists, probe, shortlist, queries, passes
        case realReferences = "real_references", distractorPool = "distractor_pool"
        case generateSeconds = "generate_s", trainSeconds = "train_s", assignSeconds = "assign_s"
        case rowBytesPerReference = "row_bytes_per_reference", indexBytesPerReference = "index_bytes_per_reference"
        case indexFileBytes = "index_file_bytes", saveMs = "save_ms", loadMs = "load_ms"
        case groupRecall = "group_recall_at_10", firstAgrees = "first_agrees"
        case placeWithinExact = "place_within_exact", placeWithinIndex = "place_within_index"
        case exactMs = "exact_ms", indexMs = "index_ms"
    }

    /// Runs the check: `catalog` (each reference's group is its place's number in `placeNumbers`), then
    /// `real` (the view prints of real photos of no catalog place, each its own group), then distractors
    /// made from `pool` (the catalog's features when `nil`), and `probes` (each with the place number it
    /// shows, if any); the inverted file is saved to and loaded from a temporary file in `scratch`.
    static func run(
        catalog: [(id: String, features: ImageFeatures)], placeNumbers: [String: Int], real: [[FeaturePrint]],
        pool: [ImageFeatures]?,
        probes: [(print: [Float], place: Int?)], settings: Settings, scratch: String, threads: Int
    ) throws -> PrintIndexCheck {
        guard let dimension = catalog.first?.features.featurePrints.first?.dimension else {
            throw IntentsCommandError("the catalog's references carry no feature prints")
        }
        let start = StageInstant.now()
        var rows = QuantizedRows(dimension: dimension)
        var owners: [UInt32] = []
        var groups: [Int32] = []
        for (r, reference) in catalog.enumerated() {
            for view in reference.features.featurePrints where view.dimension == dimension {
                rows.append(rows: view.values)
                owners.append(UInt32(r))
            }
            groups.append(Int32(placeNumbers[reference.id] ?? 0))
        }
        var nextGroup = Int32(placeNumbers.count)
        for views in real {
            for view in views where view.dimension == dimension {
                rows.append(rows: view.values)
                owners.append(UInt32(groups.count))
            }
            groups.append(nextGroup)
            nextGroup += 1
        }
        let made = try distractorRows(pool ?? catalog.map(\.features), count: settings.distractors, seed: settings.seed,
                                      dimension: dimension, threads: threads)
        let firstDistractor = UInt32(groups.count)
        rows.append(made.rows)
        owners += made.owners.map { firstDistractor + $0 }
        groups += (0..<settings.distractors).map { nextGroup + Int32($0) }
        let generated = start.elapsed(to: .now()).wall

        guard rows.count >= settings.lists else {
            throw IntentsCommandError(
                "--print-index-lists \(settings.lists) is more than the \(rows.count) views to index; give at most \(rows.count)")
        }
        let trainStart = StageInstant.now()
        let model = PrintIndex.trainModel(rows: rows, clusters: settings.lists, seed: settings.seed, threads: threads)
        let trained = trainStart.elapsed(to: .now()).wall
        let assignStart = StageInstant.now()
        let index = PrintIndex(rows: rows, rowReferences: owners, referenceGroups: groups, model: model,
                               search: settings.search, threads: threads)
        let assigned = assignStart.elapsed(to: .now()).wall
        guard let ivf = index.ivf else { throw IntentsCommandError("the print index built no inverted file") }

        let path = scratch + "/print-index-check.ivf"
        let saveStart = StageInstant.now()
        try IndexFile.save(ivf, to: path)
        let saved = saveStart.elapsed(to: .now()).wall
        let fileBytes = AtomicFile.size(of: path) ?? 0
        let loadStart = StageInstant.now()
        let reloaded = try IndexFile.loadBinaryIVF(from: path, expectedDimension: dimension)
        let loaded = loadStart.elapsed(to: .now()).wall
        unlink(path)
        guard reloaded.codes == ivf.codes, reloaded.entryIDs == ivf.entryIDs else {
            throw IntentsCommandError("the inverted file read back differs from the one saved")
        }

        var found = 0, firstSame = 0, positives = 0
        var exactWithin = [Int](repeating: 0, count: placeRanks.count), indexWithin = exactWithin
        let deepest = placeRanks.max() ?? depth
        var exactTimes: [Double] = [], indexTimes: [Double] = []
        for probe in probes {
            let t0 = StageInstant.now()
            let exactDeep = index.exactNearestGroups(to: probe.print, count: deepest)
            let t1 = StageInstant.now()
            let fastDeep = index.nearestGroups(to: probe.print, count: deepest)
            let t2 = StageInstant.now()
            exactTimes.append(t0.elapsed(to: t1).wall.milliseconds)
            indexTimes.append(t1.elapsed(to: t2).wall.milliseconds)
            let exact = exactDeep.prefix(depth), fast = fastDeep.prefix(depth)
            found += Set(fast.map(\.group)).intersection(exact.map(\.group)).count
            if fast.first?.group == exact.first?.group { firstSame += 1 }
            if let place = probe.place {
                positives += 1
                let exactRank = exactDeep.firstIndex { $0.group == place } ?? Int.max
                let indexRank = fastDeep.firstIndex { $0.group == place } ?? Int.max
                for (i, rank) in placeRanks.enumerated() {
                    if exactRank < rank { exactWithin[i] += 1 }
                    if indexRank < rank { indexWithin[i] += 1 }
                }
            }
        }
        let total = catalog.count + real.count + settings.distractors
        let recall = probes.isEmpty ? 0 : Double(found) / Double(probes.count * min(depth, index.groupCount))
        return PrintIndexCheck(
            references: total, realReferences: real.count, distractors: settings.distractors,
            distractorPool: pool.map { "\($0.count) photos of no catalog place" } ?? "the catalog's \(catalog.count) photos", views: rows.count,
            lists: settings.lists,
            probe: settings.search.probe, shortlist: settings.search.shortlist, queries: probes.count,
            generateSeconds: generated.seconds, trainSeconds: trained.seconds, assignSeconds: assigned.seconds,
            rowBytesPerReference: Double(rows.memoryBytes) / Double(total),
            indexBytesPerReference: Double(ivf.count * (ivf.model.codeWords * 8 + 4)) / Double(total),
            indexFileBytes: fileBytes, saveMs: saved.milliseconds, loadMs: loaded.milliseconds,
            groupRecall: recall, firstAgrees: probes.isEmpty ? 0 : Double(firstSame) / Double(probes.count),
            placeWithinExact: shares(exactWithin, of: positives), placeWithinIndex: shares(indexWithin, of: positives),
            exactMs: LatencySummary(samples: exactTimes), indexMs: LatencySummary(samples: indexTimes),
            passes: recall >= recallLine)
    }

    /// `counts` (one per rank of ``placeRanks``) as shares of `total`, keyed by rank; empty when `total` is 0.
    private static func shares(_ counts: [Int], of total: Int) -> [String: Double] {
        guard total > 0 else { return [:] }
        return Dictionary(uniqueKeysWithValues: zip(placeRanks, counts).map { (String($0), Double($1) / Double(total)) })
    }

    /// The view prints of distractors `0..<count` made from `pool`, quantized, with the distractor each
    /// row belongs to; made in blocks on `threads` threads and joined in order.
    private static func distractorRows(
        _ pool: [ImageFeatures], count: Int, seed: UInt64, dimension: Int, threads: Int
    ) throws -> (rows: QuantizedRows, owners: [UInt32]) {
        guard count > 0 else { return (QuantizedRows(dimension: dimension), []) }
        let distractors: Distractors
        do { distractors = try Distractors(pool: pool, seed: seed) } catch { throw IntentsCommandError(error.description) }
        let block = 2_048
        let blocks = (count + block - 1) / block
        let parts = Mutex([Int: (QuantizedRows, [UInt32])]())
        DispatchQueue.concurrentPerform(iterations: max(1, threads)) { worker in
            for b in stride(from: worker, to: blocks, by: max(1, threads)) {
                var rows = QuantizedRows(dimension: dimension)
                var owners: [UInt32] = []
                for i in (b * block)..<min(count, (b + 1) * block) {
                    for view in distractors.distractor(i).featurePrints where view.dimension == dimension {
                        rows.append(rows: view.values)
                        owners.append(UInt32(i))
                    }
                }
                parts.withLock { $0[b] = (rows, owners) }
            }
        }
        var rows = QuantizedRows(dimension: dimension)
        var owners: [UInt32] = []
        let joined = parts.withLock { $0 }
        for b in 0..<blocks {
            guard let part = joined[b] else { continue }
            rows.append(part.0)
            owners += part.1
        }
        return (rows, owners)
    }

    /// The check as lines of text.
    var text: String {
        func f(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
        let places = placeWithinExact.isEmpty ? "" : "\n  the photo's place within the first " + Self.placeRanks.map { k in
            "\(k): exact \(f(placeWithinExact[String(k)] ?? 0)), index \(f(placeWithinIndex[String(k)] ?? 0))"
        }.joined(separator: "; ")
        return """
            print index check: \(references) references (\(realReferences) real photos of no place, \(distractors) distractors made from \(distractorPool)), \
            \(views) views, \(queries) queries
              built: generate \(f(generateSeconds, 1)) s, train \(lists) lists \(f(trainSeconds, 1)) s, \
            assign \(f(assignSeconds, 1)) s; file \(indexFileBytes) bytes, save \(f(saveMs, 0)) ms, load \(f(loadMs, 0)) ms
              memory per reference: rows \(f(rowBytesPerReference, 0)) B, index \(f(indexBytesPerReference, 0)) B
              search: exact p50 \(f(exactMs.p50, 2)) ms p99 \(f(exactMs.p99, 2)) ms; \
            index (probe \(probe), shortlist \(shortlist)) p50 \(f(indexMs.p50, 2)) ms p99 \(f(indexMs.p99, 2)) ms
              top-\(Self.depth) group recall \(f(groupRecall, 4)) (line \(Self.recallLine)), first group agrees \(f(firstAgrees)): \
            \(passes ? "passes" : "does NOT pass")\(places)
            """
    }
}

extension EvalCommand {
    /// `--check-print-index N`: the catalog's features (from the feature cache), the prints of the
    /// manifest's photos, and ``PrintIndexCheck`` with `N` distractors.
    func runPrintIndexCheck(_ loaded: Engine, places: [PlaceEntity], vision: VisionConfiguration, entries: [ManifestEntry]) throws {
        guard let printer = loaded.featurePrinter else {
            throw IntentsCommandError("--check-print-index needs the feature-print model (Models/featureprint.glimpsemodel)")
        }
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let references = try catalogReferences(places: places, vision: vision, printer: printer)
        let placeNumbers = Dictionary(places.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var probes: [(print: [Float], place: Int?)] = []
        for entry in entries {
            let buffer = try ImageDecoder.decode(contentsOfFile: entry.path, options: loaded.decodingOptions).pixelBuffer
            probes.append((try printer.featurePrint(of: buffer).values, entry.placeID.flatMap { placeNumbers[$0] }))
        }
        var real: [[FeaturePrint]] = []
        if let printIndexRealReferences {
            for entry in try QueryManifest.load(path: printIndexRealReferences) {
                let buffer = try ImageDecoder.decode(contentsOfFile: entry.path, options: loaded.decodingOptions).pixelBuffer
                real.append(try printer.referencePrints(of: buffer))
            }
        }
        let pool = try distractorPoolFeatures(vision: vision, printer: printer)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-print-index-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let settings = PrintIndexCheck.Settings(
            distractors: checkPrintIndex ?? 0, lists: printIndexLists,
            search: PrintIndex.Search(probe: printIndexProbe, shortlist: printIndexShortlist), seed: Distractors.measurementSeed)
        let check = try PrintIndexCheck.run(catalog: references, placeNumbers: placeNumbers, real: real, pool: pool, probes: probes,
                                            settings: settings, scratch: scratch, threads: threads)
        try report(check, text: check.text)
    }
}
