import GlimpseFiles

/// The binary inverted-file kind of the index file: a ``BinaryIVFIndex`` saved once and loaded at the
/// next start instead of being trained and filled again.
///
/// Parameters (8 bytes): the number of clusters (u32), then 0 (u32). Payload, little-endian: the
/// centroids (`clusters × dimension` f32), the centre (`dimension` f32), the list starts
/// (`clusters + 1` u64), the entry ids (`count` u32, list by list) and the codes (`count × codeWords`
/// u64, in entry order). The metric field says `innerProduct`: lists are chosen by dot product with the
/// centroids. The file's checksums cover every byte, so a damaged file is refused before any of it is
/// used, like every kind.
extension IndexFile {
    /// The complete file image of `index`, tagged with `tag` (at most ``maximumTagBytes`` UTF-8 bytes kept).
    public static func encode(_ index: BinaryIVFIndex, tag: String = "") -> [UInt8] {
        let model = index.model
        let d = model.dimension
        var parameters = ByteWriter(capacity: 8)
        parameters.append(UInt32(model.clusters))
        parameters.append(UInt32(0))
        let payloadLength = model.centroids.count * 4 + d * 4 + index.listStarts.count * 8 + index.count * 4
            + index.codes.count * 8
        return assemble(
            kind: .binaryIVF, metric: .innerProduct, dimension: d, count: index.count, tag: tag,
            parameters: parameters.bytes,
            payload: { writer in
                writer.append(contentsOf: model.centroids)
                writer.append(contentsOf: model.centre)
                writer.append(contentsOf: index.listStarts.map { UInt64($0) })
                writer.append(contentsOf: index.entryIDs)
                writer.append(contentsOf: index.codes)
            }, payloadLength: payloadLength)
    }

    /// Saves `index` to `path` atomically and durably (temporary file, `fsync`, `rename`, directory `fsync`).
    /// - Throws: ``IndexFileError/noSpace(path:)`` or ``IndexFileError/cannotWrite(path:operation:errno:)``,
    ///   and the previous file at `path`, if any, is then untouched; or
    ///   ``IndexFileError/savedButNotDurable(path:operation:errno:)`` when only flushing the directory failed.
    public static func save(_ index: BinaryIVFIndex, to path: String, tag: String = "") throws(IndexFileError) {
        try write(encode(index, tag: tag), to: path)
    }

    /// Loads and fully validates the index file at `path`, which must hold a ``BinaryIVFIndex``.
    ///
    /// - Parameters:
    ///   - expectedDimension: when given, a file of another dimension is refused.
    ///   - expectedTag: when given, a file with another tag (another extraction, model or source) is refused.
    /// - Throws: ``IndexFileError/kindMismatch(expected:found:)`` for another kind, or any load error.
    public static func loadBinaryIVF(
        from path: String, expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> BinaryIVFIndex {
        try decodeBinaryIVF(readImage(from: path, expectedDimension: expectedDimension),
                            expectedDimension: expectedDimension, expectedTag: expectedTag)
    }

    /// Validates a complete file image and rebuilds the ``BinaryIVFIndex`` it holds.
    ///
    /// - Throws: ``IndexFileError`` naming the first check that failed, and
    ///   ``IndexFileError/kindMismatch(expected:found:)`` for a file of another kind.
    public static func decodeBinaryIVF(
        _ bytes: [UInt8], expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> BinaryIVFIndex {
        try withSections(of: bytes, expectedDimension: expectedDimension, expectedTag: expectedTag) {
            (header, parameters, _, payload) throws(IndexFileError) -> BinaryIVFIndex in
            guard header.kind == .binaryIVF else {
                throw .kindMismatch(expected: Kind.binaryIVF.description, found: header.kind.description)
            }
            return try decodeBinaryIVF(header, parameters, payload)
        }
    }

    private static func decodeBinaryIVF(
        _ header: Header, _ parameterBytes: [UInt8], _ payload: UnsafeRawBufferPointer
    ) throws(IndexFileError) -> BinaryIVFIndex {
        guard header.metric == .innerProduct else { throw .malformed("a binary IVF index ranks lists by inner product") }
        guard parameterBytes.count == 8 else {
            throw .malformed("binary IVF parameters are \(parameterBytes.count) bytes, not 8")
        }
        let clusters = Int(UInt32(parameterBytes[0]) | UInt32(parameterBytes[1]) << 8
                           | UInt32(parameterBytes[2]) << 16 | UInt32(parameterBytes[3]) << 24)
        guard parameterBytes[4...].allSatisfy({ $0 == 0 }) else { throw .malformed("reserved parameter bytes are set") }
        guard clusters >= 1 else { throw .malformed("a binary IVF index has at least one list") }
        let d = header.dimension
        let n = header.count
        let words = SignCodes.words(dimension: d)
        var reader = ByteReader(payload, failure: IndexFileError.init(reading:))
        let centroids = try readVectors(&reader, count: clusters, dimension: d)
        let centre = try readVectors(&reader, count: 1, dimension: d)
        let starts = try reader.readArray(UInt64.self, count: clusters + 1, "list starts")
        guard starts.first == 0, starts.last == UInt64(n), zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw .malformed("the list starts do not run from 0 to the entry count in order")
        }
        let entryIDs = try reader.readArray(UInt32.self, count: n, "entry ids")
        let (codeCount, overflow) = n.multipliedReportingOverflow(by: words)
        guard !overflow else { throw .malformed("code storage size overflows") }
        let codes = try reader.readArray(UInt64.self, count: codeCount, "codes")
        guard reader.remaining == 0 else { throw .malformed("the payload is longer than its codes") }
        if d % 64 != 0 {
            let unused = UInt64.max << UInt64(d % 64)
            for entry in 0..<n where codes[entry * words + words - 1] & unused != 0 {
                throw .malformed("entry \(entry) has a code bit past the dimension")
            }
        }
        let model = BinaryIVFModel(dimension: d, centroids: centroids, centre: centre)
        return BinaryIVFIndex(model: model, listStarts: starts.map { Int($0) }, entryIDs: entryIDs, codes: codes)
    }
}
