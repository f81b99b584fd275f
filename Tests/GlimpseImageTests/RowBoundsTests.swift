import Foundation
import GlimpseImage
import Testing

/// ``PixelBuffer/withUnsafeRow(_:_:)`` hands out a pointer to one row: a row outside the picture must
/// stop the process rather than expose bytes past the buffer. The exit tests run in a child process.
@Suite struct RowBoundsTests {
    @Test func theLastRowIsInRange() throws {
        let buffer = try PixelBuffer(width: 2, height: 2, pixelFormat: .gray8, bytes: [1, 2, 3, 4])
        #expect(buffer.withUnsafeRow(1) { Array($0) } == [3, 4])
    }

    @Test func aRowPastEitherEdgeStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            // A buffer that cannot be made exits 0, which fails the expectation.
            guard let buffer = try? PixelBuffer(width: 2, height: 2, pixelFormat: .gray8, bytes: [1, 2, 3, 4]) else { exit(0) }
            _ = buffer.withUnsafeRow(2) { Array($0) }
        }
        await #expect(processExitsWith: .failure) {
            guard let buffer = try? PixelBuffer(width: 2, height: 2, pixelFormat: .gray8, bytes: [1, 2, 3, 4]) else { exit(0) }
            _ = buffer.withUnsafeRow(-1) { Array($0) }
        }
    }
}
