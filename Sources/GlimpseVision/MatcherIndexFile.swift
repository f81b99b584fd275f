import GlimpseIndex
import Foundation
import GlimpseFiles

/// A built ``VisualMatcher`` on disk, so that a start loads its references' prints, indexed keypoints and
/// shortlist index instead of extracting features and building the index again.
///
/// Layout, little-endian (the byte-order mark refuses a file from a big-endian machine):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `GLMPSMIX` |
/// | 8 | 2 | format version (2: print codes) |
/// | 10 | 2 | byte-order mark `0xFEFF` |
/// | 12 | 4 | section count |
/// | 16 | 4 | tag length |
/// | 20 | 4 | reserved, 0 |
/// | 24 | 8 | file length |
/// | 32 | 4 | CRC-32 of bytes 0..<32 |
/// | 36 | 28 | reserved, 0 |
/// | 64 | … | the tag (UTF-8): what the index was built with and from |
/// | … | 24 each | the section table: id, element size (32 bits each), element count, offset (64 bits each) |
/// | … | … | the sections, each at an offset that is a multiple of 8 |
/// | end − 8 | 4 | CRC-32 of every byte before it |
/// | end − 4 | 4 | end marker `GEND` |
///
/// Loading reads each section straight into the array the matcher keeps, so it never holds the file twice,
/// and checks in order: the header, the size, the tag, the section table (every length against the file
/// before anything is allocated), the whole-file checksum, then that every value is in range: integers
/// within the arrays they index, every float (positions, sizes, prints, print codes, calibration) a finite
/// number. An index whose checksum was forged still cannot make a query read out of bounds or score NaN;
/// it is refused with ``MatcherIndexError/malformed(path:reason:)`` and rebuilt. Nothing is used before
/// every check passes.
public enum MatcherIndexFile {
    /// The format version this build writes and reads.
    public static let formatVersion = 2
    static let magic: [UInt8] = Array("GLMPSMIX".utf8)
    static let endMarker: [UInt8] = Array("GEND".utf8)
    static let headerSize = 64
    static let trailerSize = 8
    static let sectionEntrySize = 24
    static let byteOrderMark: UInt16 = 0xFEFF
    /// The longest tag, in UTF-8 bytes.
    public static let maximumTagBytes = 1 << 16

    /// The file's sections, in the order they are written.
    enum Section: UInt32, CaseIterable {
        case meta = 1, slotFileID, groupIDBytes, groupIDEnds, keyBytes, keyEnds, groups, longSides, sizes
        case descriptorStarts, words, points, owners, lshPositions, lshStarts, lshEntries, lshDescriptors
        case prints, printOwners, slotOf
        case printCentroids, printCentre, printLevels, printListStarts, printEntries, printCodes, printScales

        /// The size of one element.
        var elementSize: Int {
            switch self {
            case .slotFileID, .groupIDBytes, .keyBytes: 1
            case .groupIDEnds, .keyEnds, .groups, .sizes, .points, .owners, .lshPositions, .lshStarts, .lshEntries,
                 .lshDescriptors, .prints, .printOwners, .slotOf, .printCentroids, .printCentre, .printLevels,
                 .printEntries, .printScales: 4
            case .meta, .longSides, .descriptorStarts, .words, .printListStarts, .printCodes: 8
            }
        }
    }

    /// The fields of the `meta` section, in order.
    enum Meta: Int, CaseIterable {
        case printDimension, referenceCount, groupCount, lshTables, lshBits, lshCount, indexesSubset
        case slotCount, slotMaxKeypoints, slotIndexedKeypoints, calibrated, calibrationThreshold, calibrationRate, calibrationNulls
        case calibrationNullsOverLine, calibrationPlaces, nullPrintsDigest
    }

    /// The tag a matcher built with `configuration` and `printer` from the references `source` names is
    /// saved and looked for under: the extraction and index settings, the print network, and `source`.
    public static func tag(configuration: VisionConfiguration, printer: (any FeaturePrinting)?, source: String) -> String {
        "matcher-index/\(formatVersion);\(configuration.extractionFingerprint);refkp=\(configuration.referenceKeypointLimit ?? 0);"
            + "indexedkp=\(configuration.indexedKeypointLimit ?? 0)c\(configuration.indexedKeypointCentre);lsh=\(configuration.lshTables)x\(configuration.lshBits);"
            + "printcodes=\(configuration.printCodeLine)/r\(PrintRotation.rounds);"
            + "print=\(printer.map { "\($0.featurePrintDimension)/\($0.featurePrintIdentity)" } ?? "none");source=\(source)"
    }

    /// A digest of `nulls` (their identity and every value): a saved calibration is reused only for the same ones.
    static func digest(of nulls: NullPrints?) -> UInt64 {
        guard let nulls else { return 0 }
        var hash = FNV1a64.hash(nulls.identity.utf8)
        let values = nulls.values.withUnsafeBytes { CRC32.checksum(bytes: $0) }
        hash ^= UInt64(values) << 17 ^ UInt64(nulls.count)
        return hash == 0 ? 1 : hash
    }
}

extension VisualMatcher {
    /// Saves this matcher (compacted first when references were added or removed) to `path` (its folder
    /// made when missing), atomically and durably, under `tag` (see ``MatcherIndexFile/tag(configuration:printer:source:)``); references
    /// whose keypoints live in a ``KeypointSlots`` file are saved with their slots, and the index is then
    /// bound to that file.
    ///
    /// - Throws: ``MatcherIndexError/io(_:)`` when the file cannot be written (the previous file, if any,
    ///   is then untouched); ``MatcherIndexError/malformed(path:reason:)`` for a tag over
    ///   ``MatcherIndexFile/maximumTagBytes``.
    public func saveIndex(to path: String, tag: String) throws(MatcherIndexError) {
        let matcher = hasChanges ? compacted() : self
        guard let segment = matcher.segments.first, matcher.segments.count == 1 else {
            throw .malformed(path: path, reason: "a matcher has one segment after compaction")
        }
        let tagBytes = Array(tag.utf8)
        guard tagBytes.count <= MatcherIndexFile.maximumTagBytes else {
            throw .malformed(path: path, reason: "the tag is \(tagBytes.count) bytes, over \(MatcherIndexFile.maximumTagBytes)")
        }
        let parts = MatcherIndexParts(matcher: matcher, segment: segment)
        // A folder named for the index that does not exist yet is made, private to its owner.
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        do throws(FileError) {
            try AtomicFile.replace(path) { (sink: inout AtomicFileSink) throws(FileError) in
                try parts.write(to: &sink, tag: tagBytes)
            }
        } catch {
            throw .io(error)
        }
    }
}

/// A matcher's arrays as the file's sections: what ``VisualMatcher/saveIndex(to:tag:)`` writes.
struct MatcherIndexParts {
    let meta: [UInt64]
    let slotFileID: [UInt8]
    let groupIDs: (bytes: [UInt8], ends: [UInt32])
    let keys: (bytes: [UInt8], ends: [UInt32])
    let segment: ReferenceSegment

    init(matcher: VisualMatcher, segment: ReferenceSegment) {
        self.segment = segment
        var meta = [UInt64](repeating: 0, count: MatcherIndexFile.Meta.allCases.count)
        func set(_ field: MatcherIndexFile.Meta, _ value: UInt64) { meta[field.rawValue] = value }
        set(.printDimension, UInt64(matcher.printDimension))
        set(.referenceCount, UInt64(segment.count))
        set(.groupCount, UInt64(matcher.groupIDs.count))
        set(.lshTables, UInt64(segment.lsh.tableCount))
        set(.lshBits, UInt64(segment.lsh.bits))
        set(.lshCount, UInt64(segment.lsh.count))
        set(.indexesSubset, segment.lshDescriptors == nil ? 0 : 1)
        if let slots = segment.keypointSlots {
            set(.slotCount, UInt64(slots.file.committedCount))
            set(.slotMaxKeypoints, UInt64(slots.maxKeypoints))
            set(.slotIndexedKeypoints, UInt64(slots.indexedKeypoints))
        }
        if let calibration = matcher.printCalibration {
            set(.calibrated, 1)
            set(.calibrationThreshold, calibration.threshold.bitPattern)
            set(.calibrationRate, calibration.falseMatchRate.bitPattern)
            set(.calibrationNulls, UInt64(calibration.nullCount))
            set(.calibrationNullsOverLine, UInt64(calibration.nullsOverLine))
            set(.calibrationPlaces, UInt64(calibration.places))
            set(.nullPrintsDigest, MatcherIndexFile.digest(of: matcher.nullPrints))
        }
        self.meta = meta
        slotFileID = segment.keypointSlots?.file.fileID ?? []
        groupIDs = Self.strings(Array(matcher.groupIDs))
        keys = Self.strings(segment.keys)
    }

    /// `strings`' UTF-8 bytes one after another, and where each ends.
    static func strings(_ strings: [String]) -> (bytes: [UInt8], ends: [UInt32]) {
        var bytes: [UInt8] = []
        var ends: [UInt32] = []
        ends.reserveCapacity(strings.count)
        for string in strings {
            bytes.append(contentsOf: string.utf8)
            ends.append(UInt32(truncatingIfNeeded: bytes.count))
        }
        return (bytes, ends)
    }

    /// The number of elements of each section.
    func count(of section: MatcherIndexFile.Section) -> Int {
        switch section {
        case .meta: meta.count
        case .slotFileID: slotFileID.count
        case .groupIDBytes: groupIDs.bytes.count
        case .groupIDEnds: groupIDs.ends.count
        case .keyBytes: keys.bytes.count
        case .keyEnds: keys.ends.count
        case .groups: segment.groups.count
        case .longSides: segment.longSides.count
        case .sizes: segment.sizes.count
        case .descriptorStarts: segment.descriptorStarts.count
        case .words: segment.words.count
        case .points: segment.points.count
        case .owners: segment.owners.count
        case .lshPositions: segment.lsh.positions.count
        case .lshStarts: segment.lsh.starts.count
        case .lshEntries: segment.lsh.entries.count
        case .lshDescriptors: segment.lshDescriptors?.count ?? 0
        case .prints: segment.prints.count
        case .printOwners: segment.printOwners.count
        case .slotOf: segment.slotOf.count
        case .printCentroids: segment.printCodes?.index.model.centroids.count ?? 0
        case .printCentre: segment.printCodes?.index.model.centre.count ?? 0
        case .printLevels: segment.printCodes?.levels.count ?? 0
        case .printListStarts: segment.printCodes?.index.listStarts.count ?? 0
        case .printEntries: segment.printCodes?.index.entryIDs.count ?? 0
        case .printCodes: segment.printCodes?.index.codes.count ?? 0
        case .printScales: segment.printCodes?.scales.count ?? 0
        }
    }

    /// Writes `section`'s elements.
    func write(_ section: MatcherIndexFile.Section, to sink: inout AtomicFileSink) throws(FileError) {
        switch section {
        case .meta: try sink.write(contentsOf: meta)
        case .slotFileID: try sink.write(contentsOf: slotFileID)
        case .groupIDBytes: try sink.write(contentsOf: groupIDs.bytes)
        case .groupIDEnds: try sink.write(contentsOf: groupIDs.ends)
        case .keyBytes: try sink.write(contentsOf: keys.bytes)
        case .keyEnds: try sink.write(contentsOf: keys.ends)
        case .groups: try sink.write(contentsOf: segment.groups)
        case .longSides: try sink.write(contentsOf: segment.longSides)
        case .sizes: try sink.write(contentsOf: segment.sizes)
        case .descriptorStarts: try sink.write(contentsOf: segment.descriptorStarts.map { UInt64($0) })
        case .words: try sink.write(contentsOf: segment.words)
        case .points: try sink.write(contentsOf: segment.points)
        case .owners: try sink.write(contentsOf: segment.owners)
        case .lshPositions: try sink.write(contentsOf: segment.lsh.positions)
        case .lshStarts: try sink.write(contentsOf: segment.lsh.starts)
        case .lshEntries: try sink.write(contentsOf: segment.lsh.entries)
        case .lshDescriptors: try sink.write(contentsOf: segment.lshDescriptors ?? [])
        case .prints: try sink.write(contentsOf: segment.prints)
        case .printOwners: try sink.write(contentsOf: segment.printOwners)
        case .slotOf: try sink.write(contentsOf: segment.slotOf)
        case .printCentroids: try sink.write(contentsOf: segment.printCodes?.index.model.centroids ?? [])
        case .printCentre: try sink.write(contentsOf: segment.printCodes?.index.model.centre ?? [])
        case .printLevels: try sink.write(contentsOf: segment.printCodes?.levels ?? [])
        case .printListStarts: try sink.write(contentsOf: (segment.printCodes?.index.listStarts ?? []).map { UInt64($0) })
        case .printEntries: try sink.write(contentsOf: segment.printCodes?.index.entryIDs ?? [])
        case .printCodes: try sink.write(contentsOf: segment.printCodes?.index.codes ?? [])
        case .printScales: try sink.write(contentsOf: segment.printCodes?.scales ?? [])
        }
    }

    /// The header, tag, section table, sections and trailer.
    func write(to sink: inout AtomicFileSink, tag: [UInt8]) throws(FileError) {
        let sections = MatcherIndexFile.Section.allCases
        let tableEnd = MatcherIndexFile.headerSize + tag.count + sections.count * MatcherIndexFile.sectionEntrySize
        var offsets: [Int] = []
        var end = Self.aligned(tableEnd)
        for section in sections {
            offsets.append(end)
            end = Self.aligned(end + count(of: section) * section.elementSize)
        }
        let fileLength = end + MatcherIndexFile.trailerSize
        var header = ByteWriter(capacity: MatcherIndexFile.headerSize)
        header.append(contentsOf: MatcherIndexFile.magic)
        header.append(UInt16(MatcherIndexFile.formatVersion))
        header.append(MatcherIndexFile.byteOrderMark)
        header.append(UInt32(sections.count))
        header.append(UInt32(tag.count))
        header.append(UInt32(0))
        header.append(UInt64(fileLength))
        header.append(CRC32.checksum(header.bytes))
        header.append(contentsOf: [UInt8](repeating: 0, count: MatcherIndexFile.headerSize - header.bytes.count))
        var table = ByteWriter(capacity: sections.count * MatcherIndexFile.sectionEntrySize)
        for (section, offset) in zip(sections, offsets) {
            table.append(section.rawValue)
            table.append(UInt32(section.elementSize))
            table.append(UInt64(count(of: section)))
            table.append(UInt64(offset))
        }
        try sink.write(contentsOf: header.bytes)
        try sink.write(contentsOf: tag)
        try sink.write(contentsOf: table.bytes)
        for (section, offset) in zip(sections, offsets) {
            try sink.write(contentsOf: [UInt8](repeating: 0, count: offset - sink.count))
            try write(section, to: &sink)
        }
        try sink.write(contentsOf: [UInt8](repeating: 0, count: end - sink.count))
        var trailer = ByteWriter(capacity: MatcherIndexFile.trailerSize)
        trailer.append(sink.checksum.value)
        trailer.append(contentsOf: MatcherIndexFile.endMarker)
        try sink.write(contentsOf: trailer.bytes)
    }

    /// `offset` rounded up to a multiple of 8.
    static func aligned(_ offset: Int) -> Int { (offset + 7) & ~7 }
}
