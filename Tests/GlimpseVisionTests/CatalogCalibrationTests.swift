import Foundation
import GlimpseFeaturePrint
import GlimpseImage
import Testing
@testable import GlimpseVision

/// The print line made the catalog's own: null prints that are copies of catalog photos are left out,
/// and a place that another place's photo reaches closely gets a line of its own.
@Suite struct CatalogCalibrationTests {
    /// 300 null prints leaning towards place 0 by 0.30…0.60 (the rest on axes 8…15): evidence up to 1.1.
    static let nullValues: [Float] = (0..<300).flatMap { k -> [Float] in
        let a = Float(0.3 + 0.3 * Double(k) / 299)
        return along([(0, a), (8 + k % 8, (1 - a * a).squareRoot())]).values
    }

    static func nulls(_ values: [Float]) -> NullPrints {
        NullPrints(identity: "stub-printer-16", source: "constructed", dimension: 16, values: values)
    }

    static let lone = place("lone", along([(1, 1)]))
    /// Two look-alikes: cosine 0.735 to each other, far from everything else.
    static let siblingA = place("sibling-a", along([(2, 1), (3, 0.6)]))
    static let siblingB = place("sibling-b", along([(2, 1), (4, 0.6)]))
    /// A new photograph of the lone place, and a third object of the siblings' kind, closest to sibling A.
    static let newPhotoOfLone = along([(1, 0.8), (13, 0.6)])
    static let thirdSibling = along([(2, 1), (3, 0.35), (5, 0.45)])

    static func matcher(_ references: [MatcherReference], nulls: NullPrints = nulls(nullValues)) -> VisualMatcher {
        VisualMatcher(
            keyedReferences: references,
            printer: StubPrinter(prints: [120: newPhotoOfLone, 130: thirdSibling]), nullPrints: nulls)
    }

    static let basePlaces = [place("place-0", along([(0, 1)])), lone]

    @Test func aCatalogHoldingANullPoolPhotoKeepsItsLine() throws {
        // A wallpaper in the null pool three times (as it is and two camera-like copies) becomes a place.
        let wallpaper = along([(6, 1), (7, 0.2)])
        let copies = [wallpaper, along([(6, 1), (7, 0.5), (9, 0.2)]), along([(6, 1), (7, 0.1), (10, 0.35)])]
        let pool = Self.nulls(Self.nullValues + copies.flatMap(\.values))
        let without = try #require(Self.matcher(Self.basePlaces, nulls: pool).printCalibration)
        #expect(without.nullsLeftOut == 0 && without.nullCount == 303)
        let with = try #require(Self.matcher(Self.basePlaces + [place("wallpaper", wallpaper)], nulls: pool).printCalibration)
        #expect(with.nullsLeftOut == 3 && with.nullCount == 300)
        // The copies would otherwise hold the line far up (over 3): it stays where the photos of no place put it.
        let reference = try #require(Self.matcher(Self.basePlaces + [place("wallpaper", wallpaper)]).printCalibration)
        #expect(abs(with.threshold - reference.threshold) < 1e-9)
        #expect(with.threshold < 1.2)
    }

    @Test func aThirdSiblingIsRefusedWhileANewPhotographOfALonePlaceIsAccepted() throws {
        let matcher = Self.matcher(Self.basePlaces + [Self.siblingA, Self.siblingB])
        let calibration = try #require(matcher.printCalibration)
        #expect(calibration.threshold < 1.2)
        #expect(calibration.raisedLines["lone"] == nil && calibration.raisedLines["place-0"] == nil)
        let lineA = try #require(calibration.raisedLines["sibling-a"])
        #expect(lineA.place == "sibling-b" && lineA.line > 1.9)
        #expect(calibration.line(for: "sibling-a") == lineA.line && calibration.line(for: "lone") == calibration.threshold)

        let lone = try #require(matcher.match(try flatPicture(width: 120)).accepted)
        #expect(lone.referenceID == "lone" && lone.score == 0)

        let third = matcher.match(try flatPicture(width: 130))
        #expect(third.accepted == nil)
        let best = try #require(third.candidates.first)
        #expect(best.referenceID == "sibling-a" && best.heldBackBy == "sibling-b")
        // Over the catalog's own line: without its look-alike the print alone would have taken it.
        let alone = Self.matcher(Self.basePlaces + [Self.siblingA])
        #expect(alone.match(try flatPicture(width: 130)).accepted?.referenceID == "sibling-a")
    }

    @Test func anEditAddingASiblingRaisesThePlacesLine() async throws {
        let base = Self.matcher(Self.basePlaces + [Self.siblingA])
        #expect(base.printCalibration?.raisedLines.isEmpty == true)
        let grown = base.updated(adding: [Self.siblingB], removingKeys: [])
        let after = try #require(await grown.calibrated())
        #expect(after.raisedLines["sibling-a"]?.place == "sibling-b")
        #expect(after.raisedLines["sibling-b"]?.place == "sibling-a")
        #expect(grown.match(try flatPicture(width: 130)).accepted == nil)
        // Removing it again gives the place its catalog's line back.
        let shrunk = grown.updated(adding: [], removingKeys: [Self.siblingB.key])
        let restored = try #require(await shrunk.calibrated())
        #expect(restored.raisedLines.isEmpty)
        #expect(shrunk.match(try flatPicture(width: 130)).accepted?.referenceID == "sibling-a")
    }

    @Test func aCatalogOfLookAlikesHasAHigherLineThanOneOfPlacesFarApart() throws {
        // Six pairs of look-alikes (each pair on its own two axes, cosine 0.8): their views reach each
        // other with evidence about 2.3, so photos of no place of their kind would too.
        let pairs = (0..<6).flatMap { k -> [MatcherReference] in
            let axis = 2 + k
            return [place("pair-\(k)-a", along([(axis, 1), (14, 0.5)])), place("pair-\(k)-b", along([(axis, 1), (15, 0.5)]))]
        }
        let apart = try #require(Self.matcher(Self.basePlaces).printCalibration)
        let alike = try #require(Self.matcher(Self.basePlaces + pairs).printCalibration)
        #expect(apart.threshold < 1.2 && apart.catalogViewsMeasured == 2)
        #expect(alike.threshold > 1.5 && alike.catalogViewsMeasured == 14)
        // The null prints alone would have left it where it was.
        #expect(alike.nullCount == 300 && alike.nullsOverLine == 0)
    }

    @Test func theBestOtherGroupSkipsTheExcludedOneAndKeepsTheNextAsRival() {
        let comparison = PrintComparison(groups: [0, 1, 2, 3], values: [0.9, 0.2, 0.7, 0.6], references: [0, 1, 2, 3])
        let other = VisualMatcher.bestOther(than: 0, in: comparison)
        #expect(other?.group == 2 && other?.similarity == 0.7 && other?.rival == 0.6)
        #expect(VisualMatcher.bestOther(than: 2, in: comparison)?.group == 0)
        #expect(VisualMatcher.bestOther(than: 0, in: PrintComparison(groups: [0], values: [1], references: [0])) == nil)
    }
}
