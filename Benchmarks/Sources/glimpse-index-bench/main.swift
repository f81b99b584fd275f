// glimpse-index-bench: measures the nearest-neighbour indexes on synthetic clustered vectors.
//
//   glimpse-index-bench [--count N] [--dim D] [--queries Q] [--k K] [--clusters C] [--spread S] [--seed S]
//                       [--m M] [--ef-construction E] [--threads T] [--ef 32,64,128] [--no-hnsw]
//                       [--save-dir DIR] [--json]
//
// Build with `-c release`; searches run on one thread, the HNSW build on --threads.
import Foundation
import GlimpseIndexBenchmark
import GlimpseBasics

/// A command-line usage error: what was wrong, printed before the usage text.
struct UsageError: Error, CustomStringConvertible {
    /// The message.
    let description: String
}

/// Parses the command line into a configuration and the JSON flag.
func parseArguments(_ arguments: [String]) throws -> (IndexBenchmarkConfiguration, json: Bool) {
    var configuration = IndexBenchmarkConfiguration()
    var json = false
    var i = 0
    func value(_ name: String) throws -> String {
        i += 1
        guard i < arguments.count else { throw UsageError(description: "\(name) needs a value") }
        return arguments[i]
    }
    func integer(_ name: String) throws -> Int {
        let text = try value(name)
        guard let number = Int(text) else { throw UsageError(description: "\(name) needs an integer, not '\(text)'") }
        return number
    }
    while i < arguments.count {
        let argument = arguments[i]
        switch argument {
        case "--count": configuration.count = try integer(argument)
        case "--dim": configuration.dimension = try integer(argument)
        case "--queries": configuration.queries = try integer(argument)
        case "--k": configuration.k = try integer(argument)
        case "--clusters": configuration.clusters = try integer(argument)
        case "--seed": configuration.seed = UInt64(truncatingIfNeeded: try integer(argument))
        case "--m": configuration.hnswMaxLinks = try integer(argument)
        case "--ef-construction": configuration.hnswEfConstruction = try integer(argument)
        case "--threads": configuration.buildThreads = try integer(argument)
        case "--spread":
            let text = try value(argument)
            guard let spread = Float(text) else { throw UsageError(description: "--spread needs a number") }
            configuration.spread = spread
        case "--ef":
            let text = try value(argument)
            let values = text.split(separator: ",").compactMap { Int($0) }
            guard !values.isEmpty, values.count == text.split(separator: ",").count else {
                throw UsageError(description: "--ef needs comma-separated integers, such as 32,64,128")
            }
            configuration.efSearchValues = values
        case "--no-hnsw": configuration.measureHNSW = false
        case "--save-dir": configuration.fileDirectory = try value(argument)
        case "--json": json = true
        default: throw UsageError(description: "unknown argument '\(argument)'")
        }
        i += 1
    }
    return (configuration, json)
}

/// The peak resident set size of this process, in MiB.
func peakResidentMiB() -> Double {
    #if os(Linux)
    let who = RUSAGE_SELF.rawValue
    #else
    let who = RUSAGE_SELF
    #endif
    var usage = rusage()
    guard getrusage(who, &usage) == 0 else { return 0 }
    return Double(usage.ru_maxrss) / 1024  // ru_maxrss is in KiB on Linux
}

let usage = """
    usage: glimpse-index-bench [--count N] [--dim D] [--queries Q] [--k K] [--clusters C] [--spread S]
                               [--seed S] [--m M] [--ef-construction E] [--threads T] [--ef 32,64,128]
                               [--no-hnsw] [--save-dir DIR] [--json]
    """
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
do {
    let (configuration, json) = try parseArguments(arguments)
    let report = try IndexBenchmark.run(configuration) { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
    let peak = peakResidentMiB()
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(report)
        print(String(decoding: data, as: UTF8.self))
    } else {
        let r = report
        print("vectors \(r.configuration.count)×\(r.configuration.dimension), queries \(r.configuration.queries), k \(r.configuration.k)")
        print("read loop: \(r.measuredBandwidth.wallGBps) GB/s wall, \(r.measuredBandwidth.cpuGBps) GB/s CPU")
        print("exact scan mean: \(r.exactScan.mean) ms wall, \(r.exactScanCPU.mean) ms CPU")
        print("  wall / floor at \(r.referenceBandwidthGBps) GB/s: \(r.exactScanVersusReferenceFloor)")
        print("  wall / floor at measured wall bandwidth: \(r.exactScanVersusMeasuredFloor)")
        print("  CPU / floor at \(r.referenceBandwidthGBps) GB/s: \(r.exactScanCPUVersusReferenceFloor)")
        print("  CPU / floor at measured CPU bandwidth: \(r.exactScanCPUVersusMeasuredFloor)")
        for row in r.searches {
            let name = row.efSearch.map { "\(row.method) ef \($0)" } ?? row.method
            print("\(name): wall p50 \(row.latency.p50) p99 \(row.latency.p99) ms, "
                + "CPU p50 \(row.cpu.p50) p99 \(row.cpu.p99) ms, recall \(row.recall)")
        }
        if let build = r.hnswBuildSeconds, let cpu = r.hnswBuildCPUSeconds, let memory = r.hnswMemoryBytes {
            print("HNSW build \(build) s wall, \(cpu) s CPU, memory \(memory / 1_048_576) MiB")
        }
        for file in r.files {
            print("\(file.kind) file \(file.bytes) bytes: save \(file.saveSeconds) s, load \(file.loadSeconds) s")
        }
    }
    FileHandle.standardError.write(Data("peak RSS: \(Int(peak)) MiB\n".utf8))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("error: \(error)\n\(usage)\n".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
