#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseFiles
import GlimpseTestSupport
import Testing

@testable import GlimpseIndex
import GlimpseIndexBenchmark

/// A fresh empty directory under /tmp for one test (kept, as the test may read it after its last use).
func makeTemporaryDirectory() throws -> String {
    try TemporaryDirectory(removedOnRelease: false).path
}

/// Removes the files of a test directory and the directory.
func removeDirectory(_ path: String) {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
    }
    rmdir(path)
}

/// The names in `directory`, without `.` and `..`.
func listDirectory(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Recomputes both checksums of a file image, so a deliberately inconsistent payload reaches the
/// structural checks.
func reseal(_ bytes: inout [UInt8]) {
    let header = CRC32.checksum(Array(bytes[0..<48]))
    withUnsafeBytes(of: header.littleEndian) { for i in 0..<4 { bytes[48 + i] = $0[i] } }
    let end = bytes.count - 8
    let whole = CRC32.checksum(Array(bytes[0..<end]))
    withUnsafeBytes(of: whole.littleEndian) { for i in 0..<4 { bytes[end + i] = $0[i] } }
}

/// The error decoding `bytes` throws, or `nil` when it is accepted.
func failure(decoding bytes: [UInt8]) -> IndexFileError? {
    do {
        _ = try IndexFile.decode(bytes)
        return nil
    } catch {
        return error
    }
}

func isHeaderChecksumMismatch(_ error: IndexFileError) -> Bool {
    if case .headerChecksumMismatch = error { return true }
    return false
}

func isChecksumMismatch(_ error: IndexFileError) -> Bool {
    if case .checksumMismatch = error { return true }
    return false
}

@Suite("IndexFile")
struct IndexFileTests {
    static let data = try? SyntheticVectors(dimension: 8, distribution: .clustered(clusters: 4, spread: 0.2), seed: 1)

    static func smallFlat(metric: DistanceMetric = .cosine) throws -> FlatIndex {
        let data = try #require(Self.data)
        var flat = try FlatIndex(dimension: 8, metric: metric)
        for (i, vector) in data.vectors(count: 20).enumerated() { try flat.add(vector, id: 1000 + 3 * i) }
        return flat
    }

    @Test("a save that failed only after the rename says the new file is in place but not yet durable")
    func saveFailedAfterRename() {
        for operation in [FileError.Operation.openDirectory, .fsyncDirectory] {
            let error = IndexFileError(saving: FileError(path: "/i/a.idx", operation: operation, code: EIO))
            #expect(error == .savedButNotDurable(path: "/i/a.idx", operation: operation.systemCall, errno: EIO))
            #expect(error.description.contains("was replaced") && !error.description.contains("untouched"))
        }
        #expect(IndexFileError(saving: FileError(path: "/i/a.idx", operation: .write, code: ENOSPC)) == .noSpace(path: "/i/a.idx"))
        #expect(IndexFileError(saving: FileError(path: "/i/a.idx", operation: .rename, code: EIO))
            == .cannotWrite(path: "/i/a.idx", operation: "rename", errno: EIO))
    }

    @Test("the file format is unchanged: a known index encodes to the same bytes and checksums")
    func formatIsPinned() throws {
        let bytes = IndexFile.encode(try Self.smallFlat(), tag: "pin")
        // FNV-1a 64 of the whole file, measured when format version 2 switched to CRC-32.
        var fingerprint: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { fingerprint = (fingerprint ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        #expect(bytes.count == 875)
        #expect(fingerprint == 0x283a_c1ad_91cf_f237)
        #expect(Array(bytes[48..<52]) == [235, 205, 50, 1])  // the header CRC-32
        #expect(Array(bytes.suffix(8)) == [250, 18, 228, 192, 71, 69, 78, 68])  // the file CRC-32, then "GEND"
        #expect(CRC32.checksum(Array(bytes[0..<48])) == 0x0132_CDEB)
    }

    @Test("flat, int8 and HNSW indexes survive a save and load")
    func roundTrip() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let data = try #require(Self.data)
        let flat = try Self.smallFlat()
        let int8 = Int8FlatIndex(quantizing: flat)
        let bigger = try FlatIndex(dimension: 8, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: 400))
        let hnsw = try HNSWIndex(building: bigger, parameters: HNSWParameters(maxLinks: 6, efConstruction: 40, seed: 9))
        try hnsw.delete(id: 17)

        try IndexFile.save(flat, to: directory + "/flat.idx", tag: "features-v1")
        try IndexFile.save(int8, to: directory + "/int8.idx")
        try IndexFile.save(hnsw, to: directory + "/hnsw.idx", tag: "graph")
        #expect(listDirectory(directory) == ["flat.idx", "hnsw.idx", "int8.idx"])

        let loadedFlat = try IndexFile.loadFlat(from: directory + "/flat.idx", expectedDimension: 8, expectedTag: "features-v1")
        #expect(loadedFlat.ids == flat.ids && loadedFlat.vectors == flat.vectors && loadedFlat.metric == .cosine)
        let loadedInt8 = try IndexFile.load(from: directory + "/int8.idx")
        let loadedHNSW = try IndexFile.loadHNSW(from: directory + "/hnsw.idx")
        #expect(loadedInt8.kind == .int8Flat && loadedInt8.tag == "")
        #expect(graphSignature(loadedHNSW) == graphSignature(hnsw))
        #expect(loadedHNSW.deletedIDs == [17] && loadedHNSW.count == 399)
        #expect(loadedHNSW.parameters == hnsw.parameters)
        for query in data.vectors(count: 10, stream: 3) {
            #expect(try loadedFlat.search(query, k: 5) == flat.search(query, k: 5))
            #expect(try loadedInt8.index.search(query, k: 5) == int8.search(query, k: 5))
            #expect(try loadedHNSW.search(query, k: 5) == hnsw.search(query, k: 5))
        }
        // Saving again replaces the file and leaves no temporary file behind.
        try IndexFile.save(flat, to: directory + "/flat.idx", tag: "features-v2")
        #expect(try IndexFile.load(from: directory + "/flat.idx").tag == "features-v2")
        #expect(listDirectory(directory) == ["flat.idx", "hnsw.idx", "int8.idx"])
    }

    @Test("a file cut anywhere is refused as truncated")
    func truncation() throws {
        let bytes = IndexFile.encode(try Self.smallFlat())
        for cut in [0, 1, 7, 8, 12, 47, 63, 64, 65, 100, bytes.count / 2, bytes.count - 9, bytes.count - 8, bytes.count - 1] {
            let expectedSize = cut < IndexFile.headerSize ? IndexFile.headerSize + IndexFile.trailerSize : bytes.count
            #expect(throws: IndexFileError.truncated(expectedBytes: expectedSize, actualBytes: cut)) {
                try IndexFile.decode(Array(bytes.prefix(cut)))
            }
        }
        #expect(throws: IndexFileError.trailingBytes(expectedBytes: bytes.count, actualBytes: bytes.count + 1)) {
            try IndexFile.decode(bytes + [0])
        }
    }

    @Test("a truncated file on disk is refused before its payload is read")
    func truncatedOnDisk() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let bytes = IndexFile.encode(try Self.smallFlat())
        try IndexFile.write(Array(bytes.prefix(bytes.count - 100)), to: directory + "/cut.idx")
        #expect(throws: IndexFileError.truncated(expectedBytes: bytes.count, actualBytes: bytes.count - 100)) {
            try IndexFile.load(from: directory + "/cut.idx")
        }
        #expect(throws: IndexFileError.cannotRead(path: directory + "/missing.idx", errno: ENOENT)) {
            try IndexFile.load(from: directory + "/missing.idx")
        }
    }

    @Test("every single-bit flip is refused", arguments: [IndexFile.Kind.flat, .int8Flat, .hnsw, .binaryIVF])
    func bitFlips(kind: IndexFile.Kind) throws {
        let data = try #require(Self.data)
        let flat = try Self.smallFlat()
        let bytes: [UInt8]
        switch kind {
        case .flat: bytes = IndexFile.encode(flat, tag: "t")
        case .int8Flat: bytes = IndexFile.encode(Int8FlatIndex(quantizing: flat))
        case .hnsw:
            let source = try FlatIndex(dimension: 8, metric: .innerProduct, rowMajor: data.rowMajor(count: 40))
            bytes = IndexFile.encode(try HNSWIndex(building: source, parameters: HNSWParameters(maxLinks: 4, efConstruction: 16)))
        case .binaryIVF: bytes = IndexFile.encode(BinaryIVFFileTests.smallIndex().index, tag: "t")
        }
        // A binary IVF index is read by its own decoder; every other kind by `decode`.
        let decode: ([UInt8]) throws -> Void = kind == .binaryIVF
            ? { _ = try IndexFile.decodeBinaryIVF($0) } : { _ = try IndexFile.decode($0) }
        #expect(throws: Never.self) { try decode(bytes) }
        // Every byte for the small files; every third byte of the graph, each with a different bit.
        let step = kind == .hnsw ? 3 : 1
        var refused = 0
        for offset in stride(from: 0, to: bytes.count, by: step) {
            var damaged = bytes
            damaged[offset] ^= 1 << UInt8(offset % 8)
            do {
                try decode(damaged)
                Issue.record("flipping bit \(offset % 8) of byte \(offset) went unnoticed")
            } catch {
                refused += 1
            }
        }
        #expect(refused == (bytes.count + step - 1) / step)
    }

    @Test("wrong magic, future version, byte order, dimension, tag and kind are refused with their own errors")
    func specificRefusals() throws {
        let bytes = IndexFile.encode(try Self.smallFlat(), tag: "extractor-3")
        var magic = bytes
        magic[0] = UInt8(ascii: "X")
        #expect(throws: IndexFileError.notAnIndexFile) { try IndexFile.decode(magic) }
        #expect(throws: IndexFileError.notAnIndexFile) { try IndexFile.decode(Array("PNG and more".utf8)) }
        var future = bytes
        future[8] = 3
        #expect(throws: IndexFileError.unsupportedVersion(found: 3, supported: 2)) { try IndexFile.decode(future) }
        var old = bytes
        old[8] = 1  // version 1 checksummed with CRC-32C: refused with the rebuild advice
        #expect(throws: IndexFileError.unsupportedVersion(found: 1, supported: 2)) { try IndexFile.decode(old) }
        var order = bytes
        order.swapAt(10, 11)
        #expect(throws: IndexFileError.wrongByteOrder) { try IndexFile.decode(order) }
        #expect(throws: IndexFileError.dimensionMismatch(expected: 128, found: 8)) {
            try IndexFile.decode(bytes, expectedDimension: 128)
        }
        #expect(throws: IndexFileError.tagMismatch(expected: "extractor-4", found: "extractor-3")) {
            try IndexFile.decode(bytes, expectedTag: "extractor-4")
        }
        var header = bytes
        header[16] ^= 0x10  // the dimension, without updating the header checksum
        #expect(failure(decoding: header).map(isHeaderChecksumMismatch) == true)
        var payload = bytes
        payload[payload.count - 20] ^= 0x01
        #expect(failure(decoding: payload).map(isChecksumMismatch) == true)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        try IndexFile.write(bytes, to: directory + "/flat.idx")
        #expect(throws: IndexFileError.kindMismatch(expected: "HNSW", found: "flat")) {
            try IndexFile.loadHNSW(from: directory + "/flat.idx")
        }
    }

    @Test("inconsistent contents behind a valid checksum are refused as malformed")
    func malformed() throws {
        let data = try #require(Self.data)
        let source = try FlatIndex(dimension: 8, metric: .squaredEuclidean, rowMajor: data.rowMajor(count: 30))
        let bytes = IndexFile.encode(try HNSWIndex(building: source, parameters: HNSWParameters(maxLinks: 4, efConstruction: 16)))
        // The first level-0 link of node 0 points past the last node. Payload layout: ids, levels,
        // deleted bits, vectors, then level-0 blocks (count, links).
        let n = 30
        let level0Start = IndexFile.headerSize + 48 + n * 8 + n + ((n + 63) / 64) * 8 + n * 8 * 4
        var badLink = bytes
        #expect(badLink[level0Start] > 0, "node 0 has links")
        withUnsafeBytes(of: UInt32(999).littleEndian) { for i in 0..<4 { badLink[level0Start + 4 + i] = $0[i] } }
        reseal(&badLink)
        #expect(throws: IndexFileError.malformed("a graph link is out of range")) { try IndexFile.decode(badLink) }
        // A non-finite vector component in a flat file.
        var nan = IndexFile.encode(try Self.smallFlat())
        let vectorStart = 64 + 20 * 8
        withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { for i in 0..<4 { nan[vectorStart + i] = $0[i] } }
        reseal(&nan)
        #expect(throws: IndexFileError.malformed("a stored vector has a non-finite component")) { try IndexFile.decode(nan) }
    }

    @Test("concurrent saves to one path all succeed and leave one valid file")
    func concurrentSaves() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let flat = try Self.smallFlat()
        let path = directory + "/shared.idx"
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask { try IndexFile.save(flat, to: path, tag: "writer-\(writer)") }
            }
            try await group.waitForAll()
        }
        #expect(listDirectory(directory) == ["shared.idx"])
        let loaded = try IndexFile.load(from: path)
        #expect(loaded.tag.hasPrefix("writer-") && loaded.index.count == 20)
    }

    @Test("saving into a missing directory fails cleanly; stale temporary files are removed")
    func saveFailures() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let flat = try Self.smallFlat()
        #expect(throws: IndexFileError.cannotWrite(path: directory + "/no/such.idx", operation: "open", errno: ENOENT)) {
            try IndexFile.save(flat, to: directory + "/no/such.idx")
        }
        try IndexFile.save(flat, to: directory + "/a.idx")
        let stale = directory + "/.a.idx.tmp.12345"
        try IndexFile.write([1, 2, 3], to: stale)
        #expect(listDirectory(directory) == [".a.idx.tmp.12345", "a.idx"])
        #expect(IndexFile.removeStaleTemporaryFiles(forTarget: directory + "/a.idx") == 1)
        #expect(listDirectory(directory) == ["a.idx"])
        #expect(try IndexFile.loadFlat(from: directory + "/a.idx").count == 20)
    }
}
