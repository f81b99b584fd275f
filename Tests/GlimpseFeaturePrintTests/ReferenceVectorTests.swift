import Foundation
import GlimpseFeaturePrint
import GlimpseImage
import Testing

/// One entry of Fixtures/reference-vectors.json, written by scripts/featureprint/make_reference_vectors.py
/// from the original (unfolded, fp32) PyTorch network on exactly the pixels of `input`.
struct ReferenceVector: Decodable {
    struct Logit: Decodable {
        let `class`: Int
        let logit: Float
    }

    let input: String
    let source: String
    let embedding: [Float]
    let top5: [Logit]
}

@Suite("The committed model against the original network")
struct ReferenceVectorTests {
    static let references: [ReferenceVector] = {
        let path = Support.fixtures + "/reference-vectors.json"
        guard let data = FileManager.default.contents(atPath: path),
              let decoded = try? JSONDecoder().decode([ReferenceVector].self, from: data) else { return [] }
        return decoded
    }()

    @Test("Embedding cosine >= 0.9999 and the same top-1 class on every pinned input")
    func agreement() throws {
        #expect(Self.references.count == 8)
        let printer = try FeaturePrinter(model: try Support.committedModel.get())
        var output = FeaturePrintOutput()
        var lowest = 1.0
        for reference in Self.references {
            let pixels = try ImageDecoder.decode(contentsOfFile: Support.fixtures + "/" + reference.input).pixelBuffer
            try printer.run(networkInput: pixels, into: &output)
            let cosine = Support.cosine(output.embedding, reference.embedding)
            lowest = min(lowest, cosine)
            #expect(cosine >= 0.9999, "\(reference.input): cosine \(cosine)")
            #expect(output.topClass == reference.top5.first?.class, "\(reference.input)")
            // The raw logits, not only their order, match the reference.
            for entry in reference.top5 {
                #expect(abs(output.logits[entry.class] - entry.logit) < 0.05 * max(1, abs(entry.logit)),
                        "\(reference.input) class \(entry.class)")
            }
        }
        print("feature print reference agreement: min cosine \(lowest) over \(Self.references.count) inputs")
    }
}

@Suite("Feature prints of real photos, end to end")
struct RealPhotoTests {
    @Test("Catalog JPEGs, decoded and squashed by Glimpse, match the reference prints made by PIL and keep their class")
    func photos() throws {
        let printer = try FeaturePrinter(model: try Support.committedModel.get(), preprocessing: .squash)
        var lowest = 1.0
        for reference in ReferenceVectorTests.references {
            let photo = try ImageDecoder.decode(contentsOfFile: Support.root + "/" + reference.source).pixelBuffer
            let (print, logits) = try printer.featurePrintWithLogits(of: photo)
            let cosine = Double(print.cosine(FeaturePrint(normalizing: reference.embedding)))
            lowest = min(lowest, cosine)
            #expect(cosine >= 0.98, "\(reference.source): cosine \(cosine)")
            let top = logits.indices.max { logits[$0] < logits[$1] }
            #expect(top.map { index in reference.top5.prefix(2).contains { $0.class == index } } == true,
                    "\(reference.source): top class \(top.map(String.init) ?? "none")")
        }
        print("real photos through Glimpse's decoder and squash vs PIL's: min cosine \(lowest)")
    }
}
