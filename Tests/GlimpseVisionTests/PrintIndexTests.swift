import GlimpseBasics
import GlimpseIndex
@testable import GlimpseVision
import Testing

/// Groups nearest to a print through quantized rows, exactly and through the inverted file.
@Suite struct PrintIndexTests {
    /// `references` references of `views` non-negative unit views each around one of `groups` directions
    /// (reference r in group r % groups), and `queries` queries around the same directions.
    static func data(references: Int, views: Int, groups: Int, dimension: Int, queries: Int, spread: Float = 1.2)
        -> (rows: QuantizedRows, owners: [UInt32], groupsOf: [Int32], floats: [Float], queries: [[Float]])
    {
        var generator = SeededGenerator(seed: 31)
        func unit(_ v: [Float]) -> [Float] {
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return v.map { $0 / norm }
        }
        let directions = (0..<groups).map { _ in unit((0..<dimension).map { _ in max(0, generator.nextUnitFloat() - 0.5) }) }
        func near(_ g: Int, _ spread: Float) -> [Float] {
            unit(directions[g].map { max(0, $0 + (generator.nextUnitFloat() - 0.5) * spread) })
        }
        var floats: [Float] = [], owners: [UInt32] = []
        for r in 0..<references {
            for _ in 0..<views {
                floats += near(r % groups, spread)
                owners.append(UInt32(r))
            }
        }
        var rows = QuantizedRows(dimension: dimension)
        rows.append(rows: floats)
        let groupsOf = (0..<references).map { Int32($0 % groups) }
        return (rows, owners, groupsOf, floats, (0..<queries).map { near($0 % groups, spread) })
    }

    @Test func theExactScanGivesEachGroupItsBestViewOfItsBestReference() {
        let d = Self.data(references: 60, views: 3, groups: 12, dimension: 48, queries: 6)
        let index = PrintIndex(rows: d.rows, rowReferences: d.owners, referenceGroups: d.groupsOf, model: nil)
        #expect(index.groupCount == 12 && index.ivf == nil)
        for query in d.queries {
            var best: [Int: (Float, Int)] = [:]
            for row in 0..<d.rows.count {
                let s = zip(d.rows.decoded(row), query).reduce(0) { $0 + $1.0 * $1.1 }
                let g = Int(d.groupsOf[Int(d.owners[row])])
                if best[g] == nil || s > best[g]!.0 { best[g] = (s, Int(d.owners[row])) }
            }
            let expected = best.sorted { $0.value.0 > $1.value.0 }.prefix(5)
            let found = index.exactNearestGroups(to: query, count: 5)
            #expect(found.map(\.group) == expected.map(\.key))
            #expect(found.map(\.reference) == expected.map(\.value.1))
            for (f, e) in zip(found, expected) { #expect(abs(f.similarity - e.value.0) < 1e-4) }
            #expect(index.nearestGroups(to: query, count: 5) == found)
        }
    }

    @Test func probingEveryListAndRescoringEveryRowIsTheExactScan() {
        let d = Self.data(references: 300, views: 4, groups: 40, dimension: 64, queries: 10, spread: 0.3)
        let model = PrintIndex.trainModel(rows: d.rows, clusters: 16, sample: 800, seed: 3, threads: 2)
        let everything = PrintIndex(rows: d.rows, rowReferences: d.owners, referenceGroups: d.groupsOf, model: model,
                                    search: .init(probe: 16, shortlist: d.rows.count), threads: 2)
        #expect(everything.ivf?.count == 1_200)
        let few = PrintIndex(rows: d.rows, rowReferences: d.owners, referenceGroups: d.groupsOf, model: model,
                             search: .init(probe: 4, shortlist: 100))
        var kept = 0
        for (q, query) in d.queries.enumerated() {
            let exact = everything.exactNearestGroups(to: query, count: 10)
            #expect(everything.nearestGroups(to: query, count: 10) == exact)
            let probed = few.nearestGroups(to: query, count: 10)
            // The query's own group comes first either way; the rest of the ten are other groups'
            // chance neighbours, which a quarter of the lists finds in part.
            #expect(probed.first == exact.first && exact.first?.group == q % 40)
            kept += Set(probed.map(\.group)).intersection(exact.map(\.group)).count
        }
        // 0.62 when written.
        #expect(kept >= 50, "top-10 group recall \(Double(kept) / 100)")
    }
}
