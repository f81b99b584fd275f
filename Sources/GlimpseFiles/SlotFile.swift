// A file of fixed-size slots updated in place and read with `pread`. Its system calls (`open`,
// `pread`, `posix_fallocate`, `posix_fadvise`, `fdatasync`) live in `SlotFile+SystemCalls.swift`; its
// writes go through `AtomicFile.writeAll`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A file of numbered, fixed-size slots, each holding one payload of at most ``payloadLimit`` bytes for
/// one owner (a 64-bit key hash), written in place and read a slot at a time with `pread`: the on-disk
/// home of data too large for the heap, such as the compact keypoints and prints of a million reference
/// photos. Reads land anywhere in the file, so the file is opened asking for no read-ahead
/// (`POSIX_FADV_RANDOM`): at 10⁶ references on a cold page cache, read-ahead around each slot cost a
/// query about 9.5 ms of CPU and 26 ms of wall time at the median, and 114 ms at the 99th percentile
/// (`Benchmarks/results/2026-11-29-random-slot-reads.md`, measured when slots were read through a
/// memory mapping advised `MADV_RANDOM`).
///
/// **Why `pread` and not a mapping.** A read through a memory mapping of a file that another program
/// truncated stops the process with `SIGBUS`, and no check of the file's size before the read closes
/// that window. A `pread` of a truncated file returns fewer bytes, which is reported as
/// ``SlotFileError/truncated(path:size:expected:)``, a damage: the query that asked goes on without that
/// slot. A slot is a few kilobytes and a query reads a few slots, so the copy costs microseconds.
///
/// **Layout.** A 4,096-byte header (magic `GLSLOTS1`, version, slot size, committed slot count, file id,
/// store sequence, model id, identity tag, CRC-32), then slot *i* at `4096 + i × slotSize`. A slot starts
/// with 16 bytes: the CRC-32 of the rest of the slot's used bytes, the payload's length (0 when the slot
/// is free) and the owner; the payload follows.
///
/// **Trust.** Nothing is used before it is checked: at open the header's checksum, version, slot size
/// and identity tag (settings, model, source: see ``open(path:slotSize:tag:mode:growthSlots:)``), and
/// that the file holds every committed slot; at every read the slot's checksum, its owner and that the
/// file still holds it. Every failure is a ``SlotFileError`` whose ``SlotFileError/isDamage`` says to
/// rebuild the file (or, as ``KeypointSlots`` users do, the references whose slots failed).
///
/// **Writes and crashes.** Slots are written with `pwrite` and become durable at
/// ``commit(count:storeSequence:modelID:)``, which flushes them and then the header. A build that
/// writes slots in order and commits every batch resumes from ``committedCount`` after a crash. A torn
/// header fails its checksum (rebuild); a torn slot fails its own. The file grows in steps of
/// `growthSlots` slots, allocated before use so that a full disk fails the write that needs the room
/// (``SlotFileError/io(_:)``, and the slot is not written), never a later read; it never shrinks.
///
/// **Concurrency.** One writer per file: opening for writing takes an exclusive `flock`, so a second
/// writer, in any process, gets ``SlotFileError/busy(path:)``. Reads run concurrently with each other and
/// with writes of other slots.
public final class SlotFile: Sendable {
    /// How a file is opened.
    public enum Mode: Sendable, Equatable {
        /// Reads only; the file's size, and so ``capacity``, is fixed at open.
        case read
        /// Reads and writes, as the only writer.
        case write
    }

    /// The bytes each slot spends on its own header (checksum, length, owner).
    public static let slotHeaderSize = 16
    /// The longest identity tag, in bytes of UTF-8.
    public static let maxTagBytes = SlotFileHeader.maxTagBytes
    /// The slots a file grows by when it needs room, unless its opener says otherwise.
    public static let defaultGrowthSlots = 4096

    /// The file's path.
    public let path: String
    /// The size of one slot in bytes, its header included.
    public let slotSize: Int
    /// The identity tag the file was made for.
    public let tag: String
    /// The file's random id, fixed when it was created: files derived from it record it, so a file
    /// replaced by another of the same tag is told apart.
    public let fileID: [UInt8]
    /// How the file was opened.
    public let mode: Mode
    /// The largest payload a slot holds.
    public var payloadLimit: Int { slotSize - Self.slotHeaderSize }

    private let descriptor: Int32
    private let growthSlots: Int
    private let allocate: SlotFileCalls.Allocate
    private let state: Mutex<State>

    private struct State: Sendable {
        var header: SlotFileHeader
        /// The slots the file has room for: fixed at open for a reader, grown by the writer.
        var capacity: Int
    }

    /// Creates an empty slot file at `path`, replacing any file there atomically (a reader that has the
    /// old file mapped keeps reading the old one), and opens it for writing.
    ///
    /// - Parameters:
    ///   - slotSize: the size of each slot, its 16-byte header included.
    ///   - tag: what the contents were made from and with; ``open(path:slotSize:tag:mode:growthSlots:)``
    ///     refuses a file whose tag differs.
    ///   - growthSlots: how many slots the file grows by at a time.
    /// - Throws: ``SlotFileError/tagTooLong(size:limit:)``, ``SlotFileError/busy(path:)`` or
    ///   ``SlotFileError/io(_:)``.
    public static func create(
        path: String, slotSize: Int, tag: String, growthSlots: Int = defaultGrowthSlots
    ) throws(SlotFileError) -> SlotFile {
        try create(path: path, slotSize: slotSize, tag: tag, growthSlots: growthSlots, allocate: SlotFileCalls.allocate)
    }

    /// ``create(path:slotSize:tag:growthSlots:)`` with the call that makes room in the file given: how
    /// tests give a writer a disk that fills.
    static func create(
        path: String, slotSize: Int, tag: String, growthSlots: Int = defaultGrowthSlots,
        allocate: @escaping SlotFileCalls.Allocate
    ) throws(SlotFileError) -> SlotFile {
        precondition(slotSize > slotHeaderSize && slotSize <= Int(UInt32.max), "a slot must have room for a payload")
        guard tag.utf8.count <= maxTagBytes else { throw .tagTooLong(size: tag.utf8.count, limit: maxTagBytes) }
        do throws(FileError) {
            try AtomicFile.replace(path, with: SlotFileHeader.fresh(slotSize: slotSize, tag: tag).encoded())
        } catch {
            throw .io(error)
        }
        return try open(path: path, slotSize: slotSize, tag: tag, mode: .write, growthSlots: growthSlots, allocate: allocate)
    }

    /// Opens the slot file at `path`, checking that it is whole and was made for `tag` with slots of
    /// `slotSize` bytes.
    ///
    /// - Throws: a ``SlotFileError`` that ``SlotFileError/isDamage`` when the file is not a slot file, is
    ///   of another version, damaged, truncated, or made for another slot size or tag;
    ///   ``SlotFileError/busy(path:)`` when another process has it open for writing and `mode` is
    ///   ``Mode/write``; ``SlotFileError/io(_:)`` when the system refuses.
    public static func open(
        path: String, slotSize: Int, tag: String, mode: Mode, growthSlots: Int = defaultGrowthSlots
    ) throws(SlotFileError) -> SlotFile {
        try open(path: path, slotSize: slotSize, tag: tag, mode: mode, growthSlots: growthSlots, allocate: SlotFileCalls.allocate)
    }

    private static func open(
        path: String, slotSize: Int, tag: String, mode: Mode, growthSlots: Int, allocate: @escaping SlotFileCalls.Allocate
    ) throws(SlotFileError) -> SlotFile {
        precondition(growthSlots > 0, "a file grows by at least one slot")
        let fd = try SlotFileCalls.openDescriptor(path, writable: mode == .write)
        var keep = false
        defer { if !keep { SlotFileCalls.closeDescriptor(fd) } }
        if mode == .write {
            let code = FileLock.lockExclusively(fd)
            if code == EWOULDBLOCK { throw .busy(path: path) }
            if code != 0 { throw .io(FileError(path: path, operation: .openForUpdate, code: code)) }
        }
        let size = try SlotFileCalls.fileSize(fd, path: path)
        let head = try SlotFileCalls.readHeaderBytes(fd, path: path, size: size)
        guard head.count == SlotFileHeader.size else {
            if !head.isEmpty, head.starts(with: SlotFileHeader.magic) || SlotFileHeader.magic.starts(with: head) {
                throw .truncated(path: path, size: size, expected: SlotFileHeader.size)
            }
            throw .notASlotFile(path: path)
        }
        let header = try SlotFileHeader(decoding: head, path: path)
        guard header.slotSize == slotSize else {
            throw .slotSizeMismatch(path: path, expected: slotSize, found: header.slotSize)
        }
        guard header.tag == tag else { throw .identityMismatch(path: path, expected: tag, found: header.tag) }
        let (needed, overflow) = header.committedCount.multipliedReportingOverflow(by: slotSize)
        guard !overflow, needed <= size - SlotFileHeader.size else {
            let expected = overflow || needed > Int.max - SlotFileHeader.size ? Int.max : SlotFileHeader.size + needed
            throw .truncated(path: path, size: size, expected: expected)
        }
        let capacity = (size - SlotFileHeader.size) / slotSize
        SlotFileCalls.expectRandomReads(fd)
        keep = true
        return SlotFile(
            path: path, header: header, mode: mode, descriptor: fd, growthSlots: growthSlots, allocate: allocate,
            capacity: capacity)
    }

    private init(
        path: String, header: SlotFileHeader, mode: Mode, descriptor: Int32, growthSlots: Int,
        allocate: @escaping SlotFileCalls.Allocate, capacity: Int
    ) {
        self.path = path
        slotSize = header.slotSize
        tag = header.tag
        fileID = header.fileID
        self.mode = mode
        self.descriptor = descriptor
        self.growthSlots = growthSlots
        self.allocate = allocate
        state = Mutex(State(header: header, capacity: capacity))
    }

    deinit {
        SlotFileCalls.closeDescriptor(descriptor)
    }

    // MARK: - The header's fields

    /// How many slots the file has room for now (a reader's count is fixed at open).
    public var capacity: Int { state.withLock { $0.capacity } }

    /// How many slots, from the first, were written and flushed by the last
    /// ``commit(count:storeSequence:modelID:)``: where an interrupted build resumes.
    public var committedCount: Int { state.withLock { $0.header.committedCount } }

    /// The sequence number of the catalog store the committed slots reflect (−1 when none was recorded).
    public var storeSequence: Int64 { state.withLock { $0.header.storeSequence } }

    /// The id of the model the slots' contents refer to (0 when none was recorded).
    public var modelID: UInt64 { state.withLock { $0.header.modelID } }

    // MARK: - Writing

    /// Writes `payload` into slot `slot` for `owner`, growing the file when the slot lies beyond it. The
    /// slot is durable after the next ``commit(count:storeSequence:modelID:)``.
    ///
    /// - Throws: ``SlotFileError/readOnly(path:)``; ``SlotFileError/payloadSize(path:size:limit:)`` for an
    ///   empty payload or one over ``payloadLimit``; ``SlotFileError/slotOutOfRange(path:slot:count:)`` for
    ///   a negative slot or one no file could hold; ``SlotFileError/io(_:)`` when the file cannot grow (a
    ///   full disk) or be written.
    public func write(slot: Int, owner: UInt64, payload: UnsafeRawBufferPointer) throws(SlotFileError) {
        guard mode == .write else { throw .readOnly(path: path) }
        guard (1...payloadLimit).contains(payload.count) else {
            throw .payloadSize(path: path, size: payload.count, limit: payloadLimit)
        }
        guard slot >= 0, slot <= largestSlot else { throw .slotOutOfRange(path: path, slot: slot, count: largestSlot + 1) }
        try makeRoom(forSlot: slot)
        var head = ByteWriter(capacity: Self.slotHeaderSize + payload.count)
        head.append(UInt32(0))
        head.append(UInt32(payload.count))
        head.append(owner)
        head.append(raw: payload)
        var bytes = head.bytes
        let crc = CRC32.checksum(bytes[4...])
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
        try writeAll(bytes, at: offset(ofSlot: slot))
    }

    /// Writes `payload` into slot `slot` for `owner` (see ``write(slot:owner:payload:)-(_,_,UnsafeRawBufferPointer)``).
    public func write(slot: Int, owner: UInt64, payload: [UInt8]) throws(SlotFileError) {
        try withBytes(of: payload) { raw throws(SlotFileError) in try write(slot: slot, owner: owner, payload: raw) }
    }

    /// Marks slot `slot` free (no owner, no payload); durable after the next commit.
    ///
    /// - Throws: ``SlotFileError/readOnly(path:)``, ``SlotFileError/slotOutOfRange(path:slot:count:)`` or
    ///   ``SlotFileError/io(_:)``.
    public func free(slot: Int) throws(SlotFileError) {
        guard mode == .write else { throw .readOnly(path: path) }
        let count = capacity
        guard slot >= 0, slot < count else { throw .slotOutOfRange(path: path, slot: slot, count: count) }
        try writeAll([UInt8](repeating: 0, count: Self.slotHeaderSize), at: offset(ofSlot: slot))
    }

    /// Flushes every slot written so far to disk, then records in the header that the first `count`
    /// slots are written, with the store sequence and model id they reflect, and flushes the header.
    ///
    /// - Throws: ``SlotFileError/readOnly(path:)``; ``SlotFileError/slotOutOfRange(path:slot:count:)`` when
    ///   `count` is negative or more than the file has room for (slots whose writes failed, as on a full
    ///   disk, cannot be committed: count only the writes that succeeded); ``SlotFileError/io(_:)``.
    public func commit(count: Int, storeSequence: Int64, modelID: UInt64) throws(SlotFileError) {
        guard mode == .write else { throw .readOnly(path: path) }
        let room = capacity
        guard count >= 0, count <= room else { throw .slotOutOfRange(path: path, slot: count - 1, count: room) }
        try flush()
        let header = state.withLock { state -> SlotFileHeader in
            state.header.committedCount = count
            state.header.storeSequence = storeSequence
            state.header.modelID = modelID
            return state.header
        }
        try writeAll(header.encoded(), at: 0)
        try flush()
    }

    private func makeRoom(forSlot slot: Int) throws(SlotFileError) {
        try state.withLock { state throws(SlotFileError) in
            guard slot >= state.capacity else { return }
            let slots = (slot / growthSlots + 1) * growthSlots
            let code = allocate(descriptor, SlotFileHeader.size + slots * slotSize)
            guard code == 0 else { throw .io(FileError(path: path, operation: .allocate, code: code)) }
            state.capacity = slots
        }
    }

    private func offset(ofSlot slot: Int) -> Int { SlotFileHeader.size + slot * slotSize }

    /// The largest slot number a file of this slot size can address, growth step included, without its
    /// offset overflowing.
    private var largestSlot: Int { (Int.max - SlotFileHeader.size) / slotSize - growthSlots }

    private func writeAll(_ bytes: [UInt8], at offset: Int) throws(SlotFileError) {
        let code = bytes.withUnsafeBytes { AtomicFile.writeAll(descriptor, $0, at: offset) }
        guard code == 0 else { throw .io(FileError(path: path, operation: .writeInPlace, code: code)) }
    }

    private func flush() throws(SlotFileError) {
        let code = SlotFileCalls.flushData(descriptor)
        guard code == 0 else { throw .io(FileError(path: path, operation: .flush, code: code)) }
    }

    // MARK: - Reading

    /// Replaces the contents of `payload` with slot `slot`'s payload, after checking the slot's checksum
    /// and that it belongs to `owner`. Reusing one array across calls allocates nothing once it is large
    /// enough.
    ///
    /// - Throws: ``SlotFileError/slotOutOfRange(path:slot:count:)``, ``SlotFileError/ownerMismatch(path:slot:expected:found:)``
    ///   (also for a free slot), ``SlotFileError/slotChecksum(path:slot:)``,
    ///   ``SlotFileError/truncated(path:size:expected:)`` when the file no longer holds the slot (another
    ///   program shortened it), or ``SlotFileError/io(_:)`` when the system refuses the read.
    public func read(slot: Int, owner: UInt64, into payload: inout [UInt8]) throws(SlotFileError) {
        try withPayload(slot: slot, owner: owner) { bytes in
            payload.removeAll(keepingCapacity: true)
            payload.append(contentsOf: bytes)
        }
    }

    /// Runs `body` over slot `slot`'s payload, read into a buffer of this call's own, after checking the
    /// slot's checksum and that it belongs to `owner`. The pointer must not escape `body`.
    ///
    /// - Throws: as ``read(slot:owner:into:)``.
    public func withPayload<Result>(
        slot: Int, owner: UInt64, _ body: (UnsafeRawBufferPointer) -> Result
    ) throws(SlotFileError) -> Result {
        let count = capacity
        guard slot >= 0, slot < count else { throw .slotOutOfRange(path: path, slot: slot, count: count) }
        let offset = offset(ofSlot: slot)
        let outcome: Swift.Result<Result, SlotFileError> = withUnsafeTemporaryAllocation(
            byteCount: slotSize, alignment: 8
        ) { buffer in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            let (got, code) = SlotFileCalls.read(descriptor, into: raw, at: offset)
            if code != 0 { return .failure(.io(FileError(path: path, operation: .read, code: code))) }
            guard got >= Self.slotHeaderSize else {
                return .failure(.truncated(path: path, size: shortenedSize(readTo: offset + got), expected: offset + slotSize))
            }
            let bytes = UnsafeRawBufferPointer(rebasing: raw[..<got])
            let stored = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian
            let length = Int(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
            let found = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian
            guard length > 0 else { return .failure(.ownerMismatch(path: path, slot: slot, expected: owner, found: 0)) }
            guard found == owner else {
                return .failure(.ownerMismatch(path: path, slot: slot, expected: owner, found: found))
            }
            guard length <= payloadLimit else { return .failure(.slotChecksum(path: path, slot: slot)) }
            guard Self.slotHeaderSize + length <= got else {
                return .failure(.truncated(
                    path: path, size: shortenedSize(readTo: offset + got), expected: offset + Self.slotHeaderSize + length))
            }
            let used = UnsafeRawBufferPointer(rebasing: bytes[..<(Self.slotHeaderSize + length)])
            guard CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: used[4...])) == stored else {
                return .failure(.slotChecksum(path: path, slot: slot))
            }
            return .success(body(UnsafeRawBufferPointer(rebasing: used[Self.slotHeaderSize...])))
        }
        return try outcome.get()
    }

    /// The size of a file a read found shorter than it should be, for the message: what the system says
    /// now, else where the read ended.
    private func shortenedSize(readTo end: Int) -> Int {
        (try? SlotFileCalls.fileSize(descriptor, path: path)) ?? end
    }

    /// The owner of slot `slot` as its header says, unchecked (0 when the slot is free): for finding the
    /// free slots of a file, or the owners an index must be rebuilt from.
    ///
    /// - Throws: ``SlotFileError/slotOutOfRange(path:slot:count:)``; ``SlotFileError/truncated(path:size:expected:)``
    ///   or ``SlotFileError/io(_:)`` as ``read(slot:owner:into:)``.
    public func owner(ofSlot slot: Int) throws(SlotFileError) -> UInt64 {
        let count = capacity
        guard slot >= 0, slot < count else { throw .slotOutOfRange(path: path, slot: slot, count: count) }
        var head = (UInt64(0), UInt64(0))
        let offset = offset(ofSlot: slot)
        let (got, code) = withUnsafeMutableBytes(of: &head) { SlotFileCalls.read(descriptor, into: $0, at: offset) }
        if code != 0 { throw .io(FileError(path: path, operation: .read, code: code)) }
        guard got >= Self.slotHeaderSize else {
            throw .truncated(path: path, size: shortenedSize(readTo: offset + got), expected: offset + slotSize)
        }
        return withUnsafeBytes(of: head) { raw in
            raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self) == 0
                ? 0 : raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian
        }
    }
}
