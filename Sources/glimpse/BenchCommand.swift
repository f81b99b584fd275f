import ArgumentParser
import GlimpseEngine
import Foundation
import GlimpseBatch
import GlimpseBench
import GlimpseCatalog
import GlimpseFeaturePrint
import GlimpseIndex
import GlimpseVision

/// `glimpse bench`: query latency in process, against growing synthetic catalogs, or against a daemon.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure query latency: in process, by catalog size (--scale), or against a daemon (--socket).",
        discussion: """
            In-process (the default): per-stage latency (decode, features, search, verification, whole \
            query) over the catalog's photos or --folder, one query at a time, after a warm-up pass.

            --scale: the same query against synthetic catalogs of --sizes references, for each index type: \
            flat and hnsw answer k-nearest-neighbour queries over clustered vectors (recall against the \
            exact index); visual runs the real picture query (LSH shortlist and verification) over the \
            catalog's references plus synthetic ones (recall = catalog photos that match themselves).

            --socket PATH: round trips of POST /v1/query against a running daemon at each --concurrency \
            level for --duration, errors counted.

            Percentiles come from an HdrHistogram. Build with -c release for meaningful figures; the \
            header says which build ran.
            """
    )

    @OptionGroup var matching: EngineOptions

    @Option(help: "Pictures to query with (default: the catalog's photos).")
    var folder: String?

    @Option(help: "Passes over the pictures in process (after one warm-up pass).")
    var passes = 3

    @Option(help: "Results asked for per query.")
    var limit = 5

    @Flag(help: "Measure index cost against synthetic catalogs of growing size.")
    var scale = false

    @Option(help: "Scale mode: catalog sizes, comma-separated.")
    var sizes = "1000,10000,100000,1000000"

    @Option(help: "Scale mode: vector dimension.")
    var dimension = 128

    @Option(help: "Scale mode: queries per size and index.")
    var queries = 200

    @Option(help: "Scale mode: index types, comma-separated (flat, hnsw, visual).")
    var index = "flat,hnsw,visual"

    @Option(help: ArgumentHelp(
        "Scale mode (visual): make the synthetic references from these real photos of no catalog place (a glimpse eval manifest) instead of perturbed copies of the catalog's descriptors.",
        valueName: "manifest"))
    var distractorPool: String?

    @Option(help: "Scale mode: skip a graph build projected to take longer than this many seconds.")
    var maxBuildSeconds = 300.0

    @Option(help: "Daemon mode: the daemon's socket path.")
    var socket: String?

    @Option(help: "Daemon mode: connections at once, comma-separated levels.")
    var concurrency = "1,8,64"

    @Option(help: "Daemon mode: how long each level runs, such as 30s, 500ms or 2m.")
    var duration = "30s"

    @Flag(help: "Print the report as JSON instead of tables.")
    var json = false

    func validate() throws {
        if scale, socket != nil { throw ValidationError("--scale and --socket are different modes; pass one") }
        if scale, matching.largeCatalog.isSet {
            throw ValidationError("--scale builds its own references: --keypoint-slots, --reference-keypoints, "
                + "--indexed-keypoints and --lsh-tables apply to the in-process bench of the catalog (without --scale)")
        }
        guard passes >= 1, limit >= 1 else { throw ValidationError("--passes and --limit must be at least 1") }
        _ = try integers(sizes, "--sizes")
        _ = try integers(concurrency, "--concurrency")
        _ = try kinds()
        guard BenchOptions.parseDuration(duration) != nil else {
            throw ValidationError("--duration must look like 30s, 500ms or 2m, not '\(duration)'")
        }
    }

    func run() async throws {
        let progress: (String) -> Void = { line in
            if BatchProgress.stderrIsTerminal { BatchProgress.writeError("\r\u{1B}[K" + line) }
        }
        var report: BenchReport
        do {
            if scale {
                report = BenchReport(mode: "scale")
                let bench = ScaleBench(
                    sizes: try integers(sizes, "--sizes"), dimension: dimension, queries: queries,
                    indexes: try kinds(), maxBuildSeconds: maxBuildSeconds)
                report.notes = [
                    "k=\(bench.k) nearest neighbours of \(bench.queries) queries, \(bench.metric) metric, "
                        + "clustered synthetic vectors; HNSW M=\(bench.hnsw.maxLinks) "
                        + "efConstruction=\(bench.hnsw.efConstruction) efSearch=\(bench.hnsw.efSearch), "
                        + "built on \(bench.hnsw.buildThreads) threads",
                ]
                report.scale = bench.indexes.isEmpty ? [] : try bench.run(progress: progress)
                if visual {
                    let catalogValue = try Catalog.load(directory: matching.catalog)
                    let pool = try distractorPool.map { try poolDistractors(manifest: $0) }
                    let visualBench = VisualScaleBench(sizes: try integers(sizes, "--sizes"), distractors: pool)
                    report.notes.append(
                        "visual: \(visualBench.queries) catalog photos as queries against the \(catalogValue.places.count) "
                            + "real references plus synthetic ones made from "
                            + (pool.map { "\($0.pool.count) photos of no catalog place" } ?? "the catalog's descriptors")
                            + "; recall = share that match themselves")
                    report.scale = (report.scale ?? []) + (try visualBench.run(catalog: catalogValue, progress: progress))
                }
                for row in report.scale ?? [] where row.skipped != nil {
                    report.notes.append("\(row.index) at \(row.references) references not run: \(row.skipped ?? "")")
                }
            } else {
                let pictures = try BenchOptions.loadPictures(folder: folder, catalog: matching.catalog)
                if let socket {
                    report = BenchReport(mode: "daemon")
                    let bench = DaemonBench(
                        socketPath: socket, concurrency: try integers(concurrency, "--concurrency"),
                        duration: BenchOptions.parseDuration(duration) ?? .seconds(30), limit: limit)
                    report.notes = ["POST /v1/query over \(pictures.count) pictures, keep-alive connections"]
                    report.daemon = try await bench.run(pictures: pictures.map(\.bytes), progress: progress)
                } else {
                    report = BenchReport(mode: "in-process")
                    progress("building the matcher over \(matching.catalog)")
                    let matcher = CatalogMatcher(engine: try await matching.load(command: "bench"))
                    report.notes = [
                        "\(passes) passes over \(pictures.count) pictures, one query at a time, against "
                            + "\(matcher.engine.current.matcher?.referenceCount ?? 0) references; per s = whole queries per second",
                        matcher.engine.labeler == nil ? "no label model found: the labels stage is not run"
                            : "labels = search time not spent matching (labelling and ranking)",
                    ]
                    report.stages = await InProcessBench(passes: passes, limit: limit).run(
                        matcher, pictures: pictures, progress: progress)
                }
            }
        } catch {
            progress("")
            BatchProgress.writeError("glimpse bench: \(error)\n")
            throw ExitCode(error is EngineError || error is BatchError ? 66 : 69)
        }
        if BatchProgress.stderrIsTerminal { BatchProgress.writeError("\r\u{1B}[K") }
        print(json ? try report.json() : report.table(), terminator: json ? "\n" : "")
    }

    /// Distractors made from the photos the manifest at `path` lists, with the feature-print model the
    /// options name (their prints set how much of each photo a distractor takes).
    private func poolDistractors(manifest path: String) throws -> Distractors {
        let choice = matching.featurePrint.choice(catalogDirectory: matching.catalog)
        guard choice != .off, let printer = try FeaturePrinterPool.load(explicit: choice.namedFile, catalogDirectory: matching.catalog)
        else { throw ValidationError("--distractor-pool needs the feature-print model (Models/featureprint.glimpsemodel)") }
        let photos = try QueryManifest.load(path: path).enumerated().map {
            ReferencePhoto(id: "pool-\($0.offset)", path: $0.element.path)
        }
        let features = try ReferenceLoader.load(
            photos: photos, threads: max(1, ProcessInfo.processInfo.activeProcessorCount), printer: printer
        ).references.map(\.features)
        return try Distractors(pool: features, seed: Distractors.measurementSeed)
    }

    private func integers(_ text: String, _ name: String) throws -> [Int] {
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) >= 1 }) else {
            throw ValidationError("\(name) must be positive whole numbers separated by commas, not '\(text)'")
        }
        return values.compactMap { $0 }
    }

    private func kinds() throws -> [ScaleBench.IndexKind] {
        try index.split(separator: ",").compactMap { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if trimmed == "visual" { return nil }
            guard let kind = ScaleBench.IndexKind(rawValue: trimmed) else {
                throw ValidationError("--index takes flat, hnsw and visual, not '\(name)'")
            }
            return kind
        }
    }

    private var visual: Bool {
        index.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "visual" }
    }
}
