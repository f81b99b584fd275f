// Round-trip latency of visual search over the daemon's socket versus the same query in process.
//
// Usage: glimpse-server-bench [--socket PATH] --catalog Images [--requests N] [--concurrency 1,8] FILE...
//
// Without --socket, the daemon runs in this process (same GlimpseServer as `glimpse serve`, on a socket
// in /tmp), sharing the loaded catalog with the in-process measurement.
//
// In process, each query decodes the picture (as `glimpse query` does) and runs
// VisualSearchQuery.search. Over the socket, each query is POST /v1/query to a running
// `glimpse serve` (the same decode and search, plus HTTP and JSON). Each level runs one warm-up
// query per worker, then `requests` queries per worker, cycling through the files.
import Foundation
import GlimpseBasics
import GlimpseCatalog
import GlimpseClient
import GlimpseEngine
import GlimpseImage
import GlimpseIntents
import GlimpseServer
import Logging
import ServiceLifecycle

let usage = """
    usage: glimpse-server-bench [--socket PATH] [--catalog DIR] [--requests N] [--concurrency 1,8] FILE...

    Round trips of POST /v1/query over a Unix socket against the same query in process, per
    concurrency level. Without --socket the daemon runs in this process. --requests is per worker
    (default 40); --catalog defaults to Images.

    """

/// A command-line mistake: the message and the usage go to standard error, exit status 64.
struct UsageError: Error {
    let message: String
}

struct Options {
    var socket = ""
    var catalog = "Images"
    var requests = 40
    var concurrency = [1, 8]
    var files: [String] = []
    var help = false

    init(arguments: [String]) throws(UsageError) {
        var iterator = arguments.dropFirst().makeIterator()
        func value(_ option: String) throws(UsageError) -> String {
            guard let next = iterator.next(), !next.hasPrefix("--") else { throw UsageError(message: "\(option) needs a value") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--help", "-h": help = true
            case "--socket": socket = try value(argument)
            case "--catalog": catalog = try value(argument)
            case "--requests":
                guard let n = Int(try value(argument)), n >= 1 else { throw UsageError(message: "--requests needs a positive number") }
                requests = n
            case "--concurrency":
                let levels = try value(argument).split(separator: ",").map { Int($0) }
                guard !levels.isEmpty, levels.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                    throw UsageError(message: "--concurrency needs positive numbers separated by commas, e.g. 1,8")
                }
                concurrency = levels.compactMap { $0 }
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(message: "unknown option \(argument)") }
                files.append(argument)
            }
        }
        if !help && files.isEmpty { throw UsageError(message: "give at least one picture FILE") }
    }
}

struct Row {
    var name: String
    var level: Int
    var latencies: [Double]
    var wall: Double

    var line: String {
        let summary = LatencySummary(samples: latencies)
        let p50 = summary.p50, p99 = summary.p99
        let qps = Double(latencies.count) / (wall / 1000)
        return "\(name.padding(toLength: 10, withPad: " ", startingAt: 0)) c=\(level)  n=\(latencies.count)  "
            + String(format: "p50 %7.1f ms  p99 %7.1f ms  %6.2f q/s", p50, p99, qps)
    }
}

/// Runs `level` workers, each doing one warm-up then `requests` timed calls of `body(worker, index)`.
func measure(
    level: Int, requests: Int, _ body: @escaping @Sendable (Int, Int) async throws -> Void
) async throws -> (latencies: [Double], wallMs: Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for worker in 0..<level {
            group.addTask {
                try await body(worker, -1)
                var own: [Double] = []
                for index in 0..<requests {
                    let t0 = clock.now
                    try await body(worker, index)
                    own.append((clock.now - t0).milliseconds)
                }
                return own
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    return (latencies, (clock.now - start).milliseconds)
}

/// The whole benchmark, off the main actor.
func runBenchmark() async throws {
    let options: Options
    do {
        options = try Options(arguments: CommandLine.arguments)
    } catch {
        FileHandle.standardError.write(Data("glimpse-server-bench: \(error.message)\n\(usage)".utf8))
        exit(64)
    }
    if options.help {
        print(usage, terminator: "")
        return
    }
    let pictures = try options.files.map { path in
        do { return Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw BenchFailure("cannot read \(path): \(error.localizedDescription)")
        }
    }
    var configuration = EngineConfiguration(catalogDirectory: options.catalog)
    configuration.featureCache = Catalog.defaultFeatureCachePath(forDirectory: options.catalog)
    let engine = try await Engine.load(configuration)
    let service = CatalogSearchService(engine: engine)
    var socketPath = options.socket
    var group: ServiceGroup?
    if socketPath.isEmpty {
        socketPath = "/tmp/glimpse-server-bench-\(getpid()).sock"
        var logger = Logger(label: "glimpse.bench")
        logger.logLevel = .warning
        let server = try GlimpseServer(
            configuration: GlimpseServerConfiguration(socketPath: socketPath), service: service, logger: logger
        )
        let serviceGroup = ServiceGroup(services: [server], logger: logger)
        group = serviceGroup
        Task { try await serviceGroup.run() }
        await server.ready.wait()
        print("daemon: in this process on \(socketPath)")
    } else {
        print("daemon: \(socketPath)")
    }
    let client = GlimpseClient(socketPath: socketPath)
    _ = try await client.withConnection { try await $0.health() }
    let first = try ImageDecoder.decode(pictures[0])
    print("pictures: \(pictures.count), \(first.pixelBuffer.width)×\(first.pixelBuffer.height), "
        + "\(pictures.map(\.count).reduce(0, +) / pictures.count) bytes on average; cores: \(ProcessInfo.processInfo.activeProcessorCount)")

    var rows: [Row] = []
    for level in options.concurrency {
        let requests = options.requests
        let local = try await measure(level: level, requests: requests) { worker, index in
            let bytes = pictures[(worker + max(index, 0)) % pictures.count]
            let decoded = try ImageDecoder.decode(bytes, options: engine.decodingOptions)
            _ = try await engine.search(SemanticContentDescriptor(pixelBuffer: decoded.pixelBuffer), limit: 5)
        }
        rows.append(Row(name: "in-process", level: level, latencies: local.latencies, wall: local.wallMs))
        if let row = rows.last { print(row.line) }

        // The same work through the daemon's query gate (one thread per core, FIFO), so that waiting
        // for a free core is part of the latency, as it is over the socket.
        let gate = QueryGate(
            maxRunning: ProcessInfo.processInfo.activeProcessorCount, maxQueued: 1024, retryAfterSeconds: 1
        )
        let gated = try await measure(level: level, requests: requests) { worker, index in
            let bytes = pictures[(worker + max(index, 0)) % pictures.count]
            _ = try await gate.run {
                let decoded = try ImageDecoder.decode(bytes, options: engine.decodingOptions)
                return try await engine.search(
                    SemanticContentDescriptor(pixelBuffer: decoded.pixelBuffer), limit: 5
                ).items.count
            }
        }
        await gate.shutdown()
        rows.append(Row(name: "in-gated", level: level, latencies: gated.latencies, wall: gated.wallMs))
        if let row = rows.last { print(row.line) }

        // One connection per worker, kept open for all its requests.
        let clock = ContinuousClock()
        let socketStart = clock.now
        let socketLatencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<level {
                group.addTask {
                    try await client.withConnection { connection in
                        _ = try await connection.query(image: pictures[worker % pictures.count], limit: 5)
                        var own: [Double] = []
                        for index in 0..<requests {
                            let bytes = pictures[(worker + index) % pictures.count]
                            let t0 = clock.now
                            _ = try await connection.query(image: bytes, limit: 5)
                            own.append((clock.now - t0).milliseconds)
                        }
                        return own
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let socket = (latencies: socketLatencies, wallMs: (clock.now - socketStart).milliseconds)
        rows.append(Row(name: "socket", level: level, latencies: socket.latencies, wall: socket.wallMs))
        if let row = rows.last { print(row.line) }
        let socketMedian = LatencySummary(samples: socket.latencies).p50
        let ratio = socketMedian / LatencySummary(samples: local.latencies).p50
        let gatedRatio = socketMedian / LatencySummary(samples: gated.latencies).p50
        print(String(
            format: "socket/in-process p50 at c=%d: %.3f (direct), %.3f (through the same gate)",
            level, ratio, gatedRatio
        ))
    }
    await group?.triggerGracefulShutdown()
}

/// A failure reported as one line on standard error, exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

do {
    try await runBenchmark()
} catch {
    FileHandle.standardError.write(Data("glimpse-server-bench: \(error)\n".utf8))
    exit(1)
}
