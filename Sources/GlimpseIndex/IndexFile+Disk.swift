import GlimpseFiles

extension IndexFile {
    /// Saves `index` to `path` atomically and durably (temporary file, `fsync`, `rename`, directory `fsync`).
    /// - Throws: ``IndexFileError/noSpace(path:)`` or ``IndexFileError/cannotWrite(path:operation:errno:)``,
    ///   and the previous file at `path`, if any, is then untouched; or
    ///   ``IndexFileError/savedButNotDurable(path:operation:errno:)`` when only flushing the directory failed.
    public static func save(_ index: FlatIndex, to path: String, tag: String = "") throws(IndexFileError) {
        try write(encode(index, tag: tag), to: path)
    }

    /// Saves `index` to `path` atomically and durably (temporary file, `fsync`, `rename`, directory `fsync`).
    /// - Throws: ``IndexFileError/noSpace(path:)`` or ``IndexFileError/cannotWrite(path:operation:errno:)``,
    ///   and the previous file at `path`, if any, is then untouched; or
    ///   ``IndexFileError/savedButNotDurable(path:operation:errno:)`` when only flushing the directory failed.
    public static func save(_ index: Int8FlatIndex, to path: String, tag: String = "") throws(IndexFileError) {
        try write(encode(index, tag: tag), to: path)
    }

    /// Saves `index` to `path` atomically and durably (temporary file, `fsync`, `rename`, directory `fsync`).
    /// - Throws: ``IndexFileError/noSpace(path:)`` or ``IndexFileError/cannotWrite(path:operation:errno:)``,
    ///   and the previous file at `path`, if any, is then untouched; or
    ///   ``IndexFileError/savedButNotDurable(path:operation:errno:)`` when only flushing the directory failed.
    public static func save(_ index: HNSWIndex, to path: String, tag: String = "") throws(IndexFileError) {
        try write(encode(index, tag: tag), to: path)
    }

    /// Replaces the file at `path` with `bytes` through `GlimpseFiles.AtomicFile`, in this module's errors.
    static func write(_ bytes: [UInt8], to path: String) throws(IndexFileError) {
        do throws(FileError) {
            try AtomicFile.replace(path, with: bytes)
        } catch {
            throw IndexFileError(saving: error)
        }
    }

    /// Loads and fully validates the index file at `path`.
    ///
    /// The header is checked against the file size before the rest is read, and the checksum before
    /// anything is decoded.
    /// - Parameters:
    ///   - expectedDimension: when given, a file of another dimension is refused.
    ///   - expectedTag: when given, a file with another tag is refused.
    /// - Throws: ``IndexFileError`` naming the first check that failed.
    public static func load(
        from path: String, expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> LoadedIndex {
        try decode(readImage(from: path, expectedDimension: expectedDimension),
                   expectedDimension: expectedDimension, expectedTag: expectedTag)
    }

    /// The bytes of the index file at `path`, read whole once its header passes its checks and the file's
    /// size matches the header's lengths (nothing more is read from a file that fails them).
    static func readImage(from path: String, expectedDimension: Int?) throws(IndexFileError) -> [UInt8] {
        try AtomicFile.read(
            path, peekBytes: headerSize, mapError: IndexFileError.init(reading:)
        ) { (head, size) throws(IndexFileError) in
            let header = try withBytes(of: head) { (raw) throws(IndexFileError) in
                try readHeader(raw, expectedDimension: expectedDimension)
            }
            guard let expected = header.fileSize else { throw .malformed("section lengths overflow") }
            guard size >= expected else { throw .truncated(expectedBytes: expected, actualBytes: size) }
            guard size == expected else { throw .trailingBytes(expectedBytes: expected, actualBytes: size) }
        }
    }

    /// Loads the index file at `path` and requires it to hold a ``FlatIndex``.
    /// - Throws: ``IndexFileError/kindMismatch(expected:found:)`` for another kind, or any load error.
    public static func loadFlat(
        from path: String, expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> FlatIndex {
        try load(from: path, expectedDimension: expectedDimension, expectedTag: expectedTag, kind: .flat) {
            if case let .flat(index) = $0 { index } else { nil }
        }
    }

    /// Loads the index file at `path` and requires it to hold an ``HNSWIndex``.
    /// - Throws: ``IndexFileError/kindMismatch(expected:found:)`` for another kind, or any load error.
    public static func loadHNSW(
        from path: String, expectedDimension: Int? = nil, expectedTag: String? = nil
    ) throws(IndexFileError) -> HNSWIndex {
        try load(from: path, expectedDimension: expectedDimension, expectedTag: expectedTag, kind: .hnsw) {
            if case let .hnsw(index) = $0 { index } else { nil }
        }
    }

    /// Loads the index file at `path` and returns what `extract` finds in it, or refuses it as holding
    /// another kind than `kind`.
    private static func load<Index>(
        from path: String, expectedDimension: Int?, expectedTag: String?, kind: Kind,
        extract: (LoadedIndex.Content) -> Index?
    ) throws(IndexFileError) -> Index {
        let loaded = try load(from: path, expectedDimension: expectedDimension, expectedTag: expectedTag)
        guard let index = extract(loaded.content) else {
            throw .kindMismatch(expected: kind.description, found: loaded.kind.description)
        }
        return index
    }

    /// Deletes temporary files that an interrupted save left next to `path`; returns how many were removed.
    ///
    /// Call it at startup, before this or another process starts saving to `path`.
    @discardableResult
    public static func removeStaleTemporaryFiles(forTarget path: String) -> Int {
        AtomicFile.removeStaleTemporaryFiles(forTarget: path)
    }
}

extension IndexFileError {
    /// The error of a save that failed in `error`'s step: a full disk or quota is ``noSpace(path:)``.
    init(saving error: FileError) {
        if error.isAfterRename {
            self = .savedButNotDurable(path: error.path, operation: error.operation.systemCall, errno: error.code)
        } else if error.isNoSpace {
            self = .noSpace(path: error.path)
        } else {
            self = .cannotWrite(path: error.path, operation: error.operation.systemCall, errno: error.code)
        }
    }

    /// The error of a load whose file could not be opened, measured or read.
    init(reading error: FileError) {
        self = .cannotRead(path: error.path, errno: error.code)
    }

    /// The error of a value that runs past the end of its section.
    init(reading error: ByteReadError) {
        self = .malformed("\(error.what) runs past the end of its section")
    }
}
