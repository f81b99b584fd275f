import Foundation
import GlimpseFiles
import GlimpseImage
import GlimpseTestSupport
import Testing
@testable import GlimpseVision

/// `MatcherIndexFile`: a built matcher saved and loaded answers as the one built; a truncated, damaged,
/// forged or stale file, or a keypoint file that is not the index's, is refused and never used.
@Suite(.serialized) struct MatcherIndexFileTests {
    static let configuration = IndexedKeypointsTests.configuration
    static let tag = MatcherIndexFile.tag(configuration: configuration, printer: nil, source: "photos 0-5")
    static let references = (0..<5).map { MatcherUpdateTests.reference($0) }
        + [MatcherUpdateTests.reference(5, as: MatcherUpdateTests.photos[0].id)]

    /// Whether `a` answers every test photo as `b` does: the same candidates and the same located places.
    static func answersAlike(_ a: VisualMatcher, _ b: VisualMatcher) -> Bool {
        MatcherUpdateTests.photos.allSatisfy { photo in
            let (x, y) = (a.match(photo.query), b.match(photo.query))
            return x.candidates == y.candidates && x.places.map(\.geometry) == y.places.map(\.geometry)
        }
    }

    @Test func aSavedMatcherLoadsAndAnswersAsTheOneBuilt() throws {
        try #require(MatcherUpdateTests.photos.count >= 6)
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        let built = VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration)
        try built.saveIndex(to: path, tag: Self.tag)
        let loaded = try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
        #expect(loaded.referenceIDs == built.referenceIDs && loaded.groupCount == built.groupCount)
        let (a, b) = (try #require(loaded.segments.first), try #require(built.segments.first))
        #expect(a.keys == b.keys && a.groups == b.groups && a.words == b.words && a.points == b.points)
        #expect(a.lshWords == b.lshWords && a.lshDescriptors == b.lshDescriptors && a.lshDescriptors != nil)
        #expect(a.lsh.positions == b.lsh.positions && a.lsh.starts == b.lsh.starts && a.lsh.entries == b.lsh.entries)
        #expect(loaded.memoryBytes == built.memoryBytes)
        #expect(Self.answersAlike(loaded, built))
        #expect(loaded.match(MatcherUpdateTests.photos[5].query).accepted?.referenceID == MatcherUpdateTests.photos[0].id)
        // A loaded matcher takes edits like a built one.
        let edited = loaded.updated(adding: [MatcherUpdateTests.reference(6)], removingKeys: [Self.references[1].key])
        #expect(edited.match(MatcherUpdateTests.photos[6].query).accepted?.referenceID == MatcherUpdateTests.photos[6].id)
        #expect(edited.match(MatcherUpdateTests.photos[1].query).accepted == nil)
    }

    /// Copies of crowded buckets are derived, never stored: a matcher configured for them has them whether
    /// built or loaded, and answers as one without them.
    @Test func crowdedBucketCopiesAreMadeAtBuildAndAtLoadAndChangeNoAnswer() throws {
        var copying = Self.configuration, uncopied = Self.configuration
        copying.lshContiguousBucketLine = 1
        uncopied.lshContiguousBucketLine = 0
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        let plain = VisualMatcher(keyedReferences: Self.references, configuration: uncopied)
        let built = VisualMatcher(keyedReferences: Self.references, configuration: copying)
        try built.saveIndex(to: path, tag: Self.tag)
        let loaded = try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: copying)
        for matcher in [built, loaded] {
            let lsh = try #require(matcher.segments.first?.lsh)
            #expect(lsh.crowded.map { !$0.words.isEmpty } == true)
            #expect(Self.answersAlike(matcher, plain))
        }
        #expect(plain.segments.first?.lsh.crowded == nil)
        #expect(loaded.memoryBytes == built.memoryBytes && built.memoryBytes > plain.memoryBytes)
    }

    @Test func anEditedMatcherIsSavedCompacted() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        let edited = VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration)
            .updated(adding: [MatcherUpdateTests.reference(6)], removingKeys: [Self.references[2].key])
        try edited.saveIndex(to: path, tag: Self.tag)
        let loaded = try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
        #expect(loaded.segmentCount == 1 && !loaded.hasChanges && loaded.referenceCount == 6)
        #expect(Self.answersAlike(loaded, edited.compacted()))
    }

    @Test func aMatcherVerifyingFromSlotsLoadsBoundToItsKeypointFile() throws {
        let folder = try TemporaryDirectory()
        let (path, slotsPath) = (folder.file("matcher.index"), folder.file("k.slots"))
        let slots = try KeypointSlots.create(
            path: slotsPath, maxKeypoints: Self.configuration.maxKeypoints, indexedKeypoints: 128,
            tag: KeypointSlots.tag(configuration: Self.configuration))
        let built = VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration, keypointSlots: slots)
        try built.saveIndex(to: path, tag: Self.tag)
        let loaded = try VisualMatcher.loadIndex(
            from: path, tag: Self.tag, configuration: Self.configuration, keypointSlots: slotsPath)
        #expect(loaded.segments.first?.slotOf == [0, 1, 2, 3, 4, 5])
        #expect(loaded.memoryBytes == built.memoryBytes)
        #expect(Self.answersAlike(loaded, built))
        // Without its keypoint file, or with another one made alike, the index is refused.
        #expect(throws: MatcherIndexError.self) {
            try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
        }
        let other = try KeypointSlots.create(
            path: folder.file("other.slots"), maxKeypoints: Self.configuration.maxKeypoints, indexedKeypoints: 128,
            tag: KeypointSlots.tag(configuration: Self.configuration))
        for reference in Self.references { _ = try other.append(reference.features, key: reference.key) }
        try other.commit()
        let refusal = Self.refusal { () throws(MatcherIndexError) in
            try VisualMatcher.loadIndex(
                from: path, tag: Self.tag, configuration: Self.configuration, keypointSlots: folder.file("other.slots"))
        }
        #expect(refusal.map { if case .keypointSlots = $0 { true } else { false } } == true, "\(String(describing: refusal))")
        #expect(refusal?.isRebuildable == true)
    }

    @Test func theCalibrationIsKeptForTheSameNullPrintsAndMeasuredAgainForOthers() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        let printer = StubPrinter(prints: [:])
        let built = PrintDecisionTests.matcher([:])
        let tag = MatcherIndexFile.tag(configuration: .default, printer: printer, source: "places")
        try built.saveIndex(to: path, tag: tag)
        let same = try VisualMatcher.loadIndex(
            from: path, tag: tag, configuration: .default, printer: printer, nullPrints: PrintDecisionTests.nulls)
        // The saved line is in force at once; the rest of the calibration is measured again behind it.
        #expect(same.printCalibration?.threshold == built.printCalibration?.threshold && same.printCalibration != nil)
        #expect(await same.calibrated() == built.printCalibration)
        #expect(same.segments.first?.prints == built.segments.first?.prints)
        // Other nulls: the line is measured from them, as for a matcher built with them.
        let fewer = NullPrints(identity: "stub-printer-16", source: "fewer", dimension: 16,
                               values: Array(PrintDecisionTests.nulls.values.prefix(16 * 120)))
        let other = try VisualMatcher.loadIndex(from: path, tag: tag, configuration: .default, printer: printer, nullPrints: fewer)
        let fresh = VisualMatcher(keyedReferences: PrintDecisionTests.places, printer: printer, nullPrints: fewer)
        #expect(other.printCalibration == fresh.printCalibration && other.printCalibration?.nullCount == 120)
        // A printer of another network is another tag.
        #expect(throws: MatcherIndexError.self) {
            try VisualMatcher.loadIndex(
                from: path, tag: MatcherIndexFile.tag(configuration: .default, printer: nil, source: "places"),
                configuration: .default)
        }
    }

    /// The file `whole` (saved under `tag`) with the 32-bit value at `section`'s element `element` set to
    /// `value`, its checksum made good: a forgery only the range checks can catch.
    static func forged(
        _ whole: [UInt8], tag: String, _ section: MatcherIndexFile.Section, element: Int, value: UInt32
    ) -> [UInt8] {
        let entry = 64 + tag.utf8.count + (Int(section.rawValue) - 1) * 24
        let offset = (0..<8).reduce(0) { $0 | Int(whole[entry + 16 + $1]) << (8 * $1) }
        let at = offset + element * section.elementSize
        var bytes = whole
        for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
        let checksum = CRC32.checksum(bytes[0..<(bytes.count - 8)])
        for k in 0..<4 { bytes[bytes.count - 8 + k] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(k))) }
        return bytes
    }

    /// The error `body` throws, `nil` when it throws none.
    static func refusal(_ body: () throws(MatcherIndexError) -> VisualMatcher) -> MatcherIndexError? {
        do throws(MatcherIndexError) {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aFolderThatDoesNotExistYetIsMadeForTheIndex() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("not/yet/matcher.index")
        let matcher = VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration)
        try matcher.saveIndex(to: path, tag: Self.tag)
        let loaded = try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
        #expect(loaded.referenceCount == matcher.referenceCount)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.file("not/yet"))[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func aMissingTruncatedLengthenedOrStaleFileIsRefusedAsRebuildable() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        let load = { () throws(MatcherIndexError) -> VisualMatcher in
            try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
        }
        let missing = Self.refusal(load)
        #expect(missing.map { if case .io = $0 { true } else { false } } == true && missing?.isRebuildable == true)
        try VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration).saveIndex(to: path, tag: Self.tag)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [0, 5, 63, 64, 100, whole.count / 2, whole.count - 9, whole.count - 1] {
            try whole.prefix(cut).write(to: URL(fileURLWithPath: path))
            let error = Self.refusal(load)
            #expect(error?.isRebuildable == true, "cut at \(cut): \(String(describing: error))")
            if cut >= 64 { #expect(error == .wrongSize(path: path, size: cut, declared: whole.count)) }
        }
        try (whole + [0]).write(to: URL(fileURLWithPath: path))
        #expect(Self.refusal(load) == .wrongSize(path: path, size: whole.count + 1, declared: whole.count))
        // Built with other extraction settings, or from other photos: another tag.
        try whole.write(to: URL(fileURLWithPath: path))
        var otherExtraction = Self.configuration
        otherExtraction.maxKeypoints = 300
        for tag in [MatcherIndexFile.tag(configuration: otherExtraction, printer: nil, source: "photos 0-5"),
                    MatcherIndexFile.tag(configuration: Self.configuration, printer: nil, source: "photos 0-6")] {
            let error = Self.refusal { () throws(MatcherIndexError) in
                try VisualMatcher.loadIndex(from: path, tag: tag, configuration: otherExtraction)
            }
            #expect(error == .builtForOther(path: path, expected: tag, found: Self.tag))
            #expect(error?.description.contains("build the index again") == true)
        }
        #expect(throws: Never.self) { try load() }
    }

    @Test func aFlippedBitAnywhereIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        try VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration).saveIndex(to: path, tag: Self.tag)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        // The header, the tag, the section table, and points spread over the sections and the trailer.
        let offsets = [0, 8, 10, 12, 16, 24, 32, 40, 70, 64 + Self.tag.utf8.count + 5]
            + stride(from: 700, to: whole.count, by: max(1, whole.count / 23)).map { $0 } + [whole.count - 6, whole.count - 2]
        for offset in offsets {
            var damaged = whole
            damaged[offset] ^= 0x04
            try damaged.write(to: URL(fileURLWithPath: path))
            let error = Self.refusal { () throws(MatcherIndexError) in
                try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
            }
            #expect(error?.isRebuildable == true, "bit flipped at \(offset) of \(whole.count): \(String(describing: error))")
        }
    }

    @Test func aForgedFileWithValidChecksumsIsStillRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        try VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration).saveIndex(to: path, tag: Self.tag)
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let cases: [(MatcherIndexFile.Section, Int, UInt32)] = [
            (.lshEntries, 3, 0xFFFF_FFF0), (.lshStarts, 1, 0xFFFF_FFF0), (.lshPositions, 0, 300),
            (.descriptorStarts, 2, 0x7FFF_FFFF), (.owners, 7, 4), (.groups, 1, 99), (.lshDescriptors, 0, 0xFFFF_FFFF),
            (.keyEnds, 0, 0xFFFF), (.meta, 2, 0),
        ]
        for (section, element, value) in cases {
            try Data(Self.forged(whole, tag: Self.tag, section, element: element, value: value)).write(to: URL(fileURLWithPath: path))
            let error = Self.refusal { () throws(MatcherIndexError) in
                try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
            }
            #expect(error.map { if case .malformed = $0 { true } else { false } } == true,
                    "\(section)[\(element)] = \(value): \(String(describing: error))")
        }
    }

    @Test func aNonFiniteFloatIsRefusedThoughItsChecksumsAreGood() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("matcher.index")
        let built = VisualMatcher(keyedReferences: Self.references, configuration: Self.configuration)
        try built.saveIndex(to: path, tag: Self.tag)
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for (element, value) in [(5, Float.nan), (0, Float.infinity), (11, -Float.infinity), (2, Float.signalingNaN)] {
            try Data(Self.forged(whole, tag: Self.tag, .points, element: element, value: value.bitPattern))
                .write(to: URL(fileURLWithPath: path))
            let error = Self.refusal { () throws(MatcherIndexError) in
                try VisualMatcher.loadIndex(from: path, tag: Self.tag, configuration: Self.configuration)
            }
            #expect(error == .malformed(path: path, reason: "a keypoint position is not a finite number (NaN or infinite)"),
                    "points[\(element)] = \(value): \(String(describing: error))")
            #expect(error?.isRebuildable == true)
        }
    }
}
