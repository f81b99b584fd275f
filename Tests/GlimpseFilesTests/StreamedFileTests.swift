import Foundation
import GlimpseFiles
import GlimpseTestSupport
import Testing

/// `AtomicFile.replace(_:writing:)` and `SequentialFileReader`: a large file written and read in pieces,
/// straight from and into arrays, with running checksums; a failing writer leaves the old file as it was.
@Suite("Streamed files")
struct StreamedFileTests {
    @Test("pieces written in order read back into arrays, with the checksum of the whole")
    func piecesRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("stream.bin")
        let words = (0..<50_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        let floats = (0..<3_000).map { Float($0) / 7 }
        var written = CRC32()
        try AtomicFile.replace(path) { (sink: inout AtomicFileSink) throws(FileError) in
            try sink.write(contentsOf: [UInt8](repeating: 9, count: 3))
            try sink.write(contentsOf: words)
            try sink.write(contentsOf: floats)
            #expect(sink.count == 3 + words.count * 8 + floats.count * 4)
            written = sink.checksum
        }
        let whole = try AtomicFile.readAll(path)
        #expect(written.value == CRC32.checksum(whole))
        let reader = try SequentialFileReader(path: path)
        #expect(reader.size == whole.count)
        try reader.skip(3)
        #expect(try reader.readArray(of: UInt64.self, count: words.count) == words)
        #expect(try reader.readArray(of: Float.self, count: floats.count) == floats)
        #expect(reader.offset == whole.count && reader.checksum.value == written.value)
        // Past the end: an error, not a short array.
        #expect(throws: FileError.self) { try reader.readArray(of: UInt8.self, count: 1) }
        #expect(try directory.names() == ["stream.bin"])
    }

    @Test("a writer that fails leaves the previous file untouched and no temporary file")
    func aFailingWriterChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("kept.bin")
        try AtomicFile.replace(path, with: [1, 2, 3])
        #expect(throws: FileError.self) {
            try AtomicFile.replace(path) { (sink: inout AtomicFileSink) throws(FileError) in
                try sink.write(contentsOf: [UInt8](repeating: 4, count: 1000))
                throw FileError(path: path, operation: .write, code: ENOSPC)
            }
        }
        #expect(try directory.contents("kept.bin") == [1, 2, 3])
        #expect(try directory.names() == ["kept.bin"])
    }

    @Test("only regular files are read")
    func onlyRegularFiles() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: FileError.self) { try SequentialFileReader(path: directory.path) }
        let fifo = directory.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileError.self) { try SequentialFileReader(path: fifo) }
        #expect(throws: FileError.self) { try SequentialFileReader(path: directory.file("missing")) }
    }
}
