import Testing
@testable import GlimpseVision

/// Matching real catalog photos after camera-like changes, against a small reference set
/// (a subset keeps the suite fast in debug builds).
@Suite(.serialized) struct MatcherTests {
    static let picks = [2, 17, 33, 48, 64, 80]

    /// The reference set, built once for the suite.
    static let shared: (matcher: VisualMatcher, grays: [String: GrayImage]) = {
        var refs: [(id: String, features: ImageFeatures)] = []
        var grays: [String: GrayImage] = [:]
        for i in picks {
            let path = Fixtures.photos[i]
            let id = "place-\(i)"
            guard let buffer = try? Fixtures.decode(path) else { continue }
            refs.append((id, FeatureExtractor.extract(from: buffer)))
            grays[id] = GrayImage(luminanceOf: buffer)
        }
        return (VisualMatcher(references: refs), grays)
    }()

    func expectMatch(_ image: GrayImage, _ id: String, mirrored: Bool = false) throws {
        let report = Self.shared.matcher.match(try Fixtures.buffer(image))
        let accepted = try #require(report.accepted, "no match for \(id); candidates \(report.candidates)")
        #expect(accepted.referenceID == id)
        #expect(accepted.score >= Double(VisionConfiguration.default.acceptScore))
        #expect(accepted.mirrored == mirrored)
        #expect(report.candidates.first == accepted)
        #expect(report.timings.features > .zero && report.timings.verification > .zero)
    }

    @Test func referenceSetIsComplete() {
        #expect(Self.shared.matcher.referenceCount == Self.picks.count)
    }

    @Test(arguments: [2, 48])
    func rotatedCopyMatches(pick: Int) throws {
        let id = "place-\(pick)"
        let gray = try #require(Self.shared.grays[id])
        try expectMatch(Fixtures.rotated(gray, degrees: pick == 2 ? 14 : -20), id)
    }

    @Test func mirroredCopyMatchesThroughTheCascade() throws {
        let id = "place-33"
        let gray = try #require(Self.shared.grays[id])
        try expectMatch(gray.mirrored(), id, mirrored: true)
    }

    @Test func croppedAndShrunkCopyMatches() throws {
        let id = "place-64"
        let gray = try #require(Self.shared.grays[id])
        // Keep 56 % of the area, off-centre, then shrink to a 330-pixel long side.
        let w = gray.width * 3 / 4, h = gray.height * 3 / 4
        let crop = Fixtures.cropped(gray, x0: gray.width - w, y0: gray.height / 8, width: w, height: h)
        let size = GrayImage.fittedSize(width: crop.width, height: crop.height, maxLongSide: 330, minLongSide: 0)
        try expectMatch(crop.resampled(width: size.width, height: size.height), id)
    }

    @Test func recompressedCopyMatches() throws {
        let id = "place-17"
        let gray = try #require(Self.shared.grays[id])
        try expectMatch(Fixtures.recompressed(gray, step: 24), id)
    }

    @Test(.enabled(if: Fixtures.hasLabelledPhotos, "needs the labelled non-catalog photos"))
    func photoOfAnotherSceneMatchesNothing() throws {
        let report = Self.shared.matcher.match(try Fixtures.decode(Fixtures.labelledDirectory + "/001-alpaca-head.jpg"))
        #expect(report.accepted == nil)
        #expect(report.usedMirror)
        #expect(report.candidates.allSatisfy { $0.score < Double(VisionConfiguration.default.acceptScore) })
    }

    @Test func matchingIsDeterministic() throws {
        let gray = try #require(Self.shared.grays["place-80"])
        let query = try Fixtures.buffer(Fixtures.rotated(gray, degrees: 7))
        let a = Self.shared.matcher.match(query), b = Self.shared.matcher.match(query)
        #expect(a.candidates == b.candidates)
    }

    @Test func emptyMatcherAnswersNoMatch() throws {
        let matcher = VisualMatcher(references: [])
        let gray = try #require(Self.shared.grays["place-2"])
        let report = matcher.match(try Fixtures.buffer(gray))
        #expect(report.accepted == nil && report.candidates.isEmpty)
    }
}
