import GlimpseIndex
import Testing

/// The one recall@k of the package (`Neighbor.recall(of:against:)`), behind `glimpse bench` and
/// `glimpse-index-bench`.
@Suite("recall@k")
struct RecallTests {
    private func neighbors(_ ids: [Int]) -> [Neighbor] { ids.map { Neighbor(id: $0, distance: Float($0)) } }

    @Test func pooledOverQueries() {
        let found = [neighbors([1, 2, 9]), neighbors([4, 8, 7])]
        let truth = [neighbors([1, 2, 3]), neighbors([4, 5, 6])]
        #expect(Neighbor.recall(of: found, against: truth) == 0.5)
        #expect(Neighbor.recall(of: truth, against: truth) == 1)
        #expect(Neighbor.recall(of: [[], []], against: truth) == 0)
    }

    @Test func anEmptyTruthSetMissesNothing() {
        #expect(Neighbor.recall(of: [], against: []) == 1)
        #expect(Neighbor.recall(of: [neighbors([3])], against: [[]]) == 1)
    }

    @Test func aRepeatedIdCountsOnce() {
        #expect(Neighbor.recall(of: [neighbors([1, 1])], against: [neighbors([1, 2])]) == 0.5)
        #expect(Neighbor.recall(of: [neighbors([1])], against: [neighbors([1, 1])]) == 1)
    }
}
