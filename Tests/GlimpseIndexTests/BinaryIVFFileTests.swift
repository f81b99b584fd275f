import GlimpseFiles
@testable import GlimpseIndex
import Testing

/// The binary IVF kind of the index file: an index saved once loads at the next start, and a damaged,
/// cut, foreign or inconsistent file is refused before any of it is used (bit flips: `IndexFileTests`).
@Suite struct BinaryIVFFileTests {
    /// A small index of 300 vectors of 70 components (so codes have unused high bits) in 5 lists.
    static func smallIndex() -> (index: BinaryIVFIndex, rows: [Float]) {
        let rows = BinaryIVFTests.clustered(count: 300, dimension: 70, centres: 6, spread: 1, seed: 21)
        let model = BinaryIVFModel.train(rows: rows, dimension: 70, clusters: 5, seed: 3)
        return (BinaryIVFIndex(model: model, ids: (0..<UInt32(300)).map { $0 * 7 + 1 }, vectors: rows), rows)
    }

    /// Where the payload of a binary IVF file image tagged `tag` starts (after its 8-byte parameter block).
    static func payloadStart(tag: String) -> Int { IndexFile.headerSize + 8 + tag.utf8.count }

    @Test func aSavedIndexLoadsWithTheSamePartsAndAnswers() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let (index, rows) = Self.smallIndex()
        let path = directory + "/prints.ivf"
        try IndexFile.save(index, to: path, tag: "prints-v1|catalog:ab12")
        let loaded = try IndexFile.loadBinaryIVF(from: path, expectedDimension: 70, expectedTag: "prints-v1|catalog:ab12")
        #expect(loaded.model == index.model && loaded.model.id == index.model.id)
        #expect(loaded.listStarts == index.listStarts && loaded.entryIDs == index.entryIDs && loaded.codes == index.codes)
        for q in [0, 17, 299] {
            let query = Array(rows[(q * 70)..<((q + 1) * 70)])
            let score: (UInt32) -> Float? = { BinaryIVFTests.dot(rows, Int(($0 - 1) / 7), query) }
            #expect(loaded.search(query, k: 5, probe: 2, shortlist: 40, score: score)
                    == index.search(query, k: 5, probe: 2, shortlist: 40, score: score))
        }
        #expect(listDirectory(directory) == ["prints.ivf"])
        // An empty index (every list empty) round-trips too.
        let empty = BinaryIVFIndex(model: index.model, ids: [], vectors: [])
        let image = IndexFile.encode(empty)
        #expect(try IndexFile.decodeBinaryIVF(image).count == 0)
    }

    @Test func anotherTagDimensionOrKindIsRefusedWithItsOwnError() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let (index, _) = Self.smallIndex()
        let bytes = IndexFile.encode(index, tag: "extraction-3")
        #expect(throws: IndexFileError.tagMismatch(expected: "extraction-4", found: "extraction-3")) {
            try IndexFile.decodeBinaryIVF(bytes, expectedTag: "extraction-4")
        }
        #expect(throws: IndexFileError.dimensionMismatch(expected: 1_280, found: 70)) {
            try IndexFile.decodeBinaryIVF(bytes, expectedDimension: 1_280)
        }
        #expect(throws: IndexFileError.kindMismatch(expected: "flat, int8-flat or HNSW", found: "binary IVF")) {
            try IndexFile.decode(bytes)
        }
        try IndexFile.save(try IndexFileTests.smallFlat(), to: directory + "/flat.idx")
        #expect(throws: IndexFileError.kindMismatch(expected: "binary IVF", found: "flat")) {
            try IndexFile.loadBinaryIVF(from: directory + "/flat.idx")
        }
    }

    @Test func aCutFileIsRefusedBeforeItsPayloadIsRead() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let bytes = IndexFile.encode(Self.smallIndex().index)
        for cut in [0, 10, 63, 64, 100, bytes.count / 2, bytes.count - 1] {
            try IndexFile.write(Array(bytes.prefix(cut)), to: directory + "/cut.ivf")
            let expected = cut < IndexFile.headerSize ? IndexFile.headerSize + IndexFile.trailerSize : bytes.count
            #expect(throws: IndexFileError.truncated(expectedBytes: expected, actualBytes: cut)) {
                try IndexFile.loadBinaryIVF(from: directory + "/cut.ivf")
            }
        }
    }

    @Test func inconsistentListsOrCodesBehindValidChecksumsAreRefusedAsMalformed() {
        let (index, _) = Self.smallIndex()
        let bytes = IndexFile.encode(index)
        let payload = Self.payloadStart(tag: "")
        let startsOffset = payload + index.model.centroids.count * 4 + 70 * 4
        // List 1 starting after list 2.
        var disordered = bytes
        withUnsafeBytes(of: UInt64(index.count + 1).littleEndian) { for i in 0..<8 { disordered[startsOffset + 8 + i] = $0[i] } }
        reseal(&disordered)
        #expect(throws: IndexFileError.malformed("the list starts do not run from 0 to the entry count in order")) {
            try IndexFile.decodeBinaryIVF(disordered)
        }
        // A code bit past the 70th: the second word of entry 4 gets bit 63.
        let codesOffset = startsOffset + (index.model.clusters + 1) * 8 + index.count * 4
        var stray = bytes
        stray[codesOffset + (4 * 2 + 1) * 8 + 7] |= 0x80
        reseal(&stray)
        #expect(throws: IndexFileError.malformed("entry 4 has a code bit past the dimension")) {
            try IndexFile.decodeBinaryIVF(stray)
        }
        // A non-finite centroid component.
        var nan = bytes
        withUnsafeBytes(of: Float.infinity.bitPattern.littleEndian) { for i in 0..<4 { nan[payload + 8 + i] = $0[i] } }
        reseal(&nan)
        #expect(throws: IndexFileError.malformed("a stored vector has a non-finite component")) {
            try IndexFile.decodeBinaryIVF(nan)
        }
    }
}
