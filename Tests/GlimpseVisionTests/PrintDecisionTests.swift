import Foundation
import GlimpseFeaturePrint
import GlimpseImage
import Testing
@testable import GlimpseVision

/// A printer that gives each query picture the print registered for its width: constructed cases for
/// the print-alone decision, without the network.
struct StubPrinter: FeaturePrinting {
    let prints: [Int: FeaturePrint]
    var featurePrintIdentity: String { "stub-printer-16" }
    var featurePrintDimension: Int { 16 }

    func featurePrint(of image: PixelBuffer) throws -> FeaturePrint {
        guard let print = prints[image.width] else { throw CancellationError() }
        return print
    }

    func referencePrints(of image: PixelBuffer) throws -> [FeaturePrint] { [try featurePrint(of: image)] }
}

/// A 16-d print along the given axes with the given weights, normalised.
func along(_ parts: [(axis: Int, weight: Float)]) -> FeaturePrint {
    var values = [Float](repeating: 0, count: 16)
    for part in parts { values[part.axis] += part.weight }
    return FeaturePrint(normalizing: values)
}

/// A flat grey picture `width` pixels wide: no keypoints, so only the print can decide.
func flatPicture(width: Int) throws -> PixelBuffer {
    try PixelBuffer(width: width, height: 100, pixelFormat: .gray8, bytes: [UInt8](repeating: 128, count: width * 100))
}

/// A place without keypoints whose one reference print is `print`.
func place(_ id: String, _ print: FeaturePrint) -> MatcherReference {
    MatcherReference(
        id: id, key: id, features: ImageFeatures(width: 100, height: 100, keypoints: [], descriptorWords: [],
                                                 featurePrints: [print]))
}

/// The print-alone accept line: measured from null prints for each catalog, accepting on print evidence
/// where photos of no catalog place do not land, refusing where they do, and leaving geometry as it was.
@Suite struct PrintDecisionTests {
    /// Five places along axes 0…4.
    static let places = (0..<5).map { place("place-\($0)", along([($0, 1)])) }

    /// 200 null prints leaning towards place 0 by 0.30…0.80 (the rest on axes 5…15), so their evidence
    /// `c + 5·(c − 0.5)` spreads up to 2.3.
    static let nulls: NullPrints = {
        var values: [Float] = []
        for k in 0..<200 {
            let a = Float(0.3 + 0.5 * Double(k) / 199)
            values += along([(0, a), (5 + k % 11, (1 - a * a).squareRoot())]).values
        }
        return NullPrints(identity: "stub-printer-16", source: "constructed", dimension: 16, values: values)
    }()

    static func matcher(_ prints: [Int: FeaturePrint], references: [MatcherReference] = places) -> VisualMatcher {
        VisualMatcher(keyedReferences: references, printer: StubPrinter(prints: prints), nullPrints: nulls)
    }

    @Test func theLineLetsAtMostTheTargetShareOfNullsOver() throws {
        let calibration = try #require(Self.matcher([:]).printCalibration)
        #expect(calibration.nullCount == 200 && calibration.places == 5)
        #expect(calibration.nullsOverLine <= 2)
        // The third highest null, a = 0.3 + 0.5·197/199, evidence 6a − 2.5, lies on the line.
        let third = 6 * (0.3 + 0.5 * 197 / 199.0) - 2.5
        #expect(abs(calibration.threshold - third) < 1e-3)
    }

    @Test func aPrintFarBeyondTheNullsIsAcceptedWithoutGeometry() throws {
        let matcher = Self.matcher([120: along([(2, 1), (9, 0.2)])])
        let report = matcher.match(try flatPicture(width: 120))
        let accepted = try #require(report.accepted)
        #expect(accepted.referenceID == "place-2")
        #expect(accepted.score == 0 && accepted.inliers == 0)
        #expect(accepted.confidence >= MatchDecision.acceptLine)
        #expect(accepted.similarity.map { $0 > 0.95 } == true && accepted.margin.map { $0 > 0.9 } == true)
        #expect(report.places.isEmpty)
    }

    @Test func aPrintWhereNullsLandIsRefused() throws {
        // As close to place 0 as the closest nulls, and between two places with no margin.
        let a: Float = 0.75
        let matcher = Self.matcher([
            130: along([(0, a), (7, (1 - a * a).squareRoot())]),
            140: along([(1, 0.7), (3, 0.7), (12, 0.1)]),
        ])
        for width in [130, 140] {
            let report = matcher.match(try flatPicture(width: width))
            #expect(report.accepted == nil)
            // Still ranked, below the line, with the print's evidence.
            let best = try #require(report.candidates.first)
            #expect(best.confidence < MatchDecision.acceptLine && best.similarity != nil && best.margin != nil)
        }
    }

    @Test func candidatesTiedOnEveryCountAreRankedByReferenceWhateverOrderTheyCameIn() throws {
        let matcher = VisualMatcher(keyedReferences: Self.places, printer: StubPrinter(prints: [:]))
        let tied = ["c", "a", "b"].map {
            MatchCandidate(referenceID: $0, votes: 3, verified: true, inliers: 9, score: 9, mirrored: false)
        }
        #expect(matcher.sortCandidates(tied).map(\.referenceID) == ["a", "b", "c"])
        #expect(matcher.merge(tied, tied.reversed()).map(\.referenceID) == ["a", "b", "c"])
    }

    @Test func withoutNullPrintsThePrintAloneAcceptsNothing() throws {
        let matcher = VisualMatcher(
            keyedReferences: Self.places, printer: StubPrinter(prints: [120: along([(2, 1)])]))
        #expect(matcher.printCalibration == nil)
        #expect(matcher.match(try flatPicture(width: 120)).accepted == nil)
    }

    @Test func geometryAloneStillAcceptsACopyWhosePrintLooksLikeNothing() throws {
        // Real photos with keypoints; the query's print is a null's, so only its geometry can carry it.
        let photos = try [3, 12, 27].map { i in try Fixtures.decode(Fixtures.photos[i]) }
        let references = photos.enumerated().map { n, buffer in
            MatcherReference(
                id: "photo-\(n)", key: "photo-\(n)",
                features: FeatureExtractor.extract(from: buffer).with(featurePrints: [along([(n, 1)])]))
        }
        let query = try Fixtures.buffer(Fixtures.rotated(GrayImage(luminanceOf: photos[1]), degrees: 9))
        let nullLike = along([(0, 0.4), (3, 0.4), (6, 0.8)])
        let matcher = Self.matcher([query.width: nullLike], references: references)
        let accepted = try #require(matcher.match(query).accepted)
        #expect(accepted.referenceID == "photo-1")
        #expect(accepted.verified && accepted.score >= Double(VisionConfiguration.default.acceptScore))
    }

    @Test func theLineIsMeasuredAgainAfterAnEditAddingANearDuplicatePlace() async throws {
        let base = Self.matcher([:])
        let before = try #require(base.printCalibration)
        // A near twin of place 0: the nulls leaning towards place 0 lose their margin.
        let twin = place("place-0-twin", along([(0, 1), (15, 0.1)]))
        let grown = base.updated(adding: [twin], removingKeys: [])
        let after = try #require(await grown.calibrated())
        #expect(after.places == 6)
        #expect(after.threshold < before.threshold - 0.3)
        // The same line as a matcher built from scratch over the same places.
        let fresh = try #require(Self.matcher([:], references: Self.places + [twin]).printCalibration)
        #expect(abs(after.threshold - fresh.threshold) < 1e-9)
        // The matcher edited from is untouched.
        #expect(base.printCalibration == before)
    }

    @Test func nullPrintsRoundTripAndAreRefusedWhenTruncatedDamagedOrOfAnotherNetwork() throws {
        let bytes = Self.nulls.encoded()
        let back = try NullPrints.decode(bytes, expectingIdentity: "stub-printer-16")
        #expect(back == Self.nulls)
        #expect(throws: NullPrintsError.truncated(path: "(in memory)")) {
            try NullPrints.decode(Array(bytes.dropLast(9)), expectingIdentity: "stub-printer-16")
        }
        #expect(throws: NullPrintsError.otherNetwork(
            path: "(in memory)", madeBy: "stub-printer-16", expected: "efficientnet-lite0-int8")) {
            try NullPrints.decode(bytes, expectingIdentity: "efficientnet-lite0-int8")
        }
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x40
        #expect(throws: NullPrintsError.damaged(path: "(in memory)")) {
            try NullPrints.decode(damaged, expectingIdentity: "stub-printer-16")
        }
        #expect(throws: NullPrintsError.notNullPrints(path: "(in memory)")) {
            try NullPrints.decode(Array("GLFEAT".utf8), expectingIdentity: "stub-printer-16")
        }
        // Every error says how to make a file for this network.
        #expect(NullPrintsError.truncated(path: "x").description.contains("make-null-prints.sh"))
        #expect(NullPrintsError.otherNetwork(path: "x", madeBy: "a", expected: "b").description.contains("another"))
    }
}
