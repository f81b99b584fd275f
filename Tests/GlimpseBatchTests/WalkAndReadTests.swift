import Foundation
import GlimpseTestSupport
import Testing

@testable import GlimpseBatch

@Suite struct WalkAndReadTests {
    /// a.jpg, b.PNG, notes.txt, .hidden.jpg, x.jpg/ (a directory holding c.jpg), sub/d.jpeg, sub/deeper/e.png
    private func tree() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        for name in ["b.PNG", "a.jpg", "notes.txt", ".hidden.jpg", "x.jpg/c.jpg", "sub/d.jpeg", "sub/deeper/e.png"] {
            try dir.write(name, [1, 2, 3])
        }
        return dir
    }

    @Test func walksTheTopFolderInSortedOrderYieldingPictureNamesOnly() throws {
        let dir = try tree()
        let paths = try ImageWalker(root: dir.path).map(\.path)
        #expect(paths == ["a.jpg", "b.PNG", "x.jpg"].map { dir.path + "/" + $0 })
    }

    @Test func recursiveWalksDescendDepthFirstInSortedOrder() throws {
        let dir = try tree()
        var iterator = try ImageWalker(root: dir.path, options: WalkOptions(recursive: true)).makeIterator()
        var paths: [String] = []
        while let item = iterator.next() { paths.append(item.path) }
        #expect(paths == ["a.jpg", "b.PNG", "sub/d.jpeg", "sub/deeper/e.png", "x.jpg/c.jpg"].map { dir.path + "/" + $0 })
        #expect(iterator.ignored == 1)
        #expect(try ImageWalker(root: dir.path, options: WalkOptions(recursive: true)).count() == 5)
    }

    @Test func allFilesYieldsOtherNamesToo() throws {
        let dir = try tree()
        let names = try ImageWalker(root: dir.path, options: WalkOptions(allFiles: true)).map {
            String($0.path.dropFirst(dir.path.count + 1))
        }
        #expect(names == ["a.jpg", "b.PNG", "notes.txt", "x.jpg"])
    }

    @Test func aFileIsNotAFolder() throws {
        let dir = try tree()
        #expect(throws: BatchError.notADirectory(dir.path + "/a.jpg")) {
            try ImageWalker(root: dir.path + "/a.jpg")
        }
    }

    @Test func readerReturnsTheBytesOfARegularFile() throws {
        let dir = try TemporaryDirectory()
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try dir.write("big.jpg", bytes)
        #expect(try FileReader().read(path) == bytes)
        #expect(throws: BatchError.tooLarge(path: path, bytes: 200_000, limit: 1_000)) {
            try FileReader(maxBytes: 1_000).read(path)
        }
    }

    @Test func readerRefusesDirectoriesFifosAndDanglingLinksWithoutBlocking() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path + "/x.jpg"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(throws: BatchError.isDirectory(path: folder)) { try FileReader().read(folder) }

        let fifo = dir.path + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: BatchError.notRegularFile(path: fifo, kind: "FIFO")) { try FileReader().read(fifo) }

        let link = dir.path + "/gone.jpg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.path + "/nothing-here")
        #expect(throws: BatchError.missing(path: link)) { try FileReader().read(link) }
    }

    @Test func readerReportsPermissionDeniedWhenNotRoot() throws {
        // Root reads any file whatever its mode, so this case is checked only for other users;
        // the batch tests use a dangling link and a FIFO as the unreadable files instead.
        guard getuid() != 0 else { return }
        let dir = try TemporaryDirectory()
        let path = try dir.write("locked.jpg", [0xFF, 0xD8])
        #expect(chmod(path, 0) == 0)
        #expect(throws: BatchError.self) { try FileReader().read(path) }
    }
}
