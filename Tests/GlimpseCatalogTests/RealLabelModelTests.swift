import Foundation
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseIntents
import GlimpseLabels
import Testing
@testable import GlimpseCatalog

@Suite("Visual search with the committed label model")
struct RealLabelModelTests {
    private static let modelPath = URL(fileURLWithPath: Fixtures.imagesDirectory).deletingLastPathComponent()
        .appendingPathComponent("Models/labels.glimpsemodel").path

    @Test(arguments: ["orange-gerbera", "american-bison"])
    func picturesWithoutAMatchGetDerivedLabelsAndCollections(placeID: String) async throws {
        let printer = FeaturePrinterPool(model: try FeaturePrintModel.load(from: URL(fileURLWithPath: Self.modelPath)
            .deletingLastPathComponent().appendingPathComponent("featureprint.glimpsemodel").path))
        let predictor = LabelPredictor(model: try LabelModel.load(from: Self.modelPath, featurePrinter: printer))
        let store = SnapshotStore()
        // No matcher: the labels must come from the model.
        let query = VisualSearchQuery(snapshot: store.publish(Fixtures.catalog), store: store, labeler: predictor)
        let place = try #require(Fixtures.catalog.place(id: placeID))
        let picture = try ImageDecoder.decode(contentsOfFile: place.photoPath).pixelBuffer

        // Without a matcher nothing is accepted: the collections are suggestions, listed on request.
        let page = try await query.search(SemanticContentDescriptor(pixelBuffer: picture), minimumScore: 0)
        #expect(page.labelSource == .derived)
        #expect(!page.labels.isEmpty)
        #expect(page.labels.allSatisfy { Fixtures.catalog.labels.contains($0.label) && $0.score > 0 })
        #expect(page.items.allSatisfy { if case .collection = $0.result { true } else { false } })
        // The photo is one of the model's references: its own labels come back and its collections
        // are on the first page.
        #expect(!Set(page.labels.map(\.label)).isDisjoint(with: place.labels))
        #expect(Set(place.collections).isSubset(of: page.results.map(\.entityIdentifierString)))
    }
}
