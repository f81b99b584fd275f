import Foundation
@testable import GlimpseFiles
import GlimpseImage
import GlimpseTestSupport
import Synchronization
import Testing
@testable import GlimpseVision

/// `KeypointSlots`: the references' full keypoint sets on disk, checked at every read, and a matcher that
/// verifies from them answering exactly as one holding everything in memory.
@Suite(.serialized) struct KeypointSlotsTests {
    static let tag = "keypoints;" + VisionConfiguration.default.extractionFingerprint

    @Test func aSetComesBackAsItWasWrittenAndOnlyForItsOwnKey() throws {
        let folder = try TemporaryDirectory()
        let features = CompactFeaturesTests.synthetic(perLevel: [30, 12])
        let slots = try KeypointSlots.create(path: folder.file("k.slots"), maxKeypoints: 64, tag: Self.tag)
        let first = try #require(try slots.append(features, key: "place#0"))
        let second = try #require(try slots.append(CompactFeaturesTests.synthetic(perLevel: [5]), key: "place#1"))
        #expect(first == 0 && second == 1)
        try slots.commit()
        let read = try slots.read(slot: first, key: "place#0")
        #expect(read.words == features.descriptorWords)
        #expect(read.points == features.keypoints.flatMap { [$0.x, $0.y] })
        // Another reference's key, or a slot never written, is refused.
        #expect(throws: SlotFileError.self) { try slots.read(slot: first, key: "place#1") }
        #expect(throws: SlotFileError.self) { try slots.read(slot: 7, key: "place#0") }
        // A set larger than a slot is left to the caller.
        #expect(try slots.append(CompactFeaturesTests.synthetic(perLevel: [65]), key: "big") == nil)
        #expect(KeypointSlots.slotSize(maxKeypoints: 64) == SlotFile.slotHeaderSize + 8 + 64 * 40)
    }

    @Test func aSlotHoldsWhatMemoryDoesNotAndTheWholeSetComesBackInOrder() throws {
        let folder = try TemporaryDirectory()
        let features = CompactFeaturesTests.synthetic(perLevel: [30, 12])
        let slots = try KeypointSlots.create(path: folder.file("k.slots"), maxKeypoints: 64, indexedKeypoints: 16, tag: Self.tag)
        // 16 of 64 held in memory: the slot is smaller by their descriptors and positions, less their places.
        #expect(slots.file.slotSize == SlotFile.slotHeaderSize + 8 + 2 * 16 + 48 * 40)
        let indexed = [0, 3, 4, 9, 10, 11, 20, 21, 22, 23, 30, 31, 35, 38, 40, 41]
        let slot = try #require(try slots.append(features, indexed: indexed, key: "place#0"))
        try slots.commit()
        let held = features.keeping(indexed)
        let memory = (held.descriptorWords[...], held.keypoints.flatMap { [$0.x, $0.y] }[...])
        let read = try slots.read(slot: slot, key: "place#0", indexed: memory)
        #expect(read.words == features.descriptorWords)
        #expect(read.points == features.keypoints.flatMap { [$0.x, $0.y] })
        // The wrong number of indexed keypoints is refused, not read past.
        #expect(throws: SlotFileError.self) { try slots.read(slot: slot, key: "place#0") }
        // A set that leaves more out of memory than a slot holds, or names places out of order, is not written.
        #expect(try slots.append(CompactFeaturesTests.synthetic(perLevel: [60]), indexed: [1, 2], key: "big") == nil)
        #expect(try slots.append(features, indexed: [3, 2], key: "disordered") == nil)
    }

    @Test func aDamagedSlotIsRefusedNotRead() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("k.slots")
        let slots = try KeypointSlots.create(path: path, maxKeypoints: 64, tag: Self.tag)
        let slot = try #require(try slots.append(CompactFeaturesTests.synthetic(perLevel: [20]), key: "a"))
        try slots.commit()
        // One descriptor byte of the slot flipped on disk.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let offset = UInt64(4096 + slot * KeypointSlots.slotSize(maxKeypoints: 64) + SlotFile.slotHeaderSize + 9)
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0x10])
        try handle.close()
        #expect(throws: SlotFileError.self) { try slots.read(slot: slot, key: "a") }
    }

    @Test func aMatcherVerifyingFromSlotsAnswersAsOneHoldingEverything() throws {
        let photos = MatcherUpdateTests.photos
        try #require(photos.count >= 6)
        let folder = try TemporaryDirectory()
        let configuration = IndexedKeypointsTests.configuration
        let references = (0..<4).map { MatcherUpdateTests.reference($0) }
        let slots = try KeypointSlots.create(
            path: folder.file("k.slots"), maxKeypoints: configuration.maxKeypoints,
            indexedKeypoints: configuration.indexedKeypointLimit ?? 0, tag: Self.tag)
        let inMemory = VisualMatcher(keyedReferences: references, configuration: configuration)
        let slotted = VisualMatcher(keyedReferences: references, configuration: configuration, keypointSlots: slots)
        // Memory keeps only the indexed keypoints, and the index over them is the same.
        let segment = try #require(slotted.segments.first)
        #expect(segment.slotOf == [0, 1, 2, 3] && segment.lshDescriptors == nil)
        #expect(segment.words == inMemory.segments.first?.lshWords)
        #expect(segment.memoryBytes < (inMemory.segments.first?.memoryBytes ?? 0) / 2)
        for (n, photo) in photos.prefix(4).enumerated() {
            let features = FeatureExtractor.extract(from: photo.query)
            #expect(slotted.shortlist(features).map { [$0.reference, $0.votes] }
                    == inMemory.shortlist(features).map { [$0.reference, $0.votes] })
            #expect(slotted.verify(features, reference: n) == inMemory.verify(features, reference: n))
            let (a, b) = (slotted.match(photo.query), inMemory.match(photo.query))
            #expect(a.accepted?.referenceID == photo.id, "photo \(n): \(a.candidates)")
            #expect(a.candidates == b.candidates)
            // Where the place lies comes from the same reference keypoints.
            #expect(a.places.map(\.geometry) == b.places.map(\.geometry))
            #expect(a.places.first?.geometry.correspondences.isEmpty == false)
        }
        // Additions are held in memory beside the slotted references; compaction keeps both kinds.
        let grown = slotted.updated(adding: [MatcherUpdateTests.reference(4), MatcherUpdateTests.reference(5)], removingKeys: [])
        #expect(grown.match(photos[5].query).accepted?.referenceID == photos[5].id)
        let folded = grown.updated(adding: [], removingKeys: [MatcherUpdateTests.reference(1).key]).compacted()
        #expect(folded.segments.first?.slotOf == [0, 2, 3, -1, -1])
        for n in [0, 2, 4, 5] {
            #expect(folded.match(photos[n].query).accepted?.referenceID == photos[n].id)
        }
        #expect(folded.match(photos[1].query).accepted == nil)
    }

    /// A matcher over the first four test photos verifying from slots at `path` (made by `file` when given).
    static func slottedMatcher(path: String, file: SlotFile? = nil) throws -> (VisualMatcher, KeypointSlots) {
        let configuration = IndexedKeypointsTests.configuration
        let slots = try file.map {
            KeypointSlots(file: $0, maxKeypoints: configuration.maxKeypoints, indexedKeypoints: configuration.indexedKeypointLimit ?? 0)
        } ?? KeypointSlots.create(
            path: path, maxKeypoints: configuration.maxKeypoints, indexedKeypoints: configuration.indexedKeypointLimit ?? 0,
            tag: Self.tag)
        let references = (0..<4).map { MatcherUpdateTests.reference($0) }
        return (VisualMatcher(keyedReferences: references, configuration: configuration, keypointSlots: slots), slots)
    }

    @Test func aFullDiskKeepsTheReferencesItCannotWriteWholeInMemory() throws {
        let photos = MatcherUpdateTests.photos
        try #require(photos.count >= 4)
        let folder = try TemporaryDirectory()
        let path = folder.file("k.slots")
        let configuration = IndexedKeypointsTests.configuration
        let slotSize = KeypointSlots.slotSize(
            maxKeypoints: configuration.maxKeypoints, indexedKeypoints: configuration.indexedKeypointLimit ?? 0)
        // A disk with room for two slots: the third reference's write fails to make room.
        let file = try SlotFile.create(path: path, slotSize: slotSize, tag: Self.tag, growthSlots: 1) { fd, size in
            size > 4096 + 2 * slotSize ? ENOSPC : SlotFileCalls.allocate(fd, size: size)
        }
        let (matcher, slots) = try Self.slottedMatcher(path: path, file: file)
        #expect(matcher.segments.first?.slotOf == [0, 1, -1, -1])
        #expect(file.committedCount == 2 && slots.damage.isEmpty)
        #expect(slots.refusedWrites?.count == 2 && slots.refusedWrites?.reason.contains("making room in the file failed") == true)
        // Every reference verifies with its whole set: from its slot, or from memory.
        for n in 0..<4 {
            let answer = matcher.match(photos[n].query)
            #expect(answer.accepted?.referenceID == photos[n].id, "photo \(n): \(answer.candidates)")
            #expect(answer.places.first?.geometry.correspondences.isEmpty == false)
        }
    }

    /// Flips one bit of slot `slot`'s payload in the file at `path`.
    static func flipBit(_ path: String, slot: Int, slotSize: Int) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let offset = UInt64(4096 + slot * slotSize + SlotFile.slotHeaderSize + 9)
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0x10])
        try handle.close()
    }

    @Test func aDamagedOrTruncatedSlotIsRecordedOnceAndFoundByTheScrub() throws {
        let photos = MatcherUpdateTests.photos
        try #require(photos.count >= 4)
        let folder = try TemporaryDirectory()
        let path = folder.file("k.slots")
        let (matcher, slots) = try Self.slottedMatcher(path: path)
        let told = Mutex<[KeypointSlotDamage]>([])
        slots.onDamage { damage in told.withLock { $0.append(damage) } }
        #expect(matcher.scrubKeypointSlots().isEmpty && matcher.slottedReferenceCount == 4)
        let before = try #require(matcher.match(photos[1].query).accepted?.inliers)

        try Self.flipBit(path, slot: 1, slotSize: slots.file.slotSize)
        // The query that reads the slot records it, and is answered without that reference's geometry.
        #expect(matcher.segments.first?.verificationKeypoints(of: 1) == nil)
        _ = matcher.match(photos[1].query)
        let key = MatcherUpdateTests.reference(1).key
        #expect(told.withLock { $0 }.map { [$0.slot == 1, $0.key == key, $0.path == path] } == [[true, true, true]])
        #expect(told.withLock { $0 }.first?.reason.contains("damaged slot 1") == true)
        // Found again by the check of every slot, and told once: one record per slot.
        #expect(matcher.scrubKeypointSlots().map(\.slot) == [1])
        #expect(slots.damage.count == 1 && told.withLock { $0.count } == 1)
        // Repaired as an engine does: the reference re-added whole, from memory, verifies as before.
        let repaired = matcher.updated(adding: [MatcherUpdateTests.reference(1)], removingKeys: [])
        #expect(repaired.match(photos[1].query).accepted?.inliers == before)
        #expect(repaired.scrubKeypointSlots().isEmpty && repaired.slottedReferenceCount == 3)

        // A file truncated under the matcher: the references past the end are damage, queries are answered.
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(4096 + slots.file.slotSize))
        for n in 0..<4 { _ = repaired.match(photos[n].query) }
        #expect(Set(slots.damage.map(\.slot)) == [1, 2, 3])
        #expect(slots.damage.last?.reason.contains("truncated") == true)
        #expect(repaired.match(photos[0].query).accepted?.referenceID == photos[0].id)
    }
}
