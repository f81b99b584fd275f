import GlimpseIndex
import Testing
@testable import GlimpseLabels

/// The label model's reference search: exact below the threshold, an HNSW graph from it, and the same
/// labels either way on the committed model.
@Suite("Reference search")
struct ReferenceSearchTests {
    @Test func automaticIsExactBelowTheThresholdAndApproximateFromIt() {
        #expect(ReferenceSearch.automatic.resolved(rows: 193) == .exact)
        #expect(ReferenceSearch.automatic.resolved(rows: ReferenceSearch.approximateFromRows - 1) == .exact)
        guard case .approximate = ReferenceSearch.automatic.resolved(rows: ReferenceSearch.approximateFromRows) else {
            Issue.record("not approximate at the threshold")
            return
        }
        let chosen = HNSWParameters(maxLinks: 8)
        #expect(ReferenceSearch.approximate(chosen).resolved(rows: 10) == .approximate(chosen))
        #expect(ReferenceSearch.exact.resolved(rows: 10_000_000) == .exact)
    }

    @Test func theCommittedModelLabelsEveryReferenceAlikeThroughTheGraph() throws {
        let exact = try Fixtures.committedModel()
        #expect(exact.search == .exact)
        let approximate = try LabelModel(
            extractor: exact.extractor, vote: exact.vote, vocabulary: exact.vocabulary,
            references: exact.references, vectors: exact.vectors, search: .approximate(HNSWParameters()),
            featurePrinter: Fixtures.printer
        )
        #expect(approximate.index is HNSWIndex)
        #expect(try approximate.with(vote: exact.vote).index is HNSWIndex, "a new vote keeps the graph")
        let exactLabels = LabelPredictor(model: exact)
        let approximateLabels = LabelPredictor(model: approximate)
        var differing: [String] = []
        for position in exact.references.indices {
            // Leave-one-out: each reference labelled by all the others, as evaluation does.
            let features = Array(exact.vectors(of: position))
            let expected = exactLabels.scores(forFeatures: features, excluding: [position])
            let found = approximateLabels.scores(forFeatures: features, excluding: [position])
            if found != expected { differing.append(exact.references[position].id) }
        }
        // 193 rows with efSearch 64 ≥ k: the graph search finds the exact neighbours.
        #expect(differing.isEmpty, "\(differing.count) of \(exact.references.count) differ: \(differing.prefix(5))")
    }
}
