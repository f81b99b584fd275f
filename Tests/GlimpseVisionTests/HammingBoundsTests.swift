import Testing
import GlimpseVision

/// The preconditions that fence the Hamming kernels and the LSH lookup: they hand raw pointers to C, so
/// an index or range outside the arrays must stop the process rather than read past the buffer. Each exit test runs in a
/// child process and expects it to fail; beside it, the same call at the last valid index answers.
@Suite struct HammingBoundsTests {
    /// Two descriptors (eight words) of all ones and all zeros.
    static let two: [UInt64] = [.max, .max, .max, .max, 0, 0, 0, 0]

    @Test func theLastDescriptorIsInRange() {
        #expect(Hamming.distance(Self.two, 1, Self.two, 0) == 256)
        #expect(Hamming.nearestTwo(query: Self.two, 1, in: Self.two, start: 1, count: 1).distance == 0)
        #expect(Hamming.nearestTwoOfEach(queries: Self.two, in: Self.two, start: 0, count: 2).distance == [0, 0])
        #expect(Hamming.distances(query: Self.two, 1, to: Self.two) == [256, 0])
    }

    @Test func aDescriptorIndexPastTheEndStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let two: [UInt64] = [.max, .max, .max, .max, 0, 0, 0, 0]
            _ = Hamming.distance(two, 2, two, 0)
        }
        await #expect(processExitsWith: .failure) {
            let two: [UInt64] = [.max, .max, .max, .max, 0, 0, 0, 0]
            _ = Hamming.distance(two, 0, two, -1)
        }
    }

    @Test func aReferenceRangePastTheEndStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let two: [UInt64] = [.max, .max, .max, .max, 0, 0, 0, 0]
            _ = Hamming.nearestTwo(query: two, 0, in: two, start: 1, count: 2)
        }
        await #expect(processExitsWith: .failure) {
            let two: [UInt64] = [.max, .max, .max, .max, 0, 0, 0, 0]
            _ = Hamming.nearestTwoOfEach(queries: two, in: two, start: 0, count: 3)
        }
    }

    @Test func aQueryIndexPastTheEndStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let two: [UInt64] = [.max, .max, .max, .max, 0, 0, 0, 0]
            _ = Hamming.distances(query: two, 2, to: two)
        }
        await #expect(processExitsWith: .failure) {
            // Three words are not a whole descriptor: the kernel would read a fourth.
            _ = Hamming.nearestTwoOfEach(queries: [1, 2, 3], in: [0, 0, 0, 0], start: 0, count: 1)
        }
    }

    @Test func anLSHLookupWithOtherReferencesStopsTheProcess() async {
        let index = LSHIndex(words: Self.two, tables: 2, minimumBits: 8)
        #expect(index.nearest(queries: Self.two, references: Self.two).map(\.distance) == [0, 0])
        await #expect(processExitsWith: .failure) {
            // The C lookup would read the second descriptor's words from a one-descriptor array.
            let two: [UInt64] = [.max, .max, .max, .max, 0, 0, 0, 0]
            let index = LSHIndex(words: two, tables: 2, minimumBits: 8)
            _ = index.nearest(queries: two, references: Array(two.prefix(4)))
        }
    }
}
