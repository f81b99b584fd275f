import GlimpseBasics
import Testing
@testable import GlimpseVision

/// `PrintSimilarity.cosines`, whose loop is the C kernel `glimpse_dot_rows`: the same bits as the
/// definition it documents (eight lane sums added in order, then the tail, no fused multiply-add).
@Suite struct PrintSimilarityTests {
    /// The documented summation, written out in Swift.
    static func laneOrderedDot(_ q: [Float], _ rows: [Float], row: Int) -> Float {
        let d = q.count
        var acc = [Float](repeating: 0, count: 8)
        var i = 0
        while i + 8 <= d {
            for k in 0..<8 { acc[k] += q[i + k] * rows[row * d + i + k] }
            i += 8
        }
        var sum: Float = -0.0
        for k in 0..<8 { sum += acc[k] }
        while i < d { sum += q[i] * rows[row * d + i]; i += 1 }
        return sum
    }

    static func values(_ count: Int, seed: UInt64) -> [Float] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in rng.nextUnitFloat() * 2 - 1 }
    }

    @Test(arguments: [1, 7, 8, 9, 64, 1280, 1283])
    func everyRowMatchesTheDefinitionBitForBit(dimension: Int) {
        let rowCount = 37
        let q = Self.values(dimension, seed: UInt64(dimension))
        let rows = Self.values(dimension * rowCount, seed: UInt64(dimension) + 1000)
        let got = PrintSimilarity.cosines(q, against: rows, dimension: dimension)
        #expect(got.count == rowCount)
        for row in 0..<rowCount {
            #expect(got[row].bitPattern == Self.laneOrderedDot(q, rows, row: row).bitPattern, "row \(row)")
        }
    }

    @Test func unitPrintsGiveTheirCosine() {
        // A print against itself, its opposite and an orthogonal one.
        let e1: [Float] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let rows: [Float] = e1 + e1.map { -$0 } + [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(PrintSimilarity.cosines(e1, against: rows, dimension: 10) == [1, -1, 0])
    }

    @Test func emptyOrMismatchedInputGivesNoRows() {
        #expect(PrintSimilarity.cosines([1, 2], against: [], dimension: 2).isEmpty)
        #expect(PrintSimilarity.cosines([1, 2, 3], against: [1, 2, 3, 4], dimension: 2).isEmpty)
        #expect(PrintSimilarity.cosines([], against: [1, 2], dimension: 0).isEmpty)
        // A partial last row is not read.
        #expect(PrintSimilarity.cosines([1, 1], against: [1, 2, 3], dimension: 2) == [3])
    }
}
