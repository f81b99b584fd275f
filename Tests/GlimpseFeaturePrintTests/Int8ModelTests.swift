import Foundation
@testable import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseImage
import GlimpseTestSupport
import Testing

@Suite("The int8 feature-print network")
struct Int8ModelTests {
    static func models() throws -> (fp32: FeaturePrintModel, int8: FeaturePrintModel) {
        (try CommittedModels.featurePrinter.get().model, try CommittedModels.int8FeaturePrinter.get().model)
    }

    /// `bytes` with a correct checksum after `edit`.
    static func resealed(_ bytes: [UInt8], _ edit: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes = bytes
        edit(&bytes)
        let body = bytes.count - 4
        let crc = CRC32.checksum(bytes[0..<body])
        for i in 0..<4 { bytes[body + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return bytes
    }

    @Test("The committed int8 file loads as the same network in int8, and encodes to its own bytes")
    func roundTrip() throws {
        let (fp32, int8) = try Self.models()
        let bytes = try AtomicFile.readAll(Repository.featurePrintInt8Model)
        #expect(int8.precision == .int8 && int8.weightType == .int8 && fp32.precision == .fp32)
        #expect(bytes[8] == 2, "int8 files are format version 2")
        #expect(int8.encoded() == bytes)
        #expect(int8.network == fp32.network && int8.input == fp32.input && int8.layerCount == fp32.layerCount)
        #expect(int8.embeddingDimension == 1280 && int8.logitCount == 1000)
        #expect(int8.provenance.contains("int8") && int8.provenance != fp32.provenance)
        let quantization = try #require(int8.inputQuantization)
        // Pixel x is stored exactly: the code x - 128 is (x - mean) × scale.
        for byte in [0, 1, 127, 128, 255] {
            let real = (Float(byte) - int8.input.mean) * int8.input.scale
            #expect(quantization.quantize(real) == Int8(byte - 128))
            #expect(quantization.dequantize(Int8(byte - 128)) == real)
        }
        let decoded = try FeaturePrintModel.decode(bytes)
        #expect(decoded.layers == int8.layers)
    }

    @Test("Refusals: truncated, a flipped bit, another version, a version-1 file with int8 weights, bad scales")
    func refusals() throws {
        let bytes = try AtomicFile.readAll(Repository.featurePrintInt8Model)
        #expect(throws: FeaturePrintModelError.file(.truncated(path: "x", expected: bytes.count, actual: bytes.count - 1000))) {
            try FeaturePrintModel.decode(Array(bytes.dropLast(1000)), name: "x")
        }
        for at in [bytes.count / 3, bytes.count - 100] {
            var flipped = bytes
            flipped[at] ^= 0x04
            let error = #expect(throws: FeaturePrintModelError.self) { try FeaturePrintModel.decode(flipped, name: "x") }
            guard case .file(.checksumMismatch(path: "x", _, _))? = error else {
                Issue.record("a flipped bit at \(at): expected a checksum mismatch, got \(String(describing: error))")
                continue
            }
        }
        #expect(throws: FeaturePrintModelError.file(.unsupportedFormatVersion(path: "x", found: 3, supported: 1...2))) {
            try FeaturePrintModel.decode(Self.resealed(bytes) { $0[8] = 3 }, name: "x")
        }
        func reason(_ edit: (inout [UInt8]) -> Void) -> String {
            do {
                _ = try FeaturePrintModel.decode(Self.resealed(bytes, edit), name: "x")
                return "accepted"
            } catch {
                guard case let .file(.malformed(_, found)) = error else { return "\(error)" }
                return found
            }
        }
        // An int8 body under version 1 is not read as floats.
        #expect(reason { $0[8] = 1 }.contains("weight type 2"))
        // Header: 20 bytes, two strings, 3 × 4 input, weight type, 3 ids, then the input scale and zero point.
        var at = 20
        for _ in 0..<2 { at += 4 + Int(UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8) }
        let inputScale = at + 12 + 4 + 12
        #expect(reason { $0.replaceSubrange(inputScale..<inputScale + 4, with: [0, 0, 0xC0, 0x7F]) }
            .contains("the input has int8 scale nan"))
        #expect(reason { $0.replaceSubrange(inputScale + 4..<inputScale + 8, with: [0, 1, 0, 0]) }
            .contains("zero point 256"))
        // The first layer's output scale follows its 40 bytes of fields.
        let firstOutput = inputScale + 8 + 4 + 40
        #expect(reason { $0.replaceSubrange(firstOutput..<firstOutput + 8, with: [0, 0, 0, 0, 0, 0, 0, 0]) }
            .contains("must read and write int8 values"))
        // Its first weight code.
        #expect(reason { $0[firstOutput + 8] = 0x80 }.contains("weight code -128"))
    }

    @Test("Quantise then dequantise: every stored weight is within half its channel's scale of the fp32 weight")
    func weightsWithinScale() throws {
        let (fp32, int8) = try Self.models()
        let quantization = try #require(int8.quantization)
        var checked = 0
        for (index, (record32, record8)) in zip(fp32.records, int8.records).enumerated() where !record8.weights.isEmpty {
            #expect(record32.layer.kind == record8.layer.kind && record32.weights == record8.weights)
            let channels = quantization.channels[index]
            let count = record8.bias.count
            let depthwise = record8.layer.kind == .depthwiseConvolution
            let perChannel = record8.weights.count / count
            var largest = [Float](repeating: 0, count: count)
            for (n, i) in record8.weights.enumerated() {
                let channel = depthwise ? n % count : n / perChannel
                let scale = quantization.scales[channels.lowerBound + channel]
                let code = quantization.codes[i]
                #expect(code != -128)
                largest[channel] = max(largest[channel], Swift.abs(fp32.parameters[i]))
                let dequantised = int8.parameters[i]
                #expect(dequantised == Float(code) * scale)
                let error = Swift.abs(dequantised - fp32.parameters[i])
                if error > scale / 2 * 1.0001 + 1e-7 {
                    Issue.record("layer \(index) weight \(n): error \(error) beyond half the scale \(scale)")
                    return
                }
                checked += 1
            }
            // Nothing is clipped: ±127 steps of a channel's scale reach its largest weight.
            for (channel, peak) in largest.enumerated() {
                let scale = quantization.scales[channels.lowerBound + channel]
                #expect(127 * scale >= peak * (1 - 1e-6), "layer \(index) channel \(channel): scale \(scale), peak \(peak)")
            }
        }
        #expect(checked == int8.records.map(\.weights.count).reduce(0, +))
        var numbers = Support.Numbers(state: 31)
        let grid = FeaturePrintQuantization(scale: 0.037, zeroPoint: -11)
        for _ in 0..<2000 {
            let value = numbers.next() * 4.3
            #expect(Swift.abs(grid.dequantize(grid.quantize(value)) - value) <= grid.scale / 2 * 1.0001)
        }
    }

    @Test("Agreement with the fp32 print on the catalog photos: mean cosine at least 0.995, minimum at least 0.98")
    func agreesWithFP32() throws {
        let fp32 = try CommittedModels.featurePrinter.get(), int8 = try CommittedModels.int8FeaturePrinter.get()
        let names = try FileManager.default.contentsOfDirectory(atPath: Repository.photos)
            .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }.sorted()
        #expect(names.count == 91)
        var cosines: [Float] = []
        for name in names {
            let pixels = try ImageDecoder.decode(contentsOfFile: Repository.photos + "/" + name).pixelBuffer
            let a = try fp32.featurePrint(of: pixels), b = try int8.featurePrint(of: pixels)
            #expect(b.values.count == 1280)
            cosines.append(zip(a.values, b.values).reduce(0) { $0 + $1.0 * $1.1 })
        }
        let mean = cosines.reduce(0, +) / Float(cosines.count)
        let least = cosines.min() ?? 0
        #expect(mean >= 0.995, "mean cosine \(mean)")
        #expect(least >= 0.98, "minimum cosine \(least)")
    }

    @Test("The hand-written VNNI kernels and XNNPACK's subgraph give the same int8 network (cosine at least 0.999)")
    func vnniAgreesWithSubgraph() throws {
        let model = try CommittedModels.int8FeaturePrinter.get().model
        let fast = try FeaturePrinter(model: model, preprocessing: .squash, int8Engine: .handWritten)
        let portable = try FeaturePrinter(model: model, preprocessing: .squash, int8Engine: .xnnpack)
        var fastOutput = FeaturePrintOutput(), portableOutput = FeaturePrintOutput()
        for seed in 0..<4 {
            let pixels = try Support.pattern(width: 224, height: 224, seed: seed)
            try fast.run(networkInput: pixels, into: &fastOutput)
            try portable.run(networkInput: pixels, into: &portableOutput)
            let cosine = zip(fastOutput.featurePrint.values, portableOutput.featurePrint.values).reduce(0) { $0 + $1.0 * $1.1 }
            #expect(cosine >= 0.999, "seed \(seed): cosine \(cosine)")
            // The classifier's input is quantised per run on the VNNI engine and stays f32 in the subgraph.
            let a = fastOutput.logits, b = portableOutput.logits
            let dot = zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            let norms = (a.reduce(Float(0)) { $0 + $1 * $1 } * b.reduce(Float(0)) { $0 + $1 * $1 }).squareRoot()
            #expect(a.count == 1000 && dot / norms >= 0.999, "seed \(seed): logits cosine \(dot / norms)")
        }
    }

    @Test("Prints of the two precisions never meet: the printer identities differ")
    func identitiesDiffer() throws {
        let fp32 = try CommittedModels.featurePrinter.get(), int8 = try CommittedModels.int8FeaturePrinter.get()
        #expect(fp32.model.precision == .fp32 && int8.model.precision == .int8)
        #expect(FeaturePrintModel.conventionalPath(precision: .int8) == "Models/featureprint-int8.glimpsemodel")
        #expect(FeaturePrintModel.defaultPath(precision: .int8, catalogDirectory: "/nonexistent/catalog")
            == "Models/featureprint-int8.glimpsemodel")
        #expect(FeaturePrintModel.defaultPath(precision: .fp32, catalogDirectory: "/nonexistent/catalog")
            == "Models/featureprint.glimpsemodel")
    }
}
