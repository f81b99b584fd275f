import Foundation
@testable import GlimpseFiles
import GlimpseTestSupport
import Testing

@Suite("SlotFile")
struct SlotFileTests {
    static let slotSize = 64
    static let tag = "compact-v1;test"

    /// A payload of `count` bytes that differs for every `seed`.
    static func payload(_ seed: Int, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: seed &* 31 &+ $0 &* 7 &+ 1) }
    }

    /// A file with three committed slots: lengths 1, 48 (the limit) and 20, owners 101, 102, 103.
    static func threeSlots(in directory: TemporaryDirectory, growthSlots: Int = 4) throws -> String {
        let path = directory.file("refs.keypoints")
        let file = try SlotFile.create(path: path, slotSize: slotSize, tag: tag, growthSlots: growthSlots)
        for (slot, count) in [1, 48, 20].enumerated() {
            try file.write(slot: slot, owner: UInt64(101 + slot), payload: payload(slot, count: count))
        }
        try file.commit(count: 3, storeSequence: 17, modelID: 99)
        return path
    }

    static func flipBit(_ path: String, at offset: Int) throws {
        var bytes = try AtomicFile.readAll(path)
        bytes[offset] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func slotsAndHeaderSurviveAReopen() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        let file = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        #expect(file.committedCount == 3 && file.storeSequence == 17 && file.modelID == 99)
        #expect(file.capacity == 4 && file.payloadLimit == 48 && file.fileID.count == 16)
        var payload: [UInt8] = []
        for (slot, count) in [1, 48, 20].enumerated() {
            try file.read(slot: slot, owner: UInt64(101 + slot), into: &payload)
            #expect(payload == Self.payload(slot, count: count))
            #expect(try file.owner(ofSlot: slot) == UInt64(101 + slot))
        }
        #expect(try file.owner(ofSlot: 3) == 0)
        #expect(try file.withPayload(slot: 2, owner: 103) { $0.count } == 20)
        #expect(throws: SlotFileError.readOnly(path: path)) { try file.write(slot: 0, owner: 1, payload: [1]) }
        #expect(throws: SlotFileError.readOnly(path: path)) { try file.commit(count: 0, storeSequence: 0, modelID: 0) }
        let writer = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .write)
        #expect(writer.fileID == file.fileID)
    }

    @Test func aWriteBeyondTheEndGrowsTheFileAndEarlierReadsStillWork() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("grow.prints")
        let file = try SlotFile.create(path: path, slotSize: Self.slotSize, tag: Self.tag, growthSlots: 2)
        #expect(file.capacity == 0)
        try file.write(slot: 0, owner: 7, payload: Self.payload(0, count: 30))
        #expect(file.capacity == 2)
        let reader = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        try file.write(slot: 9, owner: 8, payload: Self.payload(9, count: 40))
        #expect(file.capacity == 10)
        #expect(AtomicFile.size(of: path) == 4096 + 10 * Self.slotSize)
        var payload: [UInt8] = []
        try file.read(slot: 0, owner: 7, into: &payload)
        #expect(payload == Self.payload(0, count: 30))
        try file.read(slot: 9, owner: 8, into: &payload)
        #expect(payload == Self.payload(9, count: 40))
        // A reader opened before the growth keeps its size, and sees the writer's pwrite in its slots.
        #expect(reader.capacity == 2)
        try file.write(slot: 1, owner: 5, payload: [42])
        try reader.read(slot: 1, owner: 5, into: &payload)
        #expect(payload == [42])
        #expect(throws: SlotFileError.slotOutOfRange(path: path, slot: 9, count: 2)) {
            try reader.read(slot: 9, owner: 8, into: &payload)
        }
    }

    @Test func aFileTruncatedUnderAnOpenReaderIsDamageNeverASignal() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        let reader = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        // Another program shortens the file in the middle of slot 1 (a read through a mapping would stop the
        // process with SIGBUS here).
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(4096 + Self.slotSize + 10))
        var payload: [UInt8] = []
        try reader.read(slot: 0, owner: 101, into: &payload)
        #expect(payload == Self.payload(0, count: 1))
        for slot in [1, 2] {
            let error = #expect(throws: SlotFileError.self) { try reader.read(slot: slot, owner: UInt64(101 + slot), into: &payload) }
            #expect(error.map { if case .truncated = $0 { $0.isDamage } else { false } } == true, "\(String(describing: error))")
        }
        #expect(throws: SlotFileError.truncated(path: path, size: 4096 + Self.slotSize + 10, expected: 4096 + 3 * Self.slotSize)) {
            try reader.owner(ofSlot: 2)
        }
        // Emptied (another process opened it with O_TRUNC): every slot is damage, and the header is not read again.
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: 0)
        #expect(throws: SlotFileError.truncated(path: path, size: 0, expected: 4096 + Self.slotSize)) {
            try reader.read(slot: 0, owner: 101, into: &payload)
        }
        #expect(reader.committedCount == 3)
    }

    @Test func aWriteTheDiskRefusesIsNotCountedAndACommitOfItIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("full.keypoints")
        // A disk with room for two slots past the header.
        let room = 4096 + 2 * Self.slotSize
        let file = try SlotFile.create(path: path, slotSize: Self.slotSize, tag: Self.tag, growthSlots: 1) { fd, size in
            size > room ? ENOSPC : SlotFileCalls.allocate(fd, size: size)
        }
        try file.write(slot: 0, owner: 7, payload: Self.payload(0, count: 30))
        try file.write(slot: 1, owner: 8, payload: Self.payload(1, count: 30))
        let full = #expect(throws: SlotFileError.self) { try file.write(slot: 2, owner: 9, payload: Self.payload(2, count: 30)) }
        #expect(full == .io(FileError(path: path, operation: .allocate, code: ENOSPC)))
        #expect(file.capacity == 2 && AtomicFile.size(of: path) == room)
        // Counting the failed slot is refused with an error, never a trap; the slots written commit.
        #expect(throws: SlotFileError.slotOutOfRange(path: path, slot: 2, count: 2)) {
            try file.commit(count: 3, storeSequence: 0, modelID: 0)
        }
        try file.commit(count: 2, storeSequence: 0, modelID: 0)
        let reader = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        var payload: [UInt8] = []
        try reader.read(slot: 1, owner: 8, into: &payload)
        #expect(reader.committedCount == 2 && payload == Self.payload(1, count: 30))
    }

    @Test func aTruncatedOrForeignFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: UInt64(4096 + 2 * Self.slotSize))
        let short = #expect(throws: SlotFileError.self) {
            try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
        #expect(short == .truncated(path: path, size: 4096 + 2 * Self.slotSize, expected: 4096 + 3 * Self.slotSize))
        #expect(short?.isDamage == true)
        try FileHandle(forWritingTo: URL(fileURLWithPath: path)).truncate(atOffset: 100)
        #expect(throws: SlotFileError.truncated(path: path, size: 100, expected: 4096)) {
            try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
        let other = try directory.write("other.bin", Array("not a slot file at all".utf8))
        #expect(throws: SlotFileError.notASlotFile(path: other)) {
            try SlotFile.open(path: other, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
        let empty = try directory.write("empty.bin", [])
        #expect(throws: SlotFileError.notASlotFile(path: empty)) {
            try SlotFile.open(path: empty, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
        #expect(throws: SlotFileError.notASlotFile(path: directory.path)) {
            try SlotFile.open(path: directory.path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
    }

    @Test func aFlippedBitInTheHeaderIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        try Self.flipBit(path, at: 70)
        #expect(throws: SlotFileError.headerChecksum(path: path)) {
            try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
        try Self.flipBit(path, at: 70)
        try Self.flipBit(path, at: 2)
        #expect(throws: SlotFileError.notASlotFile(path: path)) {
            try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
        // A later version, with a checksum that matches, is refused as a version.
        try Self.flipBit(path, at: 2)
        var bytes = try AtomicFile.readAll(path)
        bytes[8] = 2
        let crc = CRC32.checksum(bytes[..<4092])
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(4092..<4096, with: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: SlotFileError.unsupportedVersion(path: path, found: 2)) {
            try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        }
    }

    @Test func aHeaderClaimingMoreSlotsThanAnyFileHoldsIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        for committed in [UInt64(Int.max) / 64, UInt64(Int.max) / 64 - 100, UInt64(Int.max)] {
            var bytes = try AtomicFile.readAll(path)
            withUnsafeBytes(of: committed.littleEndian) { bytes.replaceSubrange(24..<32, with: $0) }
            let crc = CRC32.checksum(bytes[..<4092])
            withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(4092..<4096, with: $0) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: SlotFileError.self) {
                try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
            }
            guard case .truncated(_, let size, _) = error else {
                Issue.record("expected a truncated file, got \(String(describing: error))")
                continue
            }
            #expect(size == 4096 + 4 * Self.slotSize)
        }
        let file = try SlotFile.create(path: directory.file("huge"), slotSize: Self.slotSize, tag: Self.tag)
        #expect(throws: SlotFileError.self) { try file.write(slot: Int.max / 64, owner: 1, payload: [1]) }
        #expect(throws: SlotFileError.self) { try file.write(slot: -1, owner: 1, payload: [1]) }
    }

    @Test func aFlippedBitInASlotIsRefusedAtItsReadAlone() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        try Self.flipBit(path, at: 4096 + Self.slotSize + 16 + 30)
        let file = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        var payload: [UInt8] = []
        let error = #expect(throws: SlotFileError.self) { try file.read(slot: 1, owner: 102, into: &payload) }
        #expect(error == .slotChecksum(path: path, slot: 1))
        #expect(error?.isDamage == true)
        #expect(error?.description.contains("delete it and it is rebuilt") == true)
        try file.read(slot: 0, owner: 101, into: &payload)
        try file.read(slot: 2, owner: 103, into: &payload)
        #expect(payload == Self.payload(2, count: 20))
        // A flipped length is caught as well (its checksum covers it).
        try Self.flipBit(path, at: 4096 + 2 * Self.slotSize + 4)
        let flipped = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        #expect(throws: SlotFileError.slotChecksum(path: path, slot: 2)) { try flipped.read(slot: 2, owner: 103, into: &payload) }
    }

    @Test func aFileMadeForOtherSettingsIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        #expect(throws: SlotFileError.identityMismatch(path: path, expected: "compact-v1;other", found: Self.tag)) {
            try SlotFile.open(path: path, slotSize: Self.slotSize, tag: "compact-v1;other", mode: .read)
        }
        #expect(throws: SlotFileError.slotSizeMismatch(path: path, expected: 128, found: Self.slotSize)) {
            try SlotFile.open(path: path, slotSize: 128, tag: Self.tag, mode: .read)
        }
        let long = String(repeating: "t", count: SlotFile.maxTagBytes + 1)
        #expect(throws: SlotFileError.tagTooLong(size: long.utf8.count, limit: SlotFile.maxTagBytes)) {
            try SlotFile.create(path: directory.file("long"), slotSize: Self.slotSize, tag: long)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("long")))
    }

    @Test func aSlotAnswersOnlyItsOwner() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        let file = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .write)
        var payload: [UInt8] = []
        #expect(throws: SlotFileError.ownerMismatch(path: path, slot: 0, expected: 102, found: 101)) {
            try file.read(slot: 0, owner: 102, into: &payload)
        }
        try file.free(slot: 0)
        #expect(try file.owner(ofSlot: 0) == 0)
        let freed = #expect(throws: SlotFileError.self) { try file.read(slot: 0, owner: 101, into: &payload) }
        #expect(freed == .ownerMismatch(path: path, slot: 0, expected: 101, found: 0))
        #expect(freed?.description.contains("is free") == true)
        #expect(throws: SlotFileError.slotOutOfRange(path: path, slot: 4, count: 4)) { try file.read(slot: 4, owner: 1, into: &payload) }
        #expect(throws: SlotFileError.slotOutOfRange(path: path, slot: -1, count: 4)) { try file.owner(ofSlot: -1) }
        #expect(throws: SlotFileError.slotOutOfRange(path: path, slot: 4, count: 4)) { try file.free(slot: 4) }
        // The slot is reused by another owner.
        try file.write(slot: 0, owner: 555, payload: [9, 9])
        try file.read(slot: 0, owner: 555, into: &payload)
        #expect(payload == [9, 9])
    }

    @Test func payloadsMustFitASlot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("fit")
        let file = try SlotFile.create(path: path, slotSize: Self.slotSize, tag: Self.tag)
        #expect(throws: SlotFileError.payloadSize(path: path, size: 0, limit: 48)) { try file.write(slot: 0, owner: 1, payload: []) }
        #expect(throws: SlotFileError.payloadSize(path: path, size: 49, limit: 48)) {
            try file.write(slot: 0, owner: 1, payload: [UInt8](repeating: 1, count: 49))
        }
        #expect(file.capacity == 0)
    }

    @Test func aSecondWriterIsRefusedAndAReaderIsNot() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        let writer = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .write)
        let second = #expect(throws: SlotFileError.self) {
            try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .write)
        }
        #expect(second == .busy(path: path))
        #expect(second?.isDamage == false)
        _ = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        withExtendedLifetime(writer) {}
    }

    @Test func creatingReplacesAFileAReaderStillHasMapped() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.threeSlots(in: directory)
        let old = try SlotFile.open(path: path, slotSize: Self.slotSize, tag: Self.tag, mode: .read)
        let fresh = try SlotFile.create(path: path, slotSize: Self.slotSize, tag: Self.tag)
        #expect(fresh.committedCount == 0 && fresh.capacity == 0 && fresh.storeSequence == -1 && fresh.modelID == 0)
        #expect(fresh.fileID != old.fileID)
        var payload: [UInt8] = []
        try old.read(slot: 1, owner: 102, into: &payload)
        #expect(payload == Self.payload(1, count: 48))
    }

    @Test func anInPlaceFailureSaysWhatToDo() {
        let full = FileError(path: "/x/refs.keypoints", operation: .allocate, code: ENOSPC)
        #expect(full.description == "cannot update /x/refs.keypoints: making room in the file failed: "
            + "\(String(cString: strerror(ENOSPC))); free disk space (or quota) and save again")
        #expect(full.operation.systemCall == "fallocate" && full.operation.isInPlace && !full.operation.isRead)
        let map = FileError(path: "/x/f", operation: .map, code: ENOMEM)
        #expect(map.description.contains("out of address space or memory"))
        #expect(SlotFileError.io(full).description == full.description)
    }
}

@Suite("MappedFile")
struct MappedFileTests {
    @Test func readsOnlyWithinTheMapping() throws {
        let directory = try TemporaryDirectory()
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let mapped = try MappedFile(path: directory.write("data", bytes))
        #expect(mapped.count == 10_000)
        var copy = [UInt8](repeating: 0, count: 100)
        #expect(copy.withUnsafeMutableBytes { mapped.copy(offset: 9_900, into: $0) })
        #expect(copy == Array(bytes[9_900...]))
        #expect(!copy.withUnsafeMutableBytes { mapped.copy(offset: 9_901, into: $0) })
        #expect(!copy.withUnsafeMutableBytes { mapped.copy(offset: -1, into: $0) })
        #expect(mapped.withBytes(offset: 5_000, count: 3) { Array($0) } == Array(bytes[5_000..<5_003]))
        #expect(mapped.withBytes(offset: 9_999, count: 2) { $0.count } == nil)
        #expect(mapped.withBytes(offset: 10_000, count: 0) { $0.count } == 0)
        #expect(mapped.withBytes(offset: Int.max, count: 1) { $0.count } == nil)
        #expect(!mapped.contains(offset: 1, count: Int.max))
        mapped.willNeed()
        mapped.dropResident()
        #expect(mapped.withBytes(offset: 0, count: 10_000) { Array($0) } == bytes)
    }

    @Test func randomReadsAreAskedOfTheSystemOnlyWhenSaid() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("random-reads", [UInt8](repeating: 7, count: 3 * 4096))
        let mapped = try MappedFile(path: path)
        let before = try vmFlags(ofMappingsOf: path)
        mapped.expectRandomReads()
        let after = try vmFlags(ofMappingsOf: path)
        #expect(before.count == 1 && before.allSatisfy { !$0.contains("rr") }, "VmFlags before: \(before)")
        #expect(after.count == 1 && after.allSatisfy { $0.contains("rr") }, "VmFlags after: \(after)")
        #expect(mapped.withBytes(offset: 4096, count: 4096) { $0.allSatisfy { $0 == 7 } } == true)
    }

    @Test func anEmptyFileMapsNothingAndADirectoryIsRefused() throws {
        let directory = try TemporaryDirectory()
        let empty = try MappedFile(path: directory.write("empty", []))
        #expect(empty.count == 0)
        #expect(empty.withBytes(offset: 0, count: 0) { $0.count } == 0)
        #expect(empty.withBytes(offset: 0, count: 1) { $0.count } == nil)
        empty.dropResident()
        let error = #expect(throws: FileError.self) { try MappedFile(path: directory.path) }
        #expect(error?.code == EISDIR)
        let missing = #expect(throws: FileError.self) { try MappedFile(path: directory.file("missing")) }
        #expect(missing?.code == ENOENT && missing?.operation == .open)
    }
}

/// The `VmFlags` of each of this process's mappings of the file at `path`, as `/proc/self/smaps` lists
/// them (`rr`: the mapping was advised `MADV_RANDOM`).
private func vmFlags(ofMappingsOf path: String) throws -> [[String]] {
    let text = String(decoding: try AtomicFile.readAll("/proc/self/smaps"), as: UTF8.self)
    var flags: [[String]] = []
    var inMapping = false
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = fields.first else { continue }
        if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            // A mapping's first line: range, permissions, offset, device, inode, then the file's path.
            inMapping = fields.count >= 6 && fields[5...].joined(separator: " ") == path
        } else if inMapping, first == "VmFlags:" {
            flags.append(fields.dropFirst().map(String.init))
        }
    }
    return flags
}
