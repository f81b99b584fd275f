import GlimpseFeaturePrint
import GlimpseImage
import Testing

@Suite("The XNNPACK engine against a scalar forward pass")
struct EngineTests {
    @Test("Every layer kind, both SAME paddings (odd and even sizes), ReLU6: embedding and logits agree",
          arguments: [17, 18, 9])
    func agreesWithReference(inputSize: Int) throws {
        let model = try Support.smallModel(inputSize: inputSize)
        let printer = try FeaturePrinter(model: model)
        for seed in 0..<3 {
            let pixels = try Support.pattern(width: inputSize, height: inputSize, seed: seed)
            var output = FeaturePrintOutput()
            try printer.run(networkInput: pixels, into: &output)
            let values = ReferenceForward.run(model, input: ReferenceForward.input(pixels, mean: 127, scale: 1.0 / 128))
            let embedding = try #require(values[model.embeddingValue]).data
            let logitsValue = try #require(model.logitsValue)
            let logits = try #require(values[logitsValue]).data
            #expect(output.embedding.count == 20 && output.logits.count == 7)
            for (engine, reference) in zip(output.embedding + output.logits, embedding + logits) {
                #expect(abs(engine - reference) <= 1e-4 * max(1, abs(reference)), "engine \(engine), reference \(reference)")
            }
            #expect(embedding.contains { $0 > 0 }, "the test network must not be all clamped to zero")
        }
    }

    @Test("A model without logits runs and gives the same embedding, and no logits")
    func withoutLogits() throws {
        let full = try Support.smallModel(inputSize: 17)
        let model = try FeaturePrintModel(network: "no-logits", provenance: "", input: full.input, weightType: .float32,
                                          valueCount: full.valueCount, embeddingValue: full.embeddingValue,
                                          logitsValue: nil, layers: Array(full.layers.dropLast()))
        #expect(model.logitCount == 0)
        let pixels = try Support.pattern(width: 17, height: 17, seed: 4)
        var output = FeaturePrintOutput()
        try FeaturePrinter(model: model).run(networkInput: pixels, into: &output)
        #expect(output.logits.isEmpty && output.topClass == nil)
        #expect(try output.featurePrint == FeaturePrinter(model: full).featurePrint(ofNetworkInput: pixels))
    }

    @Test("A wrong-sized network input is refused with the expected size")
    func wrongSize() throws {
        let printer = try FeaturePrinter(model: try Support.smallModel(inputSize: 17))
        var output = FeaturePrintOutput()
        #expect(throws: FeaturePrintError.wrongInputSize(width: 16, height: 17, expected: 17)) {
            try printer.run(networkInput: try Support.pattern(width: 16, height: 17), into: &output)
        }
    }

    @Test("Gray and RGBA network inputs are read as RGB")
    func pixelFormats() throws {
        let printer = try FeaturePrinter(model: try Support.smallModel(inputSize: 9))
        let rgb = try Support.pattern(width: 9, height: 9, seed: 2)
        #expect(try printer.featurePrint(ofNetworkInput: rgb.converted(to: .rgba8)) == printer.featurePrint(ofNetworkInput: rgb))
        let gray = rgb.converted(to: .gray8)
        #expect(try printer.featurePrint(ofNetworkInput: gray) == printer.featurePrint(ofNetworkInput: gray.converted(to: .rgb8)))
    }

    @Test("Runs reuse the caller's output buffers: no allocation once they are sized")
    func buffersReused() throws {
        let printer = try FeaturePrinter(model: try Support.smallModel(inputSize: 9))
        var output = FeaturePrintOutput()
        try printer.run(networkInput: try Support.pattern(width: 9, height: 9), into: &output)
        let embedding = output.embedding.withUnsafeBufferPointer { $0.baseAddress }
        let logits = output.logits.withUnsafeBufferPointer { $0.baseAddress }
        let firstPrint = output.featurePrint
        for seed in 1...3 {
            try printer.run(networkInput: try Support.pattern(width: 9, height: 9, seed: seed), into: &output)
            #expect(output.embedding.withUnsafeBufferPointer { $0.baseAddress } == embedding)
            #expect(output.logits.withUnsafeBufferPointer { $0.baseAddress } == logits)
        }
        #expect(output.featurePrint != firstPrint, "different inputs must give different prints")
    }
}

@Suite("Feature prints from several threads")
struct ConcurrencyTests {
    @Test("Two printers in parallel give exactly what one printer gives")
    func parallelPrinters() async throws {
        let model = try Support.smallModel(inputSize: 17)
        let images = try (0..<8).map { try Support.pattern(width: 40, height: 30, seed: $0) }
        let single = try FeaturePrinter(model: model)
        let expected = try images.map { try single.featurePrint(of: $0) }
        let printers = try [FeaturePrinter(model: model), FeaturePrinter(model: model)]
        let results = try await withThrowingTaskGroup(of: (Int, [FeaturePrint]).self) { group in
            for (index, printer) in printers.enumerated() {
                group.addTask {
                    var prints: [FeaturePrint] = []
                    for _ in 0..<5 { prints = try images.map { try printer.featurePrint(of: $0) } }
                    return (index, prints)
                }
            }
            var all: [Int: [FeaturePrint]] = [:]
            for try await (index, prints) in group { all[index] = prints }
            return all
        }
        #expect(results[0] == expected)
        #expect(results[1] == expected)
    }

    @Test("A pool serves concurrent callers with distinct printers and keeps them")
    func pool() async throws {
        let model = try Support.smallModel(inputSize: 17)
        let image = try Support.pattern(width: 17, height: 17, seed: 5)
        let expected = try FeaturePrinter(model: model).featurePrint(of: image)
        let pool = FeaturePrinterPool(model: model)
        let prints = try await withThrowingTaskGroup(of: FeaturePrint.self) { group in
            for _ in 0..<8 { group.addTask { try pool.featurePrint(of: image) } }
            var all: [FeaturePrint] = []
            for try await print in group { all.append(print) }
            return all
        }
        #expect(prints.count == 8 && prints.allSatisfy { $0 == expected })
        #expect((1...8).contains(pool.idleCount))
    }
}
