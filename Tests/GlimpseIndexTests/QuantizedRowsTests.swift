import GlimpseBasics
@testable import GlimpseIndex
import Testing

/// Rows kept as bytes with a range each (`QuantizedRows`), and the batch-by-batch IVF builder.
@Suite struct QuantizedRowsTests {
    @Test func decodedRowsLieWithinHalfAStepAndDotsMatchThem() {
        var generator = SeededGenerator(seed: 4)
        let dimension = 37  // two kernel blocks of 16 and a tail of 5
        let values = (0..<(9 * dimension)).map { _ in generator.nextUnitFloat() * 2 - 0.5 }
        var rows = QuantizedRows(dimension: dimension)
        rows.append(rows: values)
        #expect(rows.count == 9 && rows.codes.count == 9 * dimension && rows.memoryBytes == 9 * dimension + 72)
        let query = (0..<dimension).map { _ in generator.nextUnitFloat() - 0.5 }
        let prepared = QuantizedRows.Query(query)
        var all: [Float] = []
        rows.dots(prepared, rows: 2..<9, into: &all)
        #expect(all.count == 7)
        for r in 0..<9 {
            let decoded = rows.decoded(r)
            for j in 0..<dimension {
                #expect(abs(decoded[j] - values[r * dimension + j]) <= rows.scales[r] / 2 + 1e-6)
            }
            let exact = zip(decoded, query).reduce(0) { $0 + $1.0 * $1.1 }
            #expect(abs(rows.dot(prepared, row: r) - exact) < 1e-4)
            if r >= 2 { #expect(all[r - 2] == rows.dot(prepared, row: r)) }
        }
    }

    @Test func constantRowsAndValuesThatAreNotFiniteKeepTheirMeaning() {
        var rows = QuantizedRows(dimension: 4)
        rows.append(rows: [0.5, 0.5, 0.5, 0.5, 1, .nan, .infinity, 3, 0, 0, 0, 0])
        #expect(rows.decoded(0).allSatisfy { abs($0 - 0.5) < 0.002 })
        let second = rows.decoded(1)
        #expect(abs(second[0] - 1) < 0.01 && abs(second[1]) < 0.01 && abs(second[2]) < 0.01 && abs(second[3] - 3) < 0.01)
        #expect(rows.decoded(2) == [0, 0, 0, 0] && rows.scales[2] == 0)
        #expect(rows.dot(QuantizedRows.Query([1, 1, 1, 1]), row: 2) == 0)
    }

    @Test func anIndexBuiltBatchByBatchIsTheIndexBuiltAtOnce() {
        let rows = BinaryIVFTests.clustered(count: 1_000, dimension: 40, centres: 8, spread: 1, seed: 12)
        let model = BinaryIVFModel.train(rows: rows, dimension: 40, clusters: 8, seed: 5)
        let ids = (0..<UInt32(1_000)).map { $0 * 2 }
        let whole = BinaryIVFIndex(model: model, ids: ids, vectors: rows, threads: 2)
        var builder = BinaryIVFBuilder(model: model)
        for start in stride(from: 0, to: 1_000, by: 300) {
            let end = min(1_000, start + 300)
            builder.add(ids: Array(ids[start..<end]), vectors: Array(rows[(start * 40)..<(end * 40)]))
        }
        #expect(builder.count == 1_000)
        let batched = builder.finish()
        #expect(batched.listStarts == whole.listStarts && batched.entryIDs == whole.entryIDs && batched.codes == whole.codes)
        #expect(BinaryIVFBuilder(model: model).finish().count == 0)
    }
}
