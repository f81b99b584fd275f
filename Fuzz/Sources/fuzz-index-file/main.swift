// Feeds index files (GLMPSIDX: flat, int8 flat, HNSW, binary IVF) to IndexFile.decode and
// IndexFile.decodeBinaryIVF: as they are, then with the header and whole-file CRC-32 repaired so the
// payload parsers are reached. An index that loads must encode back to the same bytes and answer a search.
import FuzzSupport
import GlimpseFiles
import GlimpseIndex

func check(_ bytes: [UInt8]) {
    let loaded: LoadedIndex
    do throws(IndexFileError) {
        loaded = try IndexFile.decode(bytes)
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "an error without a description")
        return
    }
    let encoded = switch loaded.content {
    case .flat(let index): IndexFile.encode(index, tag: loaded.tag)
    case .int8Flat(let index): IndexFile.encode(index, tag: loaded.tag)
    case .hnsw(let index): IndexFile.encode(index, tag: loaded.tag)
    }
    FuzzCheck.require(encoded == bytes, "the \(loaded.kind) index does not encode back to its file")
    let index = loaded.index
    let query = (0..<index.dimension).map { Float($0 % 7) - 3 }
    do throws(IndexError) {
        let found = try index.search(query, k: 3)
        FuzzCheck.require(found.count <= min(3, index.count), "\(found.count) neighbours of \(index.count)")
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "an error without a description")
    }
}

/// The binary IVF kind, which has its own decoder: a file it accepts encodes back to itself (with the
/// tag read from the file) and gives a shortlist no longer than asked.
func checkBinaryIVF(_ bytes: [UInt8]) {
    let index: BinaryIVFIndex
    do throws(IndexFileError) {
        index = try IndexFile.decodeBinaryIVF(bytes)
    } catch {
        FuzzCheck.require(!error.description.isEmpty, "an error without a description")
        return
    }
    // Accepted, so the header's lengths hold: the parameters start at 64, the tag follows them.
    func field(at offset: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
    let parameters = field(at: 20), tagLength = field(at: 32)
    let tag = String(decoding: bytes[(IndexFile.headerSize + parameters)..<(IndexFile.headerSize + parameters + tagLength)],
                     as: UTF8.self)
    FuzzCheck.require(IndexFile.encode(index, tag: tag) == bytes, "the binary IVF index does not encode back to its file")
    let query = (0..<index.model.dimension).map { Float($0 % 5) - 2 }
    let found = index.shortlist(query, probe: 2, shortlist: 5)
    FuzzCheck.require(found.count <= min(5, index.count), "\(found.count) codes of \(index.count)")
}

FuzzTarget.run { bytes in
    check(bytes)
    checkBinaryIVF(bytes)
    guard bytes.count >= IndexFile.headerSize + IndexFile.trailerSize, bytes.starts(with: IndexFile.magic) else { return }
    var image = FileImage(bytes)
    image.store(CRC32.checksum(Array(bytes[0..<48])), at: 48)
    image.store(CRC32.checksum(Array(image.bytes.dropLast(8))), at: -8)
    if image.bytes != bytes {
        check(image.bytes)
        checkBinaryIVF(image.bytes)
    }
}
