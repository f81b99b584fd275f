// Feeds index files (GLMPSIDX: flat, int8 flat, HNSW) to IndexFile.decode: as they are, then with the
// header and whole-file CRC-32 repaired so the payload parser is reached. An index that loads must
// encode back to the same bytes and answer a search.
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

FuzzTarget.run { bytes in
    check(bytes)
    guard bytes.count >= IndexFile.headerSize + IndexFile.trailerSize, bytes.starts(with: IndexFile.magic) else { return }
    var image = FileImage(bytes)
    image.store(CRC32.checksum(Array(bytes[0..<48])), at: 48)
    image.store(CRC32.checksum(Array(image.bytes.dropLast(8))), at: -8)
    if image.bytes != bytes { check(image.bytes) }
}
