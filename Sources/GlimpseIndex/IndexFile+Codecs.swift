import GlimpseFiles

/// An index read from a file, with the tag it was saved with.
public struct LoadedIndex: Sendable {
    /// The index, by kind.
    public enum Content: Sendable {
        /// An exact float index.
        case flat(FlatIndex)
        /// An exact int8-quantized index.
        case int8Flat(Int8FlatIndex)
        /// An HNSW graph index.
        case hnsw(HNSWIndex)
    }

    /// The index.
    public let content: Content
    /// The tag given when saving: typically the feature extractor's id and version.
    public let tag: String

    /// The index behind the common protocol.
    public var index: any NearestNeighborIndex {
        switch content {
        case let .flat(index): index
        case let .int8Flat(index): index
        case let .hnsw(index): index
        }
    }

    /// The kind of index held.
    public var kind: IndexFile.Kind {
        switch content {
        case .flat: .flat
        case .int8Flat: .int8Flat
        case .hnsw: .hnsw
        }
    }
}

extension IndexFile {
    /// The complete file image of `index`, tagged with `tag` (at most ``maximumTagBytes`` UTF-8 bytes kept).
    public static func encode(_ index: FlatIndex, tag: String = "") -> [UInt8] {
        let n = index.count
        return assemble(
            kind: .flat, metric: index.metric, dimension: index.dimension, count: n, tag: tag, parameters: [],
            payload: { writer in
                writer.append(contentsOf: index.ids.map { Int64($0) })
                writer.append(contentsOf: index.vectors)
            }, payloadLength: n * 8 + n * index.dimension * 4)
    }

    /// The complete file image of `index`, tagged with `tag` (at most ``maximumTagBytes`` UTF-8 bytes kept).
    public static func encode(_ index: HNSWIndex, tag: String = "") -> [UInt8] {
        let storage = index.storage
        let n = storage.nodeCount
        let deleted = index.deletionSnapshot
        var parameters = ByteWriter(capacity: 48)
        parameters.append(UInt32(index.parameters.maxLinks))
        parameters.append(UInt32(index.parameters.efConstruction))
        parameters.append(UInt32(index.parameters.efSearch))
        parameters.append(UInt32(index.parameters.buildThreads))
        parameters.append(index.parameters.seed)
        parameters.append(index.entryPoint)
        parameters.append(UInt32(index.maxLevel))
        parameters.append(UInt64(deleted.count))
        parameters.append(UInt64(storage.upperBlockCount))
        let level0Count = n * storage.stride0
        let upperCount = storage.upperBlockCount * storage.strideUpper
        let payloadLength = n * 8 + n + deleted.bits.count * 8 + n * storage.dimension * 4 + (level0Count + upperCount) * 4
        return assemble(
            kind: .hnsw, metric: index.metric, dimension: index.dimension, count: n, tag: tag,
            parameters: parameters.bytes,
            payload: { writer in
                writer.append(contentsOf: index.ids.map { Int64($0) })
                writer.append(raw: UnsafeRawBufferPointer(start: storage.levels, count: n))
                writer.append(contentsOf: deleted.bits)
                #if _endian(little)
                writer.append(raw: UnsafeRawBufferPointer(start: storage.vectors, count: n * storage.dimension * 4))
                writer.append(raw: UnsafeRawBufferPointer(start: storage.level0, count: level0Count * 4))
                writer.append(raw: UnsafeRawBufferPointer(start: storage.upper, count: upperCount * 4))
                #else
                for i in 0..<(n * storage.dimension) { writer.append(storage.vectors[i].bitPattern) }
                for i in 0..<level0Count { writer.append(storage.level0[i]) }
                for i in 0..<upperCount { writer.append(storage.upper[i]) }
                #endif
            }, payloadLength: payloadLength)
    }

    /// Validates a complete file image and rebuilds the index it holds.
    ///
    /// - Parameters:
    ///   - expectedDimension: when given, a file of another dimension is refused.
    ///   - expectedTag: when given, a file with another tag is refused.
    /// - Throws: ``IndexFileError`` naming the first check that failed; nothing is returned from a bad file.
    public static func decode(
        _ bytes: [UInt8], expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> LoadedIndex {
        try withSections(of: bytes, expectedDimension: expectedDimension, expectedTag: expectedTag) {
            (header, parameters, tag, payload) throws(IndexFileError) -> LoadedIndex in
            let content: LoadedIndex.Content
            switch header.kind {
            case .flat:
                guard parameters.isEmpty else { throw .malformed("a flat index has no parameters") }
                content = .flat(try decodeFlat(header, payload))
            case .int8Flat:
                content = .int8Flat(try decodeInt8Flat(header, parameters, payload))
            case .hnsw:
                content = .hnsw(try decodeHNSW(header, parameters, payload))
            case .binaryIVF:
                throw .kindMismatch(expected: "flat, int8-flat or HNSW", found: Kind.binaryIVF.description)
            }
            return LoadedIndex(content: content, tag: tag)
        }
    }

    /// Validates a complete file image (header, size, checksums, tag) and runs `body` over its header,
    /// parameters, tag and payload; the payload pointer must not escape `body`.
    static func withSections<Result>(
        of bytes: [UInt8], expectedDimension: Int?, expectedTag: String?,
        _ body: (Header, [UInt8], String, UnsafeRawBufferPointer) throws(IndexFileError) -> Result
    ) throws(IndexFileError) -> Result {
        try withBytes(of: bytes) { (raw) throws(IndexFileError) -> Result in
            let header = try validate(raw, expectedDimension: expectedDimension)
            var reader = ByteReader(raw, offset: headerSize, failure: IndexFileError.init(reading:))
            let parameters = try reader.readBytes(count: header.parametersLength, "parameters")
            let tagBytes = try reader.readBytes(count: header.tagLength, "tag")
            guard let tag = String(validating: tagBytes, as: UTF8.self) else { throw .malformed("the tag is not UTF-8") }
            if let expectedTag, expectedTag != tag { throw .tagMismatch(expected: expectedTag, found: tag) }
            let payloadStart = reader.offset
            return try body(header, parameters, tag,
                            UnsafeRawBufferPointer(rebasing: raw[payloadStart..<(payloadStart + header.payloadLength)]))
        }
    }

    static func readIDs(_ reader: inout ByteReader<IndexFileError>, count: Int) throws(IndexFileError) -> [Int] {
        try reader.readArray(Int64.self, count: count, "ids").map { Int($0) }
    }

    static func readVectors(_ reader: inout ByteReader<IndexFileError>, count: Int, dimension: Int) throws(IndexFileError) -> [Float] {
        let (total, overflow) = count.multipliedReportingOverflow(by: dimension)
        guard !overflow else { throw .malformed("vector storage size overflows") }
        let vectors = try reader.readFloats(count: total, "vectors")
        guard vectors.allSatisfy(\.isFinite) else { throw .malformed("a stored vector has a non-finite component") }
        return vectors
    }

    private static func decodeFlat(_ header: Header, _ payload: UnsafeRawBufferPointer) throws(IndexFileError) -> FlatIndex {
        var reader = ByteReader(payload, failure: IndexFileError.init(reading:))
        let ids = try readIDs(&reader, count: header.count)
        let vectors = try readVectors(&reader, count: header.count, dimension: header.dimension)
        guard reader.remaining == 0 else { throw .malformed("the payload is longer than its vectors") }
        do {
            return try FlatIndex(dimension: header.dimension, metric: header.metric, preparedVectors: vectors, ids: ids)
        } catch {
            throw .malformed("\(error)")
        }
    }

    private static func decodeHNSW(
        _ header: Header, _ parameterBytes: [UInt8], _ payload: UnsafeRawBufferPointer
    ) throws(IndexFileError) -> HNSWIndex {
        guard parameterBytes.count == 48 else { throw .malformed("HNSW parameters are \(parameterBytes.count) bytes, not 48") }
        return try withBytes(of: parameterBytes) { (raw) throws(IndexFileError) -> HNSWIndex in
            var p = ByteReader(raw, failure: IndexFileError.init(reading:))
            let parameters = HNSWParameters(
                maxLinks: Int(try p.read(UInt32.self, "maxLinks")),
                efConstruction: Int(try p.read(UInt32.self, "efConstruction")),
                efSearch: Int(try p.read(UInt32.self, "efSearch")),
                seed: 0,
                buildThreads: Int(try p.read(UInt32.self, "buildThreads")))
            var withSeed = parameters
            withSeed.seed = try p.read(UInt64.self, "seed")
            let entryPoint = try p.read(UInt32.self, "entry point")
            let maxLevel = Int(try p.read(UInt32.self, "max level"))
            let deletedCount = try p.read(UInt64.self, "deleted count")
            let upperBlocks = try p.read(UInt64.self, "upper block count")
            do { try withSeed.validate() } catch { throw .malformed("\(error)") }

            let n = header.count
            var reader = ByteReader(payload, failure: IndexFileError.init(reading:))
            let ids = try readIDs(&reader, count: n)
            let levels = try reader.readBytes(count: n, "levels")
            guard levels.allSatisfy({ Int($0) <= HNSWBuilder.levelCap }) else { throw .malformed("a node level is out of range") }
            guard UInt64(levels.reduce(0) { $0 + Int($1) }) == upperBlocks else {
                throw .malformed("the upper-level block count does not match the node levels")
            }
            let bits = try reader.readArray(UInt64.self, count: (n + 63) / 64, "deleted set")
            let storage = HNSWStorage(dimension: header.dimension, maxLinks: withSeed.maxLinks, levels: levels)
            let vectors = try readVectors(&reader, count: n, dimension: header.dimension)
            let level0 = try reader.readArray(UInt32.self, count: n * storage.stride0, "level-0 links")
            let upper = try reader.readArray(UInt32.self, count: storage.upperBlockCount * storage.strideUpper, "upper links")
            guard reader.remaining == 0 else { throw .malformed("the payload is longer than its graph") }
            vectors.withUnsafeBufferPointer { if let b = $0.baseAddress { storage.vectors.update(from: b, count: $0.count) } }
            level0.withUnsafeBufferPointer { if let b = $0.baseAddress { storage.level0.update(from: b, count: $0.count) } }
            upper.withUnsafeBufferPointer { if let b = $0.baseAddress { storage.upper.update(from: b, count: $0.count) } }
            guard storage.validateLinks() else { throw .malformed("a graph link is out of range") }
            if n > 0 {
                guard Int(entryPoint) < n, Int(levels[Int(entryPoint)]) == maxLevel,
                    levels.allSatisfy({ Int($0) <= maxLevel })
                else { throw .malformed("the entry point is not a node of the top level") }
            }
            var deletedIDs: [Int] = []
            for node in 0..<n where bits[node >> 6] & (1 << UInt64(node & 63)) != 0 { deletedIDs.append(ids[node]) }
            guard UInt64(deletedIDs.count) == deletedCount,
                n % 64 == 0 || bits.last.map({ $0 >> UInt64(n % 64) == 0 }) == true
            else { throw .malformed("the deleted set does not match its count") }
            do {
                return try HNSWIndex(
                    metric: header.metric, parameters: withSeed, ids: ids, storage: storage, entryPoint: entryPoint,
                    maxLevel: n > 0 ? maxLevel : 0, deleted: deletedIDs)
            } catch {
                throw .malformed("\(error)")
            }
        }
    }
}

extension IndexFile {
    /// The complete file image of `index`, tagged with `tag` (at most ``maximumTagBytes`` UTF-8 bytes kept).
    public static func encode(_ index: Int8FlatIndex, tag: String = "") -> [UInt8] {
        let n = index.count
        let d = index.dimension
        return assemble(
            kind: .int8Flat, metric: index.metric, dimension: d, count: n, tag: tag, parameters: [],
            payload: { writer in
                writer.append(contentsOf: index.offsets)
                writer.append(contentsOf: index.scales)
                writer.append(contentsOf: index.ids.map { Int64($0) })
                writer.append(contentsOf: index.codes)
            }, payloadLength: d * 8 + n * 8 + n * d)
    }

    static func decodeInt8Flat(
        _ header: Header, _ parameters: [UInt8], _ payload: UnsafeRawBufferPointer
    ) throws(IndexFileError) -> Int8FlatIndex {
        guard parameters.isEmpty else { throw .malformed("an int8 flat index has no parameters") }
        var reader = ByteReader(payload, failure: IndexFileError.init(reading:))
        let d = header.dimension
        let offsets = try readVectors(&reader, count: 1, dimension: d)
        let scales = try readVectors(&reader, count: 1, dimension: d)
        guard scales.allSatisfy({ $0 > 0 }) else { throw .malformed("a quantization scale is not positive") }
        let ids = try readIDs(&reader, count: header.count)
        guard Set(ids).count == ids.count else { throw .malformed("an id appears twice") }
        let (total, overflow) = header.count.multipliedReportingOverflow(by: d)
        guard !overflow else { throw .malformed("code storage size overflows") }
        let codes = try reader.readBytes(count: total, "codes")
        guard reader.remaining == 0 else { throw .malformed("the payload is longer than its codes") }
        return Int8FlatIndex(dimension: d, metric: header.metric, ids: ids, offsets: offsets, scales: scales, codes: codes)
    }
}
