import Foundation
import GlimpseFiles
import GlimpseTestSupport
import Testing

@Suite("AtomicFile")
struct AtomicFileTests {
    @Test("replace creates a file, overwrites it, and leaves no temporary file")
    func replaceCreatesAndOverwrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/data.bin"
        try AtomicFile.replace(path, with: [1, 2, 3])
        #expect(try directory.contents("data.bin") == [1, 2, 3])
        let larger = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try AtomicFile.replace(path, with: larger)
        #expect(try directory.contents("data.bin") == larger)
        try AtomicFile.replace(path, with: [])
        #expect(try directory.contents("data.bin") == [])
        #expect(try directory.names() == ["data.bin"])
    }

    @Test("concurrent replaces of one path end with one complete version")
    func concurrentReplaces() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/shared.bin"
        let length = 100_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<16 {
                group.addTask {
                    for round in 0..<4 {
                        // Every byte of one version is the same, and no two versions share it.
                        let fill = UInt8(writer * 4 + round)
                        try AtomicFile.replace(path, with: [UInt8](repeating: fill, count: length))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try directory.names() == ["shared.bin"])
        let bytes = try AtomicFile.readAll(path)
        #expect(bytes.count == length)
        let first = try #require(bytes.first)
        #expect(first < 64 && bytes.allSatisfy { $0 == first })
    }

    @Test("a missing directory gives a FileError naming the path and saying what to check")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/no/such/file.bin"
        let error = try #require(throws: FileError.self) { try AtomicFile.replace(path, with: [1]) }
        #expect(error == FileError(path: path, operation: .createTemporary, code: ENOENT))
        #expect(error.operation.systemCall == "open")
        #expect(error.description.contains(path))
        #expect(error.description.contains("check that the directory exists and is writable"))
        #expect(error.description.contains("previous file, if any, is untouched"))
        #expect(try directory.names() == [])
    }

    @Test("a failed rename leaves the target and no temporary file")
    func failedRename() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/occupied"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = try #require(throws: FileError.self) { try AtomicFile.replace(path, with: [1, 2]) }
        #expect(error.operation == .rename && error.path == path)
        #expect(!error.isAfterRename)
        #expect(try directory.names() == ["occupied"])
    }

    @Test("stale temporary files of the target are removed, and nothing else")
    func staleTemporaries() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/a.idx"
        try AtomicFile.replace(path, with: [9])
        try directory.write(".a.idx.tmp.12345.7", [1])
        try directory.write(".a.idx.tmp.999", [2])  // an older naming scheme without the serial
        try directory.write(".b.idx.tmp.12345.1", [3])
        try directory.write("a.idx.tmp.1", [4])
        #expect(AtomicFile.removeStaleTemporaryFiles(forTarget: path) == 2)
        #expect(try directory.names() == [".b.idx.tmp.12345.1", "a.idx", "a.idx.tmp.1"])
        #expect(AtomicFile.removeStaleTemporaryFiles(forTarget: path) == 0)
        #expect(AtomicFile.removeStaleTemporaryFiles(forTarget: directory.path + "/missing/a.idx") == 0)
        #expect(try AtomicFile.readAll(path) == [9])
    }

    @Test("read hands the head and the size to the check, then returns the whole file")
    func readPeeks() throws {
        let directory = try TemporaryDirectory()
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0) }
        let path = try directory.write("f", bytes)
        var seen: [([UInt8], Int)] = []
        let read = try AtomicFile.read(path, peekBytes: 16, mapError: { $0 }) { (head, size) throws(FileError) in
            seen.append((head, size))
        }
        #expect(read == bytes)
        #expect(seen.count == 1 && seen.first?.0 == Array(bytes.prefix(16)) && seen.first?.1 == 5000)
        // A file shorter than the peek is handed over whole.
        let short = try directory.write("short", [7, 8])
        let all = try AtomicFile.read(short, peekBytes: 16, mapError: { $0 }) { (head, size) throws(FileError) in
            #expect(head == [7, 8] && size == 2)
        }
        #expect(all == [7, 8])
    }

    struct Refused: Error, Equatable {
        let size: Int
    }

    @Test("read refuses at the peek, before the rest of a huge file is allocated or read")
    func readRefusesAtPeek() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("huge", Array("HEAD".utf8))
        // A sparse 64 GiB file: reading it whole would exhaust memory or take minutes.
        let huge = 1 << 36
        #expect(truncate(path, off_t(huge)) == 0)
        var checks = 0
        #expect(throws: Refused(size: huge)) {
            _ = try AtomicFile.read(path, peekBytes: 4, mapError: { _ in Refused(size: -1) }) { (head, size) throws(Refused) in
                checks += 1
                #expect(head == Array("HEAD".utf8))
                throw Refused(size: size)
            }
        }
        #expect(checks == 1)
    }

    @Test("read and readAll report a missing file as a FileError of the open")
    func readMissing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/missing"
        let expected = FileError(path: path, operation: .open, code: ENOENT)
        #expect(throws: expected) { try AtomicFile.readAll(path) }
        #expect(throws: Refused(size: Int(ENOENT))) {
            try AtomicFile.read(path, peekBytes: 8, mapError: { Refused(size: Int($0.code)) }) { (_, _) throws(Refused) in
                Issue.record("the check ran for a missing file")
            }
        }
        #expect(expected.description.contains(path) && expected.description.contains("exists"))
        #expect(expected.systemMessage == String(cString: strerror(ENOENT)))
    }

    @Test("readAll reads whole files, empty files and files that report no size")
    func readAll() throws {
        let directory = try TemporaryDirectory()
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        #expect(try AtomicFile.readAll(directory.write("big", bytes)) == bytes)
        #expect(try AtomicFile.readAll(directory.write("empty", [])) == [])
        #if os(Linux)
        // Files under /proc have size 0 but contents.
        #expect(String(decoding: try AtomicFile.readAll("/proc/self/status"), as: UTF8.self).contains("Pid:"))
        #endif
        let error = try #require(throws: FileError.self) { try AtomicFile.readAll(directory.path) }
        #expect(error.operation == .read && error.code == EISDIR)
    }

    @Test("size(of:) gives the size, or nil for a missing file")
    func size() throws {
        let directory = try TemporaryDirectory()
        #expect(AtomicFile.size(of: try directory.write("five", [1, 2, 3, 4, 5])) == 5)
        #expect(AtomicFile.size(of: directory.path + "/missing") == nil)
    }

    @Test("FileError says what to do for a full disk and after a rename")
    func descriptions() {
        let full = FileError(path: "/data/x.idx", operation: .write, code: ENOSPC)
        #expect(full.isNoSpace && full.operation.systemCall == "write")
        #expect(full.description.contains("/data/x.idx") && full.description.contains("free disk space"))
        let late = FileError(path: "/data/x.idx", operation: .fsyncDirectory, code: EIO)
        #expect(late.isAfterRename && late.operation.systemCall == "fsync directory")
        #expect(late.description.contains("was replaced"))
        #expect(!late.description.contains("untouched"))
        let unreadable = FileError(path: "/data/x.idx", operation: .open, code: EACCES)
        #expect(unreadable.description.hasPrefix("cannot read /data/x.idx") && unreadable.description.contains("readable"))
    }
}
