// glimpse-live-bench: a live catalog of 10^4 reference photos under edits, against the same catalog
// loaded at start, in one run.
//
//   glimpse-live-bench [--catalog Images] [--places 10000] [--edits 100] [--labelled ../shared/labelled/images]
//                      [--passes 3] [--dir DIR] [--no-featureprint] [--quiet-compaction SECONDS|off]
//                      [--matcher-index]
//
// 1. Fills a new store with the catalog folder's places and synthetic places up to --places (their
//    features are SyntheticReferences: real descriptor statistics at random positions, so they crowd the
//    shortlist without ever being right; they share one photo file), and opens a LiveCatalog on it: the
//    matcher is one segment, as at any start. With --matcher-index, that start builds the matcher and saves
//    it to a matcher index in --dir (timed until saved), and a second live catalog on the store, read-only,
//    starts from that file (timed), as the next start of a daemon would.
// 2. Times --passes passes of queries of every catalog photo (thread CPU time per query, p50/p99).
// 3. Applies --edits edits, each a new place with a photo of its own from --labelled (pictures of no
//    catalog place); times each edit (photo decoding and extraction, the store's durable commit, the
//    engine update) and its commit-to-visible time, and after each acknowledgement queries the new photo
//    once: the place must be the first result (visible at the acknowledgement, not later).
// 4. Waits for the live matcher to fold the added references into one segment (the engine does that
//    once edits have been quiet for --quiet-compaction seconds, default 1; `off` keeps two segments),
//    then opens a second engine on the same store, read-only: the edited catalog loaded at start (one
//    segment). Times the same queries on both, interleaved query by query (the order alternating), so
//    that the machine's load drifts alike for both, and prints the ratio of their p50s.
// The last line is JSON. Build with `-c release`.
import Foundation
import GlimpseBasics
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseIntents
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseFiles
import GlimpseVision
import GlimpseWire

func option(_ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

/// This thread's CPU time.
func threadCPU() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

let catalogFolder = option("--catalog", "Images")
let placeCount = Int(option("--places", "10000")) ?? 10_000
let editCount = Int(option("--edits", "100")) ?? 100
let passes = Int(option("--passes", "3")) ?? 3
let labelledFolder = option("--labelled", "../shared/labelled/images")
let folder = option("--dir", NSTemporaryDirectory() + "glimpse-live-bench-\(getpid())")
let printing = !CommandLine.arguments.contains("--no-featureprint")
let quietCompaction = option("--quiet-compaction", "1")
let indexing = CommandLine.arguments.contains("--matcher-index")
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
let path = folder + "/catalog.sqlite"
for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }

var configuration = EngineConfiguration(catalogDirectory: catalogFolder)
configuration.featureCache = Catalog.defaultFeatureCachePath(forDirectory: catalogFolder)
configuration.labelModel = .off
configuration.compactionQuietPeriod = Double(quietCompaction).map { .milliseconds(Int($0 * 1000)) }
if !printing { configuration.featurePrintModel = .off }
let indexPath = folder + "/matcher.index"
try? FileManager.default.removeItem(atPath: indexPath)
if indexing { configuration.matcherIndex = indexPath }
let models = try EngineModels.load(configuration)
let store = try SQLiteCatalogStore.open(path: path, create: true)

// 1. The catalog and the synthetic places, in one transaction.
var started = ContinuousClock.now
let catalog = try Catalog.load(directory: catalogFolder)
let photos = catalog.places.flatMap { place in place.photos.map { ReferencePhoto(id: place.id, path: $0.path) } }
let real = try ReferenceLoader.load(
    photos: photos, configuration: models.vision, cachePath: configuration.featureCache, cacheIsOptional: true,
    threads: ProcessInfo.processInfo.activeProcessorCount, printer: models.featurePrinter
).references
let synthetic = SyntheticReferences.make(from: real, count: max(0, placeCount - catalog.places.count))
let filler = Array(try Data(contentsOf: URL(fileURLWithPath: photos[0].path)))
var definition = catalog.definition
var newPhotos: [[NewPhoto]] = []
var next = 0
for place in catalog.definition.places {
    var list: [NewPhoto] = []
    for photo in place.photos {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: catalog.directory + "/" + photo.image)))
        list.append(NewPhoto(bytes: bytes, name: photo.image, credit: photo.credit, features: EncodedFeatures(real[next].features),
                             featuresKey: models.featuresKey))
        next += 1
    }
    newPhotos.append(list)
}
for (n, reference) in synthetic.enumerated() {
    let id = "synthetic-\(n)"
    definition.places.append(PlaceDefinition(
        id: id, name: "Synthetic \(n)", kind: "synthetic", photos: [PhotoDefinition(image: "photos/\(id).jpg")]))
    // Prints of a real reference, so synthetic places compete by print too.
    let prints = real[n % real.count].features.featurePrints
    newPhotos.append([NewPhoto(bytes: filler, name: "photos/\(id).jpg", credit: nil,
                               features: EncodedFeatures(reference.features.with(featurePrints: prints)), featuresKey: models.featuresKey)])
}
_ = try await store.apply(.replaceCatalog(definition, photos: newPhotos, replace: false))
newPhotos = []
let filled = ContinuousClock.now - started
started = ContinuousClock.now
let live = try await LiveCatalog.open(
    store: store, photoFolder: PhotoFolder(path: store.photoFolder), configuration: configuration, models: models)
let opened = ContinuousClock.now - started
let references = live.engine.current.matcher?.referenceCount ?? 0
print("store: \(definition.places.count) places, \(references) reference photos; filled in \(filled), opened in \(opened)")
var indexFigures: [String: Any] = [:]
if indexing {
    while live.engine.matcherIndexSaves == 0 { try await Task.sleep(for: .milliseconds(10)) }
    let saved = ContinuousClock.now - started
    let bytes = (try? FileManager.default.attributesOfItem(atPath: indexPath)[.size] as? Int) ?? 0
    started = ContinuousClock.now
    let second = try await LiveCatalog.open(
        store: try SQLiteCatalogStore.open(path: path, mode: .read), photoFolder: PhotoFolder(path: store.photoFolder),
        configuration: configuration, models: models)
    let fromIndex = ContinuousClock.now - started
    let source = second.engine.current.referenceSource?.rawValue ?? "none"
    print("matcher index: \(bytes) bytes, saved \(saved) after the start began; a second start read it (\(source)) in \(fromIndex)")
    indexFigures = [
        "open_ms": opened.milliseconds, "open_and_index_saved_ms": saved.milliseconds,
        "open_from_index_ms": fromIndex.milliseconds, "index_bytes": bytes, "second_open_source": source,
    ]
    await second.close()
}

// 2. and 4. Query time, one query at a time, thread CPU.
let queries = try catalog.places.map { try live.engine.decode(contentsOfFile: $0.photoPath) }
/// Times `passes` passes of every query on each engine, interleaved query by query.
func timeQueries(_ labels: [String], on engines: [Engine]) async throws -> [LatencySummary] {
    var samples = [[Duration]](repeating: [], count: engines.count)
    var found = [Int](repeating: 0, count: engines.count)
    var stages = [[String: [Duration]]](repeating: [:], count: engines.count)
    var turn = 0
    for _ in 0..<passes {
        for (picture, place) in zip(queries, catalog.places) {
            turn += 1
            for step in engines.indices {
                let which = (step + turn) % engines.count
                let before = threadCPU()
                let page = try await engines[which].search(SemanticContentDescriptor(pixelBuffer: picture), limit: 3)
                samples[which].append(threadCPU() - before)
                for (stage, time) in page.timings { stages[which][stage, default: []].append(time) }
                if case .place(let top)? = page.items.first?.result, top.id == place.id { found[which] += 1 }
            }
        }
    }
    return engines.indices.map { which in
        let summary = LatencySummary(samples: samples[which].map(\.milliseconds))
        print("\(labels[which]): \(samples[which].count) queries, p50 \(summary.p50) ms, p99 \(summary.p99) ms CPU; "
            + "top result right \(found[which]) of \(samples[which].count)")
        let perStage = stages[which].sorted { $0.key < $1.key }.map { stage, times in
            "\(stage) \(String(format: "%.2f", LatencySummary(samples: times.map(\.milliseconds)).p50))"
        }
        print("  stage p50 (ms): " + perStage.joined(separator: ", "))
        return summary
    }
}
let beforeEdits = try await timeQueries(["queries, before the edits"], on: [live.engine])[0]

// 3. Edits.
let labelled = try FileManager.default.contentsOfDirectory(atPath: labelledFolder).filter {
    $0.lowercased().hasSuffix(".jpg") || $0.lowercased().hasSuffix(".png")
}.sorted()
guard !labelled.isEmpty else { fatalError("no pictures in \(labelledFolder); pass --labelled DIR") }
var editTimes: [Duration] = [], visibleTimes: [Duration] = []
var visibleAtOnce = 0
for n in 0..<editCount {
    let file = labelled[n % labelled.count]
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: labelledFolder + "/" + file)))
    let id = "edit-\(n)"
    let start = ContinuousClock.now
    let photo = try live.newPhoto(bytes: bytes, name: "photos/\(id).jpg", credit: nil, limits: DecodingLimits())
    let outcome = try await live.apply(.putPlace(
        PlaceDefinition(id: id, name: "Edit \(n)", kind: "edit", photos: []), photos: [photo], precondition: .none))
    let acknowledged = ContinuousClock.now
    editTimes.append(acknowledged - start)
    if let visible = outcome.commitToVisible { visibleTimes.append(visible) }
    // Visible from the acknowledgement on: the first query after it finds the place.
    let picture = try live.engine.decode(bytes)
    let page = try await live.engine.search(SemanticContentDescriptor(pixelBuffer: picture), limit: 3)
    if case .place(let top)? = page.items.first?.result, top.id == id {
        visibleAtOnce += 1
    }
}
let edits = LatencySummary(samples: editTimes.map(\.milliseconds)), visible = LatencySummary(samples: visibleTimes.map(\.milliseconds))
print("edits: \(editCount), whole edit p50 \(edits.p50) ms p99 \(edits.p99) ms; "
    + "commit to visible p50 \(visible.p50) ms p99 \(visible.p99) ms; "
    + "found by the first query after the acknowledgement: \(visibleAtOnce) of \(editCount)")
let lastEdit = ContinuousClock.now
if configuration.compactionQuietPeriod != nil {
    // A matcher above VisualMatcher.quietFoldLimit references keeps a small added segment: nothing to wait for.
    while live.engine.current.matcher?.foldsWhenQuiet == true, ContinuousClock.now - lastEdit < .seconds(300) {
        try await Task.sleep(for: .milliseconds(20))
    }
    print("the live matcher was compacted \(ContinuousClock.now - lastEdit) after the last edit, or keeps its added segment")
}
let segments = live.engine.current.matcher?.segmentCount ?? 0
started = ContinuousClock.now
let reader = try SQLiteCatalogStore.open(path: path, mode: .read)
let loaded = try await LiveCatalog.open(
    store: reader, photoFolder: PhotoFolder(path: store.photoFolder), configuration: configuration, models: models)
print("the edited store opened again in \(ContinuousClock.now - started): \(loaded.engine.current.matcher?.segmentCount ?? 0) segment")
let compared = try await timeQueries(
    ["queries, live after \(editCount) edits (\(segments) segments)", "queries, same catalog loaded at start"],
    on: [live.engine, loaded.engine])
let (afterEdits, atStart) = (compared[0], compared[1])
let ratio = afterEdits.p50 / Swift.max(atStart.p50, 1e-9)
print("query p50 ratio, live edited / loaded at start: \(String(format: "%.3f", ratio))")
let json: [String: Any] = [
    "references": references, "edits": editCount, "visible_at_ack": visibleAtOnce,
    "edit_p50_ms": edits.p50, "edit_p99_ms": edits.p99,
    "commit_to_visible_p50_ms": visible.p50, "commit_to_visible_p99_ms": visible.p99,
    "query_p50_before_edits_ms": beforeEdits.p50, "query_p50_loaded_ms": atStart.p50,
    "query_p50_live_ms": afterEdits.p50, "segments": segments,
    "query_p50_ratio": ratio, "featureprint": printing,
].merging(indexFigures) { $1 }
print(String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self))
await live.close()
await loaded.close()
try? FileManager.default.removeItem(atPath: folder)
