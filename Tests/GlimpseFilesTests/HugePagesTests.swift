import Testing
@testable import GlimpseFiles

@Suite struct HugePagesTests {
    @Test func smallArraysAreLeftAlone() {
        let small = [UInt64](repeating: 7, count: (HugePages.least - 8) / 8)
        #expect(HugePages.advise(small) == 0)
        #expect(HugePages.advise([UInt64]()) == 0)
    }

    @Test func adviceCoversOnlyWholePagesInsideTheArrayAndKeepsItsContents() {
        // 12 MB plus a byte: at most 6 whole 2 MB pages lie inside, whatever the alignment.
        let count = HugePages.least + 2 * HugePages.pageSize + 1
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) }
        let before = bytes.reduce(into: UInt64(0)) { $0 = $0 &* 31 &+ UInt64($1) }
        let advised = HugePages.advise(bytes)
        #expect(advised % HugePages.pageSize == 0)
        #expect(advised <= count / HugePages.pageSize * HugePages.pageSize)
        let after = bytes.reduce(into: UInt64(0)) { $0 = $0 &* 31 &+ UInt64($1) }
        #expect(after == before)
        bytes.withUnsafeBytes { raw in
            // A range that holds no whole aligned page gets no advice.
            let base = raw.baseAddress.map { UInt(bitPattern: $0) } ?? 0
            let toNextPage = Int((UInt(HugePages.pageSize) - base % UInt(HugePages.pageSize)) % UInt(HugePages.pageSize))
            let unaligned = UnsafeRawBufferPointer(rebasing: raw[(toNextPage + 1)..<(toNextPage + HugePages.least + 1)])
            // From one byte past a page boundary, `least` bytes hold three whole pages, not four.
            let inside = HugePages.advise(unaligned)
            #expect(inside == 0 || inside == HugePages.least - HugePages.pageSize)
        }
    }
}
