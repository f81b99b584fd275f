import GlimpseFiles

extension VisualMatcher {
    /// The matcher saved at `path` by ``saveIndex(to:tag:)``, if it was saved under `tag` and passes every
    /// check of ``MatcherIndexFile``; no feature is extracted and no index is built.
    ///
    /// - Parameters:
    ///   - configuration: the settings to match with; `tag` must name the same extraction and index settings
    ///     (``MatcherIndexFile/tag(configuration:printer:source:)``).
    ///   - printer: the feature printer, of the network the index was built with.
    ///   - nullPrints: the null prints; when they are the ones the saved calibration was measured with, it is
    ///     kept, otherwise the print-alone line is measured again.
    ///   - keypointSlots: where the slots of the references verified from disk are, when the index has any;
    ///     the file must be the very one the index was built with.
    /// - Throws: ``MatcherIndexError``, ``MatcherIndexError/isRebuildable`` for every kind of damage or
    ///   staleness and for a missing file.
    public static func loadIndex(
        from path: String, tag: String, configuration: VisionConfiguration, printer: (any FeaturePrinting)? = nil,
        nullPrints: NullPrints? = nil, keypointSlots: String? = nil
    ) throws(MatcherIndexError) -> VisualMatcher {
        let reader: SequentialFileReader
        do throws(FileError) {
            reader = try SequentialFileReader(path: path)
        } catch {
            throw .io(error)
        }
        var loader = MatcherIndexLoader(path: path, reader: reader)
        let parts = try loader.load(tag: tag)
        return try parts.matcher(
            path: path, configuration: configuration, printer: printer, nullPrints: nullPrints, keypointSlots: keypointSlots)
    }
}

/// Reads a matcher index file front to back (see ``MatcherIndexFile``).
struct MatcherIndexLoader {
    let path: String
    let reader: SequentialFileReader

    /// Reads `count` elements of `T`.
    func array<T: BitwiseCopyable>(_: T.Type, _ count: Int) throws(MatcherIndexError) -> [T] {
        do throws(FileError) {
            return try reader.readArray(of: T.self, count: count)
        } catch {
            throw .io(error)
        }
    }

    /// Reads up to `offset`, which must not lie behind.
    func skip(to offset: Int) throws(MatcherIndexError) {
        guard offset >= reader.offset else { throw .malformed(path: path, reason: "sections overlap") }
        do throws(FileError) {
            try reader.skip(offset - reader.offset)
        } catch {
            throw .io(error)
        }
    }

    /// The file's parts, after the header, size, tag, section table and checksum checks.
    mutating func load(tag expected: String) throws(MatcherIndexError) -> LoadedMatcherIndex {
        let size = reader.size
        guard size >= MatcherIndexFile.headerSize else {
            if size > 0, let head = try? reader.readArray(of: UInt8.self, count: min(size, 8)),
               !MatcherIndexFile.magic.starts(with: head) {
                throw .notAnIndexFile(path: path)
            }
            throw .wrongSize(path: path, size: size, declared: MatcherIndexFile.headerSize + MatcherIndexFile.trailerSize)
        }
        let header = try array(UInt8.self, MatcherIndexFile.headerSize)
        guard header.starts(with: MatcherIndexFile.magic) else { throw .notAnIndexFile(path: path) }
        let (sectionCount, tagLength, declared) = try Self.fields(of: header, path: path)
        guard declared == size, size >= MatcherIndexFile.headerSize + MatcherIndexFile.trailerSize else {
            throw .wrongSize(path: path, size: size, declared: declared)
        }
        let tagBytes = try array(UInt8.self, tagLength)
        let found = String(decoding: tagBytes, as: UTF8.self)
        guard found == expected else { throw .builtForOther(path: path, expected: expected, found: found) }
        let sections = MatcherIndexFile.Section.allCases
        guard sectionCount == sections.count else {
            throw .malformed(path: path, reason: "\(sectionCount) sections where this version has \(sections.count)")
        }
        // Every section's place is checked against the file's size before anything is allocated.
        let table = try array(UInt8.self, sectionCount * MatcherIndexFile.sectionEntrySize)
        var counts: [Int] = []
        var offsets: [Int] = []
        let dataEnd = size - MatcherIndexFile.trailerSize
        for (n, section) in sections.enumerated() {
            let entry = n * MatcherIndexFile.sectionEntrySize
            let id = Self.load(UInt32.self, table, entry)
            let elementSize = Int(Self.load(UInt32.self, table, entry + 4))
            let count = Self.load(UInt64.self, table, entry + 8)
            let offset = Self.load(UInt64.self, table, entry + 16)
            guard id == section.rawValue, elementSize == section.elementSize else {
                throw .malformed(path: path, reason: "section \(n) is not the \(section) section this version expects")
            }
            guard offset <= UInt64(dataEnd), count <= UInt64(dataEnd) / UInt64(elementSize),
                  Int(offset) + Int(count) * elementSize <= dataEnd, Int(offset) >= (offsets.last ?? 0) else {
                throw .malformed(path: path, reason: "the \(section) section lies outside the file")
            }
            counts.append(Int(count))
            offsets.append(Int(offset))
        }
        func read<T: BitwiseCopyable>(_ section: MatcherIndexFile.Section, _: T.Type) throws(MatcherIndexError) -> [T] {
            let n = sections.firstIndex(of: section) ?? 0
            try skip(to: offsets[n])
            return try array(T.self, counts[n])
        }
        let loaded = LoadedMatcherIndex(
            meta: try read(.meta, UInt64.self), slotFileID: try read(.slotFileID, UInt8.self),
            groupIDBytes: try read(.groupIDBytes, UInt8.self), groupIDEnds: try read(.groupIDEnds, UInt32.self),
            keyBytes: try read(.keyBytes, UInt8.self), keyEnds: try read(.keyEnds, UInt32.self),
            groups: try read(.groups, Int32.self), longSides: try read(.longSides, Double.self),
            sizes: try read(.sizes, Int32.self), descriptorStarts: try read(.descriptorStarts, UInt64.self),
            words: try read(.words, UInt64.self), points: try read(.points, Float.self),
            owners: try read(.owners, UInt32.self), lshPositions: try read(.lshPositions, Int32.self),
            lshStarts: try read(.lshStarts, UInt32.self), lshEntries: try read(.lshEntries, UInt32.self),
            lshDescriptors: try read(.lshDescriptors, UInt32.self), prints: try read(.prints, Float.self),
            printOwners: try read(.printOwners, Int32.self), slotOf: try read(.slotOf, Int32.self),
            printCentroids: try read(.printCentroids, Float.self), printCentre: try read(.printCentre, Float.self),
            printLevels: try read(.printLevels, Float.self), printListStarts: try read(.printListStarts, UInt64.self),
            printEntries: try read(.printEntries, UInt32.self), printCodes: try read(.printCodes, UInt64.self),
            printScales: try read(.printScales, Float.self))
        try skip(to: dataEnd)
        let computed = reader.checksum.value
        let trailer = try array(UInt8.self, MatcherIndexFile.trailerSize)
        guard Self.load(UInt32.self, trailer, 0) == computed else { throw .checksum(path: path) }
        guard trailer.suffix(4).elementsEqual(MatcherIndexFile.endMarker) else {
            throw .malformed(path: path, reason: "the end marker is damaged")
        }
        return loaded
    }

    /// The section count, tag length and file length of a header, after its version, byte-order mark,
    /// checksum and reserved bytes are checked.
    private static func fields(of header: [UInt8], path: String) throws(MatcherIndexError) -> (Int, Int, Int) {
        let version = Int(load(UInt16.self, header, 8))
        guard version == MatcherIndexFile.formatVersion else {
            throw .unsupportedVersion(path: path, found: version, supported: MatcherIndexFile.formatVersion)
        }
        guard load(UInt16.self, header, 10) == MatcherIndexFile.byteOrderMark else { throw .wrongByteOrder(path: path) }
        guard load(UInt32.self, header, 32) == CRC32.checksum(header[0..<32]) else { throw .headerChecksum(path: path) }
        guard load(UInt32.self, header, 20) == 0, header[36...].allSatisfy({ $0 == 0 }) else {
            throw .malformed(path: path, reason: "reserved header bytes are set")
        }
        let tagLength = Int(load(UInt32.self, header, 16))
        guard tagLength <= MatcherIndexFile.maximumTagBytes else {
            throw .malformed(path: path, reason: "a tag of \(tagLength) bytes")
        }
        let length = load(UInt64.self, header, 24)
        guard length <= UInt64(Int.max) else { throw .malformed(path: path, reason: "a file length out of range") }
        return (Int(load(UInt32.self, header, 12)), tagLength, Int(length))
    }

    /// The little-endian `T` at `offset` of `bytes` (which the caller has sized to hold it).
    static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        var value: T = 0
        for k in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + k]) << (8 * k) }
        return value
    }
}
