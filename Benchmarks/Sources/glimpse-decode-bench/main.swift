// glimpse-decode-bench: decodes the same PNG and JPEG files with GlimpseImage and with a plain C
// loop over the same libjpeg/libpng calls (CDecodeReference), and prints the speed ratio per
// format, size (640×480, 1920×1080, 4000×3000) and scale (full, 1/8). Build it in release mode:
//
//   swift build -c release --product glimpse-decode-bench
//   .build/release/glimpse-decode-bench [--rounds N] [--photo PATH] [--batch-seconds S] [--format jpeg|png]
import CDecodeReference
import GlimpseImage

#if canImport(Glibc)
import Glibc
#endif

/// Command-line settings.
struct BenchSettings {
    var rounds = 7
    var photo = "Images/photos/001-wooden-jetty-on-a-calm-lake.jpg"
    /// Target wall time per measured batch, so that small images get more iterations.
    var batchSeconds = 0.25
    /// Only these formats (default: both).
    var formats: Set<ImageFormat> = [.jpeg, .png]

    init(arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--rounds":
                guard let value = iterator.next().flatMap({ Int($0) }), value > 0 else {
                    throw BenchError(description: "--rounds needs a positive number")
                }
                rounds = value
            case "--photo":
                guard let value = iterator.next() else { throw BenchError(description: "--photo needs a path") }
                photo = value
            case "--batch-seconds":
                guard let value = iterator.next().flatMap({ Double($0) }), value > 0 else {
                    throw BenchError(description: "--batch-seconds needs a positive number")
                }
                batchSeconds = value
            case "--format":
                guard let value = iterator.next().flatMap({ ImageFormat(rawValue: $0) }) else {
                    throw BenchError(description: "--format needs jpeg or png")
                }
                formats = [value]
            default:
                throw BenchError(description: "unknown argument \(argument); usage: glimpse-decode-bench "
                    + "[--rounds N] [--photo PATH] [--batch-seconds S] [--format jpeg|png]")
            }
        }
    }
}

/// CPU seconds of the calling thread: robust against other processes on a shared machine.
func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// Thread CPU seconds per call of `body`, measured over `iterations` calls.
func timePerCall(iterations: Int, _ body: () -> UInt64) -> (seconds: Double, sink: UInt64) {
    var sink: UInt64 = 0
    let start = threadCPUSeconds()
    for _ in 0..<iterations { sink &+= body() }
    return ((threadCPUSeconds() - start) / Double(iterations), sink)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func run() throws {
    let settings = try BenchSettings(arguments: CommandLine.arguments)
    let inputs = try BenchInputs.make(photo: settings.photo)
    emit("glimpse-decode-bench: GlimpseImage vs plain C loop (CDecodeReference), same libjpeg/libpng calls")
    emit("inputs: \(settings.photo) enlarged bilinearly; JPEG quality 90 4:2:0, PNG RGB zlib default")
    emit("rounds: \(settings.rounds) (alternating Glimpse/C batches of ~\(settings.batchSeconds) s of thread CPU time; median of the per-call means)")
    emit("")
    emit("| format | size | scale | output | bytes | Glimpse CPU ms | C CPU ms | ratio (C time / Glimpse time) |")
    emit("|---|---|---|---|---:|---:|---:|---:|")
    var sink: UInt64 = 0
    for input in inputs where settings.formats.contains(input.format) {
        for denominator in [1, 8] {
            let maxDimension = denominator == 1 ? nil : (max(input.width, input.height) + 7) / 8
            let options = DecodingOptions(maxDimension: maxDimension)
            let bytes = input.bytes
            let glimpse: () -> UInt64 = {
                guard let image = try? ImageDecoder.decode(bytes, options: options) else { return 0 }
                return UInt64(image.pixelBuffer.width &* image.pixelBuffer.height)
            }
            let reference: () -> UInt64 = {
                bytes.withUnsafeBufferPointer { p in
                    let result = input.format == .jpeg
                        ? reference_jpeg_decode(p.baseAddress, p.count, Int32(denominator))
                        : reference_png_decode(p.baseAddress, p.count, Int32(denominator))
                    return result.status == 0 ? UInt64(result.width) &* UInt64(result.height) : 0
                }
            }
            // Check both produce the same size before timing.
            let check = try ImageDecoder.decode(bytes, options: options).pixelBuffer
            let referenceCount = reference()
            guard referenceCount == UInt64(check.width * check.height) else {
                throw BenchError(description: "Glimpse and the C loop disagree on the output size of "
                    + "\(input.format) \(input.width)×\(input.height) at 1/\(denominator)")
            }
            // Calibrate the batch size from one warm call.
            let warm = timePerCall(iterations: 2, reference).seconds
            let iterations = max(1, Int(settings.batchSeconds / max(warm, 1e-6)))
            var glimpseTimes: [Double] = [], referenceTimes: [Double] = []
            for round in 0..<settings.rounds {
                // Alternate the order so that neither side always runs first.
                if round % 2 == 0 {
                    let g = timePerCall(iterations: iterations, glimpse)
                    let r = timePerCall(iterations: iterations, reference)
                    glimpseTimes.append(g.seconds); referenceTimes.append(r.seconds); sink &+= g.sink &+ r.sink
                } else {
                    let r = timePerCall(iterations: iterations, reference)
                    let g = timePerCall(iterations: iterations, glimpse)
                    glimpseTimes.append(g.seconds); referenceTimes.append(r.seconds); sink &+= g.sink &+ r.sink
                }
            }
            let g = median(glimpseTimes), r = median(referenceTimes)
            let size = "\(input.width)×\(input.height)"
            let output = "\(check.width)×\(check.height)"
            let line = "| \(input.format) | \(size) | 1/\(denominator) | \(output) | \(input.bytes.count) | "
                + "\(format(g * 1000)) | \(format(r * 1000)) | \(format(r / g)) |"
            emit(line)
        }
    }
    if sink == 42 { emit("") }  // keeps the results observable
}

/// Writes one line, unbuffered, to a file descriptor (1 = stdout, 2 = stderr).
func emit(_ text: String, to fd: Int32 = 1) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(fd, bytes.baseAddress, bytes.count) }
}

func format(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

do {
    try run()
} catch {
    emit("glimpse-decode-bench: \(error)", to: 2)
    exit(1)
}
