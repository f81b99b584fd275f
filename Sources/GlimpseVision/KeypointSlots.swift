public import GlimpseFiles
import Synchronization

/// Reference photos' full keypoint sets in a memory-mapped ``SlotFile``, one slot per reference, so
/// that a catalog too large for memory keeps only what its shortlist indexes in the heap
/// (``VisionConfiguration/indexedKeypointLimit``) and reads the few references a query verifies from
/// here.
///
/// A slot holds the keypoint count (32 bits), the descriptors (four 64-bit words each) and the positions
/// (`x, y` as 32-bit floats), little-endian: exactly what the matcher holds in memory, so verifying from
/// a slot gives the answer verifying from memory gives. Each slot belongs to its reference's key
/// (FNV-1a 64 of its UTF-8), and every read checks the slot's checksum and that owner.
public final class KeypointSlots: Sendable {
    /// The file the slots live in.
    public let file: SlotFile
    /// The most keypoints one slot holds.
    public let maxKeypoints: Int
    private let next: Mutex<Int>

    /// Bytes a keypoint takes in a slot: four descriptor words and two coordinates.
    static let bytesPerKeypoint = 8 * ImageFeatures.wordsPerDescriptor + 8

    /// The slot size for sets of at most `maxKeypoints` keypoints, its slot header included.
    public static func slotSize(maxKeypoints: Int) -> Int {
        SlotFile.slotHeaderSize + 4 + max(1, maxKeypoints) * bytesPerKeypoint
    }

    /// The owner a reference's slot is checked against: FNV-1a 64 of its key.
    public static func owner(ofKey key: String) -> UInt64 { FNV1a64.hash(key.utf8) }

    /// An empty file at `path` (replacing any file there) for sets of at most `maxKeypoints` keypoints,
    /// made for `tag` (the extraction settings and source, as ``SlotFile`` tags are).
    ///
    /// - Throws: the ``SlotFileError`` of ``SlotFile/create(path:slotSize:tag:growthSlots:)``.
    public static func create(path: String, maxKeypoints: Int, tag: String) throws(SlotFileError) -> KeypointSlots {
        let file = try SlotFile.create(path: path, slotSize: slotSize(maxKeypoints: maxKeypoints), tag: tag)
        return KeypointSlots(file: file, maxKeypoints: max(1, maxKeypoints))
    }

    /// The tag a slot file of references extracted with `configuration` is made and opened with.
    public static func tag(configuration: VisionConfiguration) -> String {
        "keypoints;" + configuration.extractionFingerprint
    }

    /// Opens the existing file at `path`, for reading, checking that it holds sets of at most `maxKeypoints`
    /// keypoints extracted with `configuration` (``tag(configuration:)``).
    ///
    /// - Throws: the ``SlotFileError`` of ``SlotFile/open(path:slotSize:tag:mode:growthSlots:)``.
    public static func open(
        path: String, maxKeypoints: Int, configuration: VisionConfiguration
    ) throws(SlotFileError) -> KeypointSlots {
        let file = try SlotFile.open(
            path: path, slotSize: slotSize(maxKeypoints: maxKeypoints), tag: tag(configuration: configuration), mode: .read)
        return KeypointSlots(file: file, maxKeypoints: max(1, maxKeypoints))
    }

    private init(file: SlotFile, maxKeypoints: Int) {
        self.file = file
        self.maxKeypoints = maxKeypoints
        next = Mutex(file.committedCount)
    }

    /// Writes `features`' keypoints into the next free slot for the reference keyed `key`, and returns
    /// the slot; `nil` when they are more than ``maxKeypoints`` (the caller keeps them in memory).
    ///
    /// - Throws: the ``SlotFileError`` of the write (a full disk, a file opened for reading).
    public func append(_ features: ImageFeatures, key: String) throws(SlotFileError) -> Int? {
        let count = features.count
        guard count <= maxKeypoints else { return nil }
        var payload = [UInt8](repeating: 0, count: 4 + count * Self.bytesPerKeypoint)
        payload.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(count).littleEndian, toByteOffset: 0, as: UInt32.self)
            var offset = 4
            for word in features.descriptorWords {
                raw.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            for keypoint in features.keypoints {
                raw.storeBytes(of: keypoint.x.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: keypoint.y.bitPattern.littleEndian, toByteOffset: offset + 4, as: UInt32.self)
                offset += 8
            }
        }
        let slot = next.withLock { slot in
            defer { slot += 1 }
            return slot
        }
        try file.write(slot: slot, owner: Self.owner(ofKey: key), payload: payload)
        return slot
    }

    /// Makes every slot written so far durable and records them in the file's header.
    ///
    /// - Throws: the ``SlotFileError`` of ``SlotFile/commit(count:storeSequence:modelID:)``.
    public func commit() throws(SlotFileError) {
        try file.commit(count: next.withLock { $0 }, storeSequence: -1, modelID: 0)
    }

    /// The keypoint set in slot `slot`, after checking the slot's checksum and that it belongs to `key`:
    /// the descriptors (four words each) and the positions (`x, y` interleaved).
    ///
    /// - Throws: the ``SlotFileError`` of the read; ``SlotFileError/slotChecksum(path:slot:)`` also for a
    ///   payload whose length does not match its count (rebuild the file).
    public func read(slot: Int, key: String) throws(SlotFileError) -> (words: [UInt64], points: [Float]) {
        let words = ImageFeatures.wordsPerDescriptor
        let decoded = try file.withPayload(slot: slot, owner: Self.owner(ofKey: key)) { raw -> ([UInt64], [Float])? in
            guard raw.count >= 4 else { return nil }
            let count = Int(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian)
            guard count <= maxKeypoints, raw.count == 4 + count * Self.bytesPerKeypoint else { return nil }
            var descriptors = [UInt64](repeating: 0, count: count * words)
            var points = [Float](repeating: 0, count: count * 2)
            var offset = 4
            for i in descriptors.indices {
                descriptors[i] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            for i in points.indices {
                points[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                offset += 4
            }
            return (descriptors, points)
        }
        guard let decoded else { throw .slotChecksum(path: file.path, slot: slot) }
        return (decoded.0, decoded.1)
    }
}
