// glimpse-featureprint-bench: times the feature-print network alone (no decoding, no resizing) on
// one thread and prints one line of JSON.
//
//   glimpse-featureprint-bench [--model PATH] --inputs DIR [--repeat R] [--warmup W] [--prints FILE]
//
// DIR holds PNGs that already are the network input (224×224 for EfficientNet-Lite0). They are
// decoded once; then every input is run W times to warm up, and R rounds over all inputs are timed
// one call at a time, in wall-clock and in the thread's CPU time. With --prints, the L2-normalised print of every input is written to FILE as
// JSON ({"names": [...], "prints": [[...], ...]}, inputs in name order). scripts/bench-featureprint.sh
// runs ONNX Runtime on the same inputs beside it, for the fp32 and the int8 model.
// Build with `-c release`.
import CAllocationCounter
import Foundation
import GlimpseBasics
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseImage

/// A command-line usage error: what was wrong, printed before the usage text.
struct UsageError: Error, CustomStringConvertible {
    /// The message.
    let description: String
}

/// What to run.
struct Options {
    /// The model file.
    var model = FeaturePrintModel.defaultPath()
    /// The folder of network-input PNGs.
    var inputs = ""
    /// Timed rounds over all inputs.
    var repeats = 10
    /// Untimed runs of every input before timing.
    var warmup = 2
    /// Where to write the prints of the inputs, if anywhere.
    var prints: String?
}

/// Parses the command line.
func parseArguments(_ arguments: [String]) throws -> Options {
    var options = Options()
    var i = 0
    func value(_ name: String) throws -> String {
        i += 1
        guard i < arguments.count else { throw UsageError(description: "\(name) needs a value") }
        return arguments[i]
    }
    func count(_ name: String, minimum: Int) throws -> Int {
        let text = try value(name)
        guard let number = Int(text), number >= minimum else {
            throw UsageError(description: "\(name) needs an integer of at least \(minimum), not '\(text)'")
        }
        return number
    }
    while i < arguments.count {
        switch arguments[i] {
        case "--model": options.model = try value("--model")
        case "--inputs": options.inputs = try value("--inputs")
        case "--repeat": options.repeats = try count("--repeat", minimum: 1)
        case "--warmup": options.warmup = try count("--warmup", minimum: 0)
        case "--prints": options.prints = try value("--prints")
        default: throw UsageError(description: "unknown argument '\(arguments[i])'")
        }
        i += 1
    }
    guard !options.inputs.isEmpty else { throw UsageError(description: "--inputs DIR is required") }
    return options
}

/// The CPU time of the calling thread in milliseconds (the machine's other load does not count).
func threadCPUMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
}

/// The names of the PNGs among `entries`, in name order.
func inputNames(_ entries: [FolderWalk.Entry]) -> [String] {
    entries.filter { !$0.isDirectory && $0.name.lowercased().hasSuffix(".png") }.map(\.name).sorted()
}

/// Writes the print of every input as JSON: `{"names": [...], "prints": [[...], ...]}`.
func writePrints(_ printer: FeaturePrinter, inputs: [PixelBuffer], names: [String], to path: String) throws {
    var text = "{\"names\":[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "],\"prints\":["
    for (index, input) in inputs.enumerated() {
        let values = try printer.featurePrint(ofNetworkInput: input).values
        text += (index == 0 ? "[" : ",[") + values.map { String($0) }.joined(separator: ",") + "]"
    }
    text += "]}\n"
    try AtomicFile.replace(path, with: Array(text.utf8))
}

/// The PNGs in `directory`, decoded, in name order; each must be `size × size`.
func loadInputs(_ directory: String, size: Int) throws -> [PixelBuffer] {
    let entries = Array(FolderWalk(root: directory, recursive: false))
    if let reason = entries.first?.listingError {
        throw UsageError(description: "cannot list \(directory): \(reason)")
    }
    let names = inputNames(entries)
    guard !names.isEmpty else { throw UsageError(description: "no .png files in \(directory)") }
    return try names.map { name in
        let pixels = try ImageDecoder.decode(contentsOfFile: directory + "/" + name).pixelBuffer
        guard pixels.width == size, pixels.height == size else {
            throw UsageError(description: "\(name) is \(pixels.width)×\(pixels.height); the network input is "
                + "\(size)×\(size) (resize the inputs first)")
        }
        return pixels
    }
}

func main() -> Int32 {
    do {
        let options = try parseArguments(Array(CommandLine.arguments.dropFirst()))
        let clock = ContinuousClock()
        let loadStart = clock.now
        let model = try FeaturePrintModel.load(from: options.model)
        let printerStart = clock.now
        let printer = try FeaturePrinter(model: model)
        let printerEnd = clock.now
        let inputs = try loadInputs(options.inputs, size: model.input.size)
        if let prints = options.prints {
            let names = inputNames(Array(FolderWalk(root: options.inputs, recursive: false)))
            try writePrints(printer, inputs: inputs, names: names, to: prints)
        }
        var output = FeaturePrintOutput()
        for _ in 0..<max(options.warmup, 1) {
            for input in inputs { try printer.run(networkInput: input, into: &output) }
        }
        var milliseconds: [Double] = [], cpuMilliseconds: [Double] = []
        milliseconds.reserveCapacity(options.repeats * inputs.count)
        cpuMilliseconds.reserveCapacity(options.repeats * inputs.count)
        let allocationsBefore = glimpse_allocation_count()
        for _ in 0..<options.repeats {
            for input in inputs {
                let cpuStart = threadCPUMilliseconds()
                let start = clock.now
                try printer.run(networkInput: input, into: &output)
                let elapsed = start.duration(to: clock.now)
                milliseconds.append(elapsed.milliseconds)
                cpuMilliseconds.append(threadCPUMilliseconds() - cpuStart)
            }
        }
        let allocations = glimpse_allocation_count() - allocationsBefore
        let allocationsPerRun = glimpse_allocation_counting_supported() != 0
            ? String(format: "%.3f", Double(allocations) / Double(milliseconds.count)) : "null"
        let sorted = milliseconds.sorted(), cpuSorted = cpuMilliseconds.sorted()
        let mean = milliseconds.reduce(0, +) / Double(milliseconds.count)
        func fixed(_ value: Double) -> String { String(format: "%.3f", value) }
        print("{\"engine\":\"xnnpack\",\"threads\":1,\"model\":\"\(model.network)\",\"precision\":\"\(model.precision)\",\"inputs\":\(inputs.count),"
            + "\"repeat\":\(options.repeats),\"count\":\(milliseconds.count),\"p50_ms\":\(fixed(LatencySummary.percentile(sorted, 0.5))),"
            + "\"p90_ms\":\(fixed(LatencySummary.percentile(sorted, 0.9))),\"p99_ms\":\(fixed(LatencySummary.percentile(sorted, 0.99))),\"mean_ms\":\(fixed(mean)),"
            + "\"min_ms\":\(fixed(sorted[0])),\"cpu_p50_ms\":\(fixed(LatencySummary.percentile(cpuSorted, 0.5))),"
            + "\"cpu_min_ms\":\(fixed(cpuSorted[0])),\"max_ms\":\(fixed(sorted[sorted.count - 1])),"
            + "\"allocations_per_run\":\(allocationsPerRun),\"load_ms\":\(fixed((printerStart - loadStart).milliseconds)),"
            + "\"printer_ms\":\(fixed((printerEnd - printerStart).milliseconds))}")
        return 0
    } catch let error as UsageError {
        FileHandle.standardError.write(Data("glimpse-featureprint-bench: \(error)\n".utf8))
        FileHandle.standardError.write(Data(
            "usage: glimpse-featureprint-bench [--model PATH] --inputs DIR [--repeat R] [--warmup W] [--prints FILE]\n".utf8))
        return 2
    } catch {
        FileHandle.standardError.write(Data("glimpse-featureprint-bench: \(error)\n".utf8))
        return 1
    }
}

exit(main())
