import Foundation
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseLabels
import GlimpseVision
import Testing
@testable import GlimpseCatalog

/// Places registered with the test matchers: the one the golden-hills photo used to be taken for, the
/// places queried, and a few others (a subset keeps debug-build tests fast).
private let registered: Set<String> = [
    "sunbeams-over-dark-mountains", "eiffel-tower", "misty-lake-blue-hour", "rowing-boats-lakeshore-sunset",
    "wooden-jetty-calm-lake", "fallen-maple-leaf", "chateau-de-chambord",
]

/// The committed feature-print model, by the rule every command uses.
private let sharedPrinter = Result { () throws -> FeaturePrinterPool in
    guard let pool = try FeaturePrinterPool.load(explicit: nil, catalogDirectory: Fixtures.imagesDirectory) else {
        throw CocoaError(.fileNoSuchFile)
    }
    return pool
}

private let keypointMatcher = Task { try await Fixtures.catalog.makeVisualMatcher(placeIDs: registered) }
/// Keypoints alone, with each reference photo's strongest keypoints rather than keypoints spread over it
/// (`referenceKeypointGrid` 1): the extraction under which the golden-hills photo passed the line.
private let strongestKeypointMatcher = Task {
    var configuration = VisionConfiguration.default
    configuration.referenceKeypointGrid = 1
    return try await Fixtures.catalog.makeVisualMatcher(configuration: configuration, placeIDs: registered)
}
private let printMatcher = Task {
    try await Fixtures.catalog.makeVisualMatcher(placeIDs: registered, printer: try sharedPrinter.get())
}

/// A photo of no catalog place whose keypoints alone pass the old accept line.
private let goldenHills = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Photos/golden-hills-not-in-catalog.jpg").path

@Suite("Matching with the feature print as second signal")
struct FeaturePrintMatchingTests {
    private func picture(_ path: String) throws -> PixelBuffer {
        try ImageDecoder.decode(contentsOfFile: path, options: VisionConfiguration.default.queryDecoding).pixelBuffer
    }

    @Test func aPhotoOfNoPlaceThatPassedOnKeypointsIsRefusedWithThePrint() async throws {
        let query = try picture(goldenHills)
        // Keypoints alone, each reference keeping its strongest keypoints: 11 reproduced points of the
        // sunbeams photo, over the line of 10.
        let before = try await strongestKeypointMatcher.value.match(query)
        #expect(before.accepted?.referenceID == "sunbeams-over-dark-mountains")
        #expect((before.accepted?.score ?? 0) >= 10)
        // Keypoints alone with the references' keypoints spread over each photo: below the line too.
        let spread = try await keypointMatcher.value.match(query)
        #expect(spread.accepted == nil)
        // With the print the two scenes are far apart, and the same geometry is not enough.
        let after = try await printMatcher.value.match(query)
        #expect(after.accepted == nil)
        let sunbeams = try #require(after.candidates.first { $0.referenceID == "sunbeams-over-dark-mountains" })
        #expect((sunbeams.similarity ?? 1) < 0.5)
        #expect(sunbeams.confidence < MatchDecision.acceptLine)
        #expect(after.featurePrint != nil)
        #expect(after.timings.featurePrint > .zero)
    }

    @Test(arguments: ["eiffel-tower", "wooden-jetty-calm-lake"])
    func aCatalogPhotoIsStillAcceptedWithoutRunningTheNetwork(placeID: String) async throws {
        let place = try #require(Fixtures.catalog.place(id: placeID))
        let report = try await printMatcher.value.match(try picture(place.photoPath))
        #expect(report.accepted?.referenceID == placeID)
        // Far above the line on keypoints alone: the print is not needed, and not computed.
        #expect(report.featurePrint == nil)
        #expect(report.timings.featurePrint == .zero)
    }

    @Test func aMirroredCatalogPhotoIsDecidedByTheMirrorProbeWithoutTheNetwork() async throws {
        // The jetty photo is far from symmetric: its mirror image matches only as a mirror image.
        let place = try #require(Fixtures.catalog.place(id: "wooden-jetty-calm-lake"))
        let gray = GrayImage(luminanceOf: try picture(place.photoPath)).mirrored()
        let report = try await printMatcher.value.match(gray.pixelBuffer)
        #expect(report.accepted?.referenceID == "wooden-jetty-calm-lake")
        #expect(report.accepted?.mirrored == true)
        #expect(report.usedMirror)
        // The keypoints of the mirror image decided it: the print was not needed, and not computed.
        #expect(report.featurePrint == nil)
        #expect(report.timings.featurePrint == .zero)
    }

    @Test func withoutTheProbeAMirroredPhotoWaitsForTheNetwork() async throws {
        var configuration = VisionConfiguration.default
        configuration.mirrorProbeSize = 0
        let matcher = try await Fixtures.catalog.makeVisualMatcher(
            configuration: configuration, placeIDs: registered, printer: try sharedPrinter.get())
        let place = try #require(Fixtures.catalog.place(id: "wooden-jetty-calm-lake"))
        let gray = GrayImage(luminanceOf: try picture(place.photoPath)).mirrored()
        let report = matcher.match(gray.pixelBuffer)
        #expect(report.accepted?.referenceID == "wooden-jetty-calm-lake")
        #expect(report.featurePrint != nil)
        #expect(report.timings.featurePrint > .zero)
    }

    @Test func referencesCarryThePrintsOfEveryView() async throws {
        let matcher = try await printMatcher.value
        #expect(matcher.printCount == registered.count * FeaturePrintViews.count)
        #expect(matcher.printDimension == 1280)
    }

    @Test func labelsReuseTheMatchersPrint() async throws {
        let printer = try sharedPrinter.get()
        let modelPath = URL(fileURLWithPath: Fixtures.imagesDirectory).deletingLastPathComponent()
            .appendingPathComponent("Models/labels.glimpsemodel").path
        let predictor = LabelPredictor(model: try LabelModel.load(from: modelPath, featurePrinter: printer))
        #expect(predictor.model.extractor.id == FeaturePrintExtractor.id)
        let query = try picture(goldenHills)
        let print = try printer.featurePrint(of: query)
        #expect(predictor.labels(for: query, reusing: print) == predictor.labels(for: query))
        #expect(predictor.labels(for: query).contains { $0.label == "sky" })
    }

    @Test func aLabelModelOnFeaturePrintsNeedsThePrinter() throws {
        let modelPath = URL(fileURLWithPath: Fixtures.imagesDirectory).deletingLastPathComponent()
            .appendingPathComponent("Models/labels.glimpsemodel").path
        #expect(throws: LabelModelError.self) { try LabelModel.load(from: modelPath) }
    }
}

@Suite("The accept rule on constructed evidence")
struct MatchDecisionTests {
    let decision = MatchDecision.default

    /// The confidence when the most similar other reference is `margin` less similar than `c`.
    private func confidence(_ s: Double, _ c: Double?, margin: Double = 0) -> Double {
        decision.confidence(score: s, similarity: c, rival: (c ?? 0) - margin, acceptScore: 10)
    }

    @Test func withoutAPrintTheLineIsTheAcceptScore() {
        #expect(confidence(10, nil) == 0.5)
        #expect(confidence(9, nil) < 0.5)
        #expect(confidence(40, nil) == 0.8)
        #expect(confidence(0, nil) == 0)
    }

    @Test func geometryJustOverTheOldLineNeedsAPrintThatAgrees() {
        // The kind of false match seen on photos of no catalog place: 11–16 points, an unrelated scene.
        #expect(confidence(11, 0.25, margin: -0.2) < 0.5)
        #expect(confidence(16, 0.3, margin: -0.2) < 0.5)
        // The same geometry with the nearest, clearly closer print is the place.
        #expect(confidence(11, 0.7, margin: 0.2) >= 0.5)
    }

    @Test func aCloseDistinctPrintCarriesAFewPoints() {
        // Low-texture scenes: few reproduced points, but the print picks the place out clearly.
        #expect(confidence(4, 0.8, margin: 0.3) >= 0.5)
        #expect(confidence(4, 0.7, margin: 0.0) < 0.5)
        // No geometry at all is never enough.
        #expect(confidence(0, 0.95, margin: 0.5) < 0.5)
    }

    @Test func manyPointsNeedNoPrint() {
        #expect(confidence(60, 0.2, margin: -0.3) >= 0.5)
    }

    @Test func aSmallCatalogLendsNoMarginToAnUnrelatedScene() {
        // Every other place far away: the margin is measured against the floor of unrelated scenes.
        let alone = decision.confidence(score: 11, similarity: 0.3, rival: 0.05, acceptScore: 10)
        let crowded = decision.confidence(score: 11, similarity: 0.3, rival: 0.5, acceptScore: 10)
        #expect(alone == crowded)
        #expect(alone < 0.5)
    }

    @Test func confidenceGrowsWithEveryKindOfEvidence() {
        #expect(confidence(6, 0.5) < confidence(7, 0.5))
        #expect(confidence(6, 0.5) < confidence(6, 0.6))
        #expect(confidence(6, 0.7, margin: 0) < confidence(6, 0.7, margin: 0.1))
    }
}
