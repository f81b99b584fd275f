import GlimpseFeaturePrint
import Foundation
import GlimpseFiles

/// A reference photo to index: its identifier and where its file is.
public struct ReferencePhoto: Sendable, Hashable {
    /// The identifier matches are reported under (a catalog place id).
    public let id: String
    /// Path of the photo file.
    public let path: String

    /// Creates a reference photo.
    public init(id: String, path: String) {
        self.id = id
        self.path = path
    }
}

/// The on-disk cache of reference features: versioned, checksummed, and keyed by the photos'
/// identifiers, paths, sizes and modification times plus the extraction settings, so a cache
/// written for other photos or settings is refused as stale instead of being used.
///
/// Layout (little-endian): magic `GLVFEAT1`, format version, key, extraction fingerprint, feature-print
/// identity (empty when none), the references (id, image size, keypoints, descriptors, feature print),
/// then an FNV-1a 64 checksum of all bytes before it.
public enum FeatureCache {
    /// The format version this build reads and writes.
    public static let formatVersion: UInt32 = 2
    static let magic: [UInt8] = Array("GLVFEAT1".utf8)
    static let maxKeypointsPerReference = 100_000
    static let maxIDBytes = 4096
    static let maxPrintDimension = 1 << 16
    static let maxPrintsPerReference: UInt32 = 64
    /// The magic, the format version, the key and the checksum: no cache file is shorter.
    static let minimumSize = magic.count + 4 + 8 + 8

    /// The cache key of `photos` under `configuration`: changes when any photo's path, size or
    /// modification time changes, when photos are added, removed or reordered, or when the
    /// extraction settings or the feature printer change.
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when a photo cannot be examined.
    public static func key(
        for photos: [ReferencePhoto], configuration: VisionConfiguration, printIdentity: String? = nil
    ) throws(VisionError) -> UInt64 {
        var hasher = FNV1a64()
        hasher.add(Array(configuration.extractionFingerprint.utf8))
        hasher.add([0])
        hasher.add(Array((printIdentity ?? "").utf8))
        for photo in photos {
            var info = stat()
            guard stat(photo.path, &info) == 0 else {
                throw .referencePhoto(path: photo.path, reason: String(cString: strerror(errno)))
            }
            hasher.add(Array(photo.id.utf8))
            hasher.add([0])
            hasher.add(Array(photo.path.utf8))
            hasher.add([0])
            hasher.add(UInt64(truncatingIfNeeded: info.st_size))
            hasher.add(UInt64(truncatingIfNeeded: info.st_mtim.tv_sec))
            hasher.add(UInt64(truncatingIfNeeded: info.st_mtim.tv_nsec))
        }
        return hasher.value
    }

    /// The bytes of a cache file holding `references`.
    public static func encode(
        _ references: [(id: String, features: ImageFeatures)], key: UInt64, configuration: VisionConfiguration,
        printIdentity: String? = nil
    ) -> [UInt8] {
        var w = ByteWriter()
        w.bytes(magic)
        w.u32(formatVersion)
        w.u64(key)
        w.string(configuration.extractionFingerprint)
        w.string(printIdentity ?? "")
        w.u32(UInt32(references.count))
        for (id, f) in references {
            w.string(id)
            w.u32(UInt32(f.width))
            w.u32(UInt32(f.height))
            w.u32(UInt32(f.count))
            for k in f.keypoints {
                w.u32(k.x.bitPattern); w.u32(k.y.bitPattern); w.u32(k.scale.bitPattern)
                w.u32(k.angle.bitPattern); w.u32(k.response.bitPattern); w.u32(UInt32(bitPattern: k.level))
            }
            for word in f.descriptorWords { w.u64(word) }
            w.u32(UInt32(f.featurePrints.count))
            w.u32(UInt32(f.featurePrints.first?.dimension ?? 0))
            for print in f.featurePrints {
                for value in print.values { w.u32(value.bitPattern) }
            }
        }
        var hasher = FNV1a64()
        hasher.add(w.data)
        w.u64(hasher.value)
        return w.data
    }

    /// Decodes and validates cache bytes.
    ///
    /// - Throws: ``VisionError/cacheCorrupt(path:reason:)`` for damaged or foreign bytes,
    ///   ``VisionError/cacheStale(path:reason:)`` when the key or extraction settings differ.
    public static func decode(
        _ data: [UInt8], expectedKey: UInt64, configuration: VisionConfiguration, printIdentity: String? = nil,
        path: String = "<memory>"
    ) throws(VisionError) -> [(id: String, features: ImageFeatures)] {
        func corrupt(_ reason: String) -> VisionError { .cacheCorrupt(path: path, reason: reason) }
        guard data.count >= minimumSize else { throw corrupt("file is too short (\(data.count) bytes)") }
        guard Array(data.prefix(magic.count)) == magic else { throw corrupt("not a Glimpse feature cache (bad magic)") }
        var hasher = FNV1a64()
        hasher.add(data[0..<(data.count - 8)])
        var r = ByteReader(data: data, end: data.count - 8)
        var tail = ByteReader(data: data, end: data.count)
        tail.offset = data.count - 8
        guard let stored = tail.u64(), stored == hasher.value else { throw corrupt("checksum mismatch") }
        r.offset = magic.count
        guard let version = r.u32() else { throw corrupt("truncated header") }
        guard version == formatVersion else {
            throw .cacheStale(path: path, reason: "format version \(version), this build uses \(formatVersion)")
        }
        guard let key = r.u64(), let fingerprint = r.string(limit: maxIDBytes),
              let storedPrinter = r.string(limit: maxIDBytes) else { throw corrupt("truncated header") }
        guard fingerprint == configuration.extractionFingerprint else {
            throw .cacheStale(path: path, reason: "written with other extraction settings")
        }
        guard storedPrinter == (printIdentity ?? "") else {
            throw .cacheStale(path: path, reason: "written with another feature-print model, or without one")
        }
        guard key == expectedKey else { throw .cacheStale(path: path, reason: "the photos changed since it was written") }
        guard let count = r.u32() else { throw corrupt("truncated header") }
        var out: [(id: String, features: ImageFeatures)] = []
        for n in 0..<Int(count) {
            guard let id = r.string(limit: maxIDBytes), let width = r.u32(), let height = r.u32(), let kc = r.u32()
            else { throw corrupt("reference \(n) is truncated") }
            let k = Int(kc)
            guard k <= maxKeypointsPerReference, r.remaining >= k * (24 + 32) else {
                throw corrupt("reference \(n) claims \(k) keypoints, more than the file holds")
            }
            var keypoints: [Keypoint] = []
            keypoints.reserveCapacity(k)
            for _ in 0..<k {
                guard let x = r.u32(), let y = r.u32(), let s = r.u32(), let a = r.u32(), let resp = r.u32(), let l = r.u32()
                else { throw corrupt("reference \(n) is truncated") }
                keypoints.append(Keypoint(
                    x: Float(bitPattern: x), y: Float(bitPattern: y), scale: Float(bitPattern: s),
                    angle: Float(bitPattern: a), response: Float(bitPattern: resp), level: Int32(bitPattern: l)))
            }
            var words: [UInt64] = []
            words.reserveCapacity(4 * k)
            for _ in 0..<(4 * k) {
                guard let word = r.u64() else { throw corrupt("reference \(n) is truncated") }
                words.append(word)
            }
            guard let printCount = r.u32(), let dimension = r.u32(), printCount <= maxPrintsPerReference,
                  Int(dimension) <= maxPrintDimension, r.remaining >= 4 * Int(printCount) * Int(dimension)
            else { throw corrupt("reference \(n) has truncated feature prints") }
            var prints: [FeaturePrint] = []
            prints.reserveCapacity(Int(printCount))
            for _ in 0..<Int(printCount) {
                var values: [Float] = []
                values.reserveCapacity(Int(dimension))
                for _ in 0..<Int(dimension) {
                    guard let bits = r.u32() else { throw corrupt("reference \(n) is truncated") }
                    values.append(Float(bitPattern: bits))
                }
                prints.append(FeaturePrint(normalizing: values))
            }
            guard (printIdentity == nil) == prints.isEmpty else {
                throw corrupt("reference \(n) \(prints.isEmpty ? "lacks" : "has") feature prints")
            }
            guard width > 0, height > 0 else { throw corrupt("reference \(n) has an empty image size") }
            out.append((id, ImageFeatures(width: Int(width), height: Int(height), keypoints: keypoints,
                                          descriptorWords: words, featurePrints: prints)))
        }
        guard r.remaining == 0 else { throw corrupt("\(r.remaining) unexpected bytes after the last reference") }
        return out
    }

    /// Reads and validates the cache at `path`; a file that is too short or lacks the magic is
    /// refused before the rest of it is read.
    ///
    /// - Throws: ``VisionError/cacheIO(path:reason:)`` when unreadable, or the errors of ``decode(_:expectedKey:configuration:path:)``.
    public static func read(
        path: String, expectedKey: UInt64, configuration: VisionConfiguration, printIdentity: String? = nil
    ) throws(VisionError) -> [(id: String, features: ImageFeatures)] {
        let data = try AtomicFile.read(
            path, peekBytes: magic.count,
            mapError: { VisionError.cacheIO(path: path, reason: "cannot read the file: \($0.systemMessage)") }
        ) { (head, size) throws(VisionError) in
            guard size >= minimumSize else {
                throw .cacheCorrupt(path: path, reason: "file is too short (\(size) bytes)")
            }
            guard head == magic else {
                throw .cacheCorrupt(path: path, reason: "not a Glimpse feature cache (bad magic)")
            }
        }
        return try decode(data, expectedKey: expectedKey, configuration: configuration, printIdentity: printIdentity,
                          path: path)
    }

    /// Writes the cache atomically and durably: after a crash `path` holds either the previous cache
    /// or this one, and concurrent writers (threads or processes) never mix their bytes.
    ///
    /// - Throws: ``VisionError/cacheIO(path:reason:)`` when the file cannot be written.
    public static func write(
        _ references: [(id: String, features: ImageFeatures)], key: UInt64, configuration: VisionConfiguration,
        printIdentity: String? = nil, path: String
    ) throws(VisionError) {
        do throws(FileError) {
            try AtomicFile.replace(
                path, with: encode(references, key: key, configuration: configuration, printIdentity: printIdentity))
        } catch {
            throw .cacheIO(path: path, reason: error.reason)
        }
    }
}

/// FNV-1a, 64-bit: a fast checksum for cache files (detects damage, not tampering).
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        var h = value
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        value = h
    }

    mutating func add(_ word: UInt64) {
        var x = word.littleEndian
        withUnsafeBytes(of: &x) { add($0) }
    }
}

/// Appends little-endian integers and length-prefixed strings.
struct ByteWriter {
    var data: [UInt8] = []

    mutating func bytes(_ b: [UInt8]) { data.append(contentsOf: b) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func string(_ s: String) {
        let b = Array(s.utf8)
        u32(UInt32(b.count))
        data.append(contentsOf: b)
    }
}

/// Reads what ``ByteWriter`` wrote, returning nil instead of reading past `end`.
struct ByteReader {
    let data: [UInt8]
    let end: Int
    var offset = 0

    var remaining: Int { end - offset }

    mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(data[offset + i]) << (8 * UInt32(i)) }
        offset += 4
        return v
    }

    mutating func u64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(data[offset + i]) << (8 * UInt64(i)) }
        offset += 8
        return v
    }

    mutating func string(limit: Int) -> String? {
        guard let n = u32(), Int(n) <= limit, remaining >= Int(n) else { return nil }
        let s = String(decoding: data[offset..<(offset + Int(n))], as: UTF8.self)
        offset += Int(n)
        return s
    }
}
