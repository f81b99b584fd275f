public import GlimpseFiles
import Synchronization

/// Reference photos' keypoint sets in a ``SlotFile`` on disk, one slot per reference, so that a
/// catalog too large for memory keeps only what its shortlist indexes in the heap
/// (``VisionConfiguration/indexedKeypointLimit``) and reads the rest of the few references a query
/// verifies from here.
///
/// A slot holds what memory does not: the keypoint count and the number of indexed keypoints (32 bits
/// each), the indexed keypoints' places in the whole set (16 bits each, ascending), then the other
/// keypoints' descriptors (four 64-bit words each) and positions (`x, y` as 32-bit floats), little-endian.
/// ``read(slot:key:indexed:)`` puts the whole set back together in its order from the slot and the indexed
/// keypoints the caller holds: exactly the set extraction gave, so verifying from a slot gives the answer
/// verifying from memory gives, and nothing is stored twice. Each slot belongs to its reference's key
/// (FNV-1a 64 of its UTF-8), and every read checks the slot's checksum and that owner.
///
/// **Damage.** A slot that fails its checks (a flipped bit, a file truncated by another program) is
/// damage, never silence: the first failure of each slot is recorded (``damage``) and handed to the
/// ``onDamage(_:)`` handler, which an engine uses to log it, count it and re-extract the reference from
/// its photo (see `Engine`'s keypoint slot repair). Until then the reference is verified without its
/// geometry (its print alone). ``VisualMatcher/scrubKeypointSlots()`` reads every slot a matcher uses, so
/// that damage made while no process read the file is found at the next start.
public final class KeypointSlots: Sendable {
    /// The file the slots live in.
    public let file: SlotFile
    /// The most keypoints one reference's set has.
    public let maxKeypoints: Int
    /// The most of them held in memory (indexed) rather than in the slot.
    public let indexedKeypoints: Int
    private let next: Mutex<Int>
    private let refused = Mutex<(count: Int, reason: String)?>(nil)
    private let damageLog = Mutex<DamageLog>(DamageLog())

    /// The slots found damaged, once each, and who is told.
    private struct DamageLog: Sendable {
        var slots: Set<Int> = []
        var found: [KeypointSlotDamage] = []
        var handler: (@Sendable (KeypointSlotDamage) -> Void)?
    }

    /// Bytes a keypoint takes in a slot: four descriptor words and two coordinates.
    static let bytesPerKeypoint = 8 * ImageFeatures.wordsPerDescriptor + 8
    /// The most keypoints a set may have (places are 16-bit).
    public static let keypointLimit = Int(UInt16.max)

    /// The slot size for sets of at most `maxKeypoints` keypoints of which up to `indexedKeypoints` are held
    /// in memory (a set of fewer than that many is held whole), its slot header included.
    public static func slotSize(maxKeypoints: Int, indexedKeypoints: Int = 0) -> Int {
        let k = max(1, maxKeypoints), kept = min(max(0, indexedKeypoints), k)
        return SlotFile.slotHeaderSize + 8 + 2 * kept + (k - kept) * bytesPerKeypoint
    }

    /// What the file is called in messages: the keypoint slot file, named by `--keypoint-slots`.
    public static let fileDescription = "keypoint slot file (--keypoint-slots)"

    /// The owner a reference's slot is checked against: FNV-1a 64 of its key.
    public static func owner(ofKey key: String) -> UInt64 { FNV1a64.hash(key.utf8) }

    /// The tag a slot file of references extracted with `configuration` is made and opened with.
    public static func tag(configuration: VisionConfiguration) -> String {
        "keypoints;" + configuration.extractionFingerprint
    }

    /// An empty file at `path` (replacing any file there) for sets of at most `maxKeypoints` keypoints of
    /// which up to `indexedKeypoints` stay in memory, made for `tag` (the extraction settings and source, as
    /// ``SlotFile`` tags are).
    ///
    /// - Throws: the ``SlotFileError`` of ``SlotFile/create(path:slotSize:tag:growthSlots:)``.
    public static func create(
        path: String, maxKeypoints: Int, indexedKeypoints: Int = 0, tag: String
    ) throws(SlotFileError) -> KeypointSlots {
        let maxKeypoints = min(max(1, maxKeypoints), keypointLimit)
        let file = try SlotFile.create(
            path: path, slotSize: slotSize(maxKeypoints: maxKeypoints, indexedKeypoints: indexedKeypoints), tag: tag)
        return KeypointSlots(file: file, maxKeypoints: maxKeypoints, indexedKeypoints: indexedKeypoints)
    }

    /// An empty file at `path` (replacing any file there) for a matcher built with `configuration`: sets of
    /// its ``VisionConfiguration/referenceKeypointLimit`` keypoints (else ``VisionConfiguration/maxKeypoints``),
    /// of which its ``VisionConfiguration/indexedKeypointLimit`` stay in memory, tagged with
    /// ``tag(configuration:)``.
    ///
    /// - Throws: the ``SlotFileError`` of ``SlotFile/create(path:slotSize:tag:growthSlots:)``.
    public static func create(path: String, configuration: VisionConfiguration) throws(SlotFileError) -> KeypointSlots {
        try create(
            path: path, maxKeypoints: configuration.referenceKeypointLimit ?? configuration.maxKeypoints,
            indexedKeypoints: configuration.indexedKeypointLimit ?? 0, tag: tag(configuration: configuration))
    }

    /// Opens the existing file at `path`, for reading, checking that it was made by
    /// ``create(path:maxKeypoints:indexedKeypoints:tag:)`` with these sizes for references extracted with
    /// `configuration` (``tag(configuration:)``).
    ///
    /// - Throws: the ``SlotFileError`` of ``SlotFile/open(path:slotSize:tag:mode:growthSlots:)``.
    public static func open(
        path: String, maxKeypoints: Int, indexedKeypoints: Int, configuration: VisionConfiguration
    ) throws(SlotFileError) -> KeypointSlots {
        let maxKeypoints = min(max(1, maxKeypoints), keypointLimit)
        let file = try SlotFile.open(
            path: path, slotSize: slotSize(maxKeypoints: maxKeypoints, indexedKeypoints: indexedKeypoints),
            tag: tag(configuration: configuration), mode: .read)
        return KeypointSlots(file: file, maxKeypoints: maxKeypoints, indexedKeypoints: indexedKeypoints)
    }

    /// The keypoint slots of `file`, already made or opened for these sizes (tests give a file of their own).
    init(file: SlotFile, maxKeypoints: Int, indexedKeypoints: Int) {
        self.file = file
        self.maxKeypoints = maxKeypoints
        self.indexedKeypoints = min(max(0, indexedKeypoints), maxKeypoints)
        next = Mutex(file.committedCount)
    }

    /// Writes the keypoints of `features` that `indexed` (ascending places in the set) does not name into
    /// the next free slot for the reference keyed `key`, with those places, and returns the slot; `nil` when
    /// the set does not fit (more than ``maxKeypoints``, or more left out of memory than a slot holds): the
    /// caller keeps it whole in memory.
    ///
    /// - Throws: the ``SlotFileError`` of the write (a full disk, a file opened for reading); the slot is
    ///   then not taken, and the caller keeps the set whole in memory.
    public func append(_ features: ImageFeatures, indexed: [Int] = [], key: String) throws(SlotFileError) -> Int? {
        let count = features.count
        let rest = count - indexed.count
        guard count <= maxKeypoints, indexed.count <= count,
              8 + 2 * indexed.count + rest * Self.bytesPerKeypoint <= file.payloadLimit else { return nil }
        var payload = [UInt8](repeating: 0, count: 8 + 2 * indexed.count + rest * Self.bytesPerKeypoint)
        let wordsPer = ImageFeatures.wordsPerDescriptor
        let encoded = payload.withUnsafeMutableBytes { raw -> Bool in
            raw.storeBytes(of: UInt32(count).littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(indexed.count).littleEndian, toByteOffset: 4, as: UInt32.self)
            var offset = 8
            var previous = -1
            for place in indexed {
                guard place > previous, place < count else { return false }
                raw.storeBytes(of: UInt16(place).littleEndian, toByteOffset: offset, as: UInt16.self)
                offset += 2
                previous = place
            }
            var wordOffset = offset, pointOffset = offset + rest * 8 * wordsPer
            var nextIndexed = 0
            for k in 0..<count {
                if nextIndexed < indexed.count, indexed[nextIndexed] == k {
                    nextIndexed += 1
                    continue
                }
                for w in 0..<wordsPer {
                    raw.storeBytes(of: features.descriptorWords[k * wordsPer + w].littleEndian, toByteOffset: wordOffset,
                                   as: UInt64.self)
                    wordOffset += 8
                }
                let keypoint = features.keypoints[k]
                raw.storeBytes(of: keypoint.x.bitPattern.littleEndian, toByteOffset: pointOffset, as: UInt32.self)
                raw.storeBytes(of: keypoint.y.bitPattern.littleEndian, toByteOffset: pointOffset + 4, as: UInt32.self)
                pointOffset += 8
            }
            return true
        }
        guard encoded else { return nil }
        // The next slot is taken only once its write succeeded: a write the disk refused (full) leaves the
        // count where it was, so that ``commit()`` records only slots that hold what they should.
        do throws(SlotFileError) {
            return try next.withLock { slot throws(SlotFileError) -> Int in
                try file.write(slot: slot, owner: Self.owner(ofKey: key), payload: payload)
                defer { slot += 1 }
                return slot
            }
        } catch {
            refused.withLock { refused in refused = ((refused?.count ?? 0) + 1, refused?.reason ?? error.description) }
            throw error
        }
    }

    /// How many sets ``append(_:indexed:key:)`` could not write (the disk refused the room: their references
    /// are held whole in memory by the segment that added them), and why the first could not; `nil` when
    /// every write succeeded.
    public var refusedWrites: (count: Int, reason: String)? { refused.withLock { $0 } }

    /// Makes every slot written so far durable and records them in the file's header.
    ///
    /// - Throws: the ``SlotFileError`` of ``SlotFile/commit(count:storeSequence:modelID:)``.
    public func commit() throws(SlotFileError) {
        try file.commit(count: next.withLock { $0 }, storeSequence: -1, modelID: 0)
    }

    /// The whole keypoint set in slot `slot`, after checking the slot's checksum and that it belongs to
    /// `key`: the descriptors (four words each) and the positions (`x, y` interleaved), in the set's order,
    /// put together from the slot and `indexed`, the caller's descriptors and positions of the keypoints the
    /// slot left out (as many as it names, in order).
    ///
    /// - Throws: the ``SlotFileError`` of the read; ``SlotFileError/slotChecksum(path:slot:)`` also for a
    ///   payload whose lengths do not match its counts, whose indexed keypoints `indexed` does not hold, or
    ///   with a position that is not a finite number (rebuild the file).
    public func read(
        slot: Int, key: String, indexed: (words: ArraySlice<UInt64>, points: ArraySlice<Float>) = ([], [])
    ) throws(SlotFileError) -> (words: [UInt64], points: [Float]) {
        let wordsPer = ImageFeatures.wordsPerDescriptor
        let maxKeypoints = maxKeypoints
        let decoded = try file.withPayload(slot: slot, owner: Self.owner(ofKey: key)) { raw -> ([UInt64], [Float])? in
            guard raw.count >= 8 else { return nil }
            let count = Int(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian)
            let kept = Int(raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
            guard count <= maxKeypoints, kept <= count, indexed.words.count == kept * wordsPer,
                  indexed.points.count == kept * 2, raw.count == 8 + 2 * kept + (count - kept) * Self.bytesPerKeypoint
            else { return nil }
            var descriptors = [UInt64](repeating: 0, count: count * wordsPer)
            var points = [Float](repeating: 0, count: count * 2)
            var isIndexed = [Bool](repeating: false, count: count)
            var previous = -1
            for i in 0..<kept {
                let place = Int(raw.loadUnaligned(fromByteOffset: 8 + 2 * i, as: UInt16.self).littleEndian)
                guard place > previous, place < count else { return nil }
                isIndexed[place] = true
                previous = place
            }
            var wordOffset = 8 + 2 * kept, pointOffset = wordOffset + (count - kept) * 8 * wordsPer
            var fromMemory = 0
            let (memoryWords, memoryPoints) = (indexed.words.startIndex, indexed.points.startIndex)
            for k in 0..<count {
                if isIndexed[k] {
                    for w in 0..<wordsPer { descriptors[k * wordsPer + w] = indexed.words[memoryWords + fromMemory * wordsPer + w] }
                    points[2 * k] = indexed.points[memoryPoints + 2 * fromMemory]
                    points[2 * k + 1] = indexed.points[memoryPoints + 2 * fromMemory + 1]
                    fromMemory += 1
                    continue
                }
                for w in 0..<wordsPer {
                    descriptors[k * wordsPer + w] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: wordOffset, as: UInt64.self))
                    wordOffset += 8
                }
                let x = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: pointOffset, as: UInt32.self)))
                let y = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: pointOffset + 4, as: UInt32.self)))
                guard x.isFinite, y.isFinite else { return nil }
                points[2 * k] = x
                points[2 * k + 1] = y
                pointOffset += 8
            }
            return (descriptors, points)
        }
        guard let decoded else { throw .slotChecksum(path: file.path, slot: slot) }
        return (decoded.0, decoded.1)
    }

    // MARK: - Damage

    /// Every slot found damaged so far, in the order found, once each.
    public var damage: [KeypointSlotDamage] { damageLog.withLock { $0.found } }

    /// Has `handler` told of every slot found damaged: at once of those found before, then of each as it
    /// is found, once per slot, on the thread that found it (a query's: hand slow work to another). Replaces
    /// any handler set before.
    public func onDamage(_ handler: @escaping @Sendable (KeypointSlotDamage) -> Void) {
        let earlier = damageLog.withLock { log in
            log.handler = handler
            return log.found
        }
        for damage in earlier { handler(damage) }
    }

    /// Records that slot `slot`, the keypoints of the reference keyed `key`, failed with `error`; returns
    /// whether this is the slot's first failure (the handler is then told).
    @discardableResult
    func recordDamage(slot: Int, key: String, error: SlotFileError) -> Bool {
        let damage = KeypointSlotDamage(path: file.path, slot: slot, key: key, reason: error.description)
        let handler = damageLog.withLock { log -> (@Sendable (KeypointSlotDamage) -> Void)?? in
            guard log.slots.insert(slot).inserted else { return nil }
            log.found.append(damage)
            return .some(log.handler)
        }
        guard let handler else { return false }
        handler?(damage)
        return true
    }

    /// Reads slot `slot` of the reference keyed `key` only to check it (its checksum, owner and that the file
    /// holds it), recording a failure as damage; returns whether it passed.
    @discardableResult
    func check(slot: Int, key: String) -> Bool {
        do throws(SlotFileError) {
            try file.withPayload(slot: slot, owner: Self.owner(ofKey: key)) { _ in }
            return true
        } catch {
            recordDamage(slot: slot, key: key, error: error)
            return false
        }
    }
}

/// A keypoint slot that failed its checks when read: which file, slot and reference, and why.
public struct KeypointSlotDamage: Sendable, Equatable, CustomStringConvertible {
    /// The slot file.
    public let path: String
    /// The slot.
    public let slot: Int
    /// The key of the reference whose keypoints the slot holds.
    public let key: String
    /// The failed check, as a sentence (a ``SlotFileError``'s description).
    public let reason: String

    /// A damage record.
    public init(path: String, slot: Int, key: String, reason: String) {
        self.path = path
        self.slot = slot
        self.key = key
        self.reason = reason
    }

    /// A sentence naming the slot, its reference and the failure.
    public var description: String { "slot \(slot) of \(path) (reference \(key)): \(reason)" }
}
