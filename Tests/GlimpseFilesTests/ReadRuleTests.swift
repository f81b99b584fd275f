#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GlimpseFiles
import GlimpseTestSupport
import Testing

@Suite("The one read rule and the one folder walk")
struct ReadRuleTests {
    @Test("a FIFO is refused before it is opened, so the read does not block")
    func fifoRefused() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = try #require(throws: FileError.self) { try AtomicFile.readAll(fifo) }
        #expect(error.refusedKind == "FIFO" && error.operation == .checkKind)
        #expect(error.description.contains("not a regular file") && error.description.contains("regular file"))
        #expect(throws: FileError.self) {
            try AtomicFile.read(fifo, peekBytes: 4, mapError: { $0 }) { (_, _) throws(FileError) in
                Issue.record("the check ran for a FIFO")
            }
        }
    }

    @Test("a file over the limit is refused before it is read; within the limit it is read whole")
    func sizeLimit() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("f", [UInt8](repeating: 7, count: 1000))
        let error = try #require(throws: FileError.self) { try AtomicFile.readAll(path, maxBytes: 999) }
        #expect(error.refusedSize == 1000 && error.sizeLimit == 999 && error.code == EFBIG)
        #expect(error.reason == "1000 bytes is more than the 999-byte limit")
        #expect(try AtomicFile.readAll(path, maxBytes: 1000).count == 1000)
    }

    @Test("the walk is sorted, depth first, skips hidden entries and does not follow links to directories")
    func walkOrder() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/b", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.path + "/.hidden", withIntermediateDirectories: true)
        try directory.write("b/inner.png", [1])
        try directory.write("a.jpg", [1])
        try directory.write("c.txt", [1])
        try directory.write(".secret.jpg", [1])
        #expect(symlink(directory.path + "/b", directory.path + "/link") == 0)
        let flat = FolderWalk(root: directory.path, recursive: false).map(\.name)
        #expect(flat == ["a.jpg", "b", "c.txt", "link"])
        let deep = FolderWalk(root: directory.path, recursive: true).map { ($0.name, $0.isDirectory) }
        #expect(deep.map(\.0) == ["a.jpg", "b", "inner.png", "c.txt", "link"])
        #expect(deep.map(\.1) == [false, true, false, false, false])
        let missing = Array(FolderWalk(root: directory.path + "/none", recursive: true))
        #expect(missing.count == 1 && missing.first?.listingError != nil)
        #expect(FolderWalk.isDirectory(directory.path + "/link") && !FolderWalk.isDirectory(directory.path + "/a.jpg"))
    }
}
