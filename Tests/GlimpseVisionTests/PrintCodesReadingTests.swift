import Foundation
import GlimpseFeaturePrint
import GlimpseImage
import Testing
@testable import GlimpseVision

/// Views kept as one-bit codes, read back into prints (`PrintCodes.reading(row:)`): what a large catalog's
/// look-alike lines are measured from.
@Suite struct PrintCodesReadingTests {
    @Test func aCodeReadBackPointsWhereItsViewDoes() throws {
        let (prints, codes, _) = PrintCodesTests.coded()
        var cosines: [Float] = []
        var nearestIsItself = 0
        for row in stride(from: 0, to: prints.count, by: 40) {
            let reading = codes.reading(row: row)
            #expect(abs(reading.reduce(0) { $0 + $1 * $1 } - 1) < 1e-3)
            cosines.append(prints[row].dot(FeaturePrint(normalizing: reading)))
            let exact = prints.map { $0.dot(FeaturePrint(normalizing: reading)) }
            if exact.indices.max(by: { exact[$0] < exact[$1] }) == row { nearestIsItself += 1 }
        }
        #expect(cosines.min() ?? 0 > 0.75, "\(cosines)")
        #expect(nearestIsItself == cosines.count, "\(nearestIsItself) of \(cosines.count) read back nearest their own view")
    }

    /// 30 pairs of sibling places (one theme each pair, 512-value prints) with null prints of other themes,
    /// as floats or, past a `line` of views, as codes.
    static func siblings(line: Int) -> VisualMatcher {
        var source = PrintSource(dimension: 512, themes: 60, seed: 9)
        var references: [MatcherReference] = []
        for pair in 0..<30 {
            let first = source.print(theme: pair, spread: 0.3)
            references.append(place("pair-\(pair)-a", first))
            references.append(place("pair-\(pair)-b", source.near(first, amount: 0.6)))
        }
        var values: [Float] = []
        for k in 0..<300 { values += source.print(theme: 30 + k % 30, spread: 0.3).values }
        var configuration = VisionConfiguration.default
        configuration.printCodeLine = line
        return VisualMatcher(
            keyedReferences: references, configuration: configuration, printer: WidePrinter(prints: [:], dimension: 512),
            nullPrints: NullPrints(identity: "wide-stub-512", source: "constructed", dimension: 512, values: values))
    }

    @Test func aCodedMatcherFindsTheLookAlikesAFloatOneFinds() throws {
        let floats = Self.siblings(line: 4_096), coded = Self.siblings(line: 1)
        #expect(coded.segments.first?.printCodes != nil && floats.segments.first?.printCodes == nil)
        let (a, b) = (try #require(floats.printCalibration), try #require(coded.printCalibration))
        #expect(a.catalogViewsMeasured == 60 && b.catalogViewsMeasured == 60)
        // Each place's closest look-alike is its sibling, read back from codes as from floats, with a little
        // less evidence (a one-bit reading, normalised, is a few hundredths of similarity low, which the
        // evidence's margin weight of 5 multiplies: measured 0.16 lower on average here).
        for calibration in [a, b] {
            let siblings = calibration.lookAlikes.filter { $0.key.dropLast() == $0.value.place.dropLast() }
            #expect(siblings.count == 60, "\(siblings.count) of 60 places name their sibling")
        }
        var differences: [Double] = []
        for (place, float) in a.lookAlikes {
            let read = try #require(b.lookAlikes[place])
            differences.append(read.evidence - float.evidence)
        }
        let mean = differences.reduce(0, +) / Double(differences.count)
        let meanAbsolute = differences.map(abs).reduce(0, +) / Double(differences.count)
        #expect(mean < 0 && mean > -0.25 && meanAbsolute < 0.25 && differences.allSatisfy { abs($0) < 0.6 },
                "mean \(mean), mean absolute \(meanAbsolute), largest \(differences.map(abs).max() ?? 0)")
    }
}
