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
/// identity (empty when none), the references (id, then ``FeatureCoding``'s image size, keypoints,
/// descriptors and feature prints),
/// then the CRC-32 of all bytes before it. Version 2 ended in an FNV-1a 64 checksum; such files are
/// refused as stale and rebuilt.
public enum FeatureCache {
    /// The format version this build reads and writes.
    public static let formatVersion: UInt32 = 3
    static let magic: [UInt8] = Array("GLVFEAT1".utf8)
    static let maxIDBytes = 4096
    /// The magic, the format version, the key and the checksum: no cache file is shorter.
    static let minimumSize = magic.count + 4 + 8 + 4

    /// The cache key of `photos` under `configuration`: changes when any photo's path, size or
    /// modification time changes, when photos are added, removed or reordered, or when the
    /// extraction settings change. The feature printer is not part of it: the file names its printer,
    /// which ``decode(_:expectedKey:configuration:printIdentity:path:)`` checks.
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when a photo cannot be examined.
    public static func key(for photos: [ReferencePhoto], configuration: VisionConfiguration) throws(VisionError) -> UInt64 {
        var stamps: [PhotoStamp] = []
        stamps.reserveCapacity(photos.count)
        for photo in photos { stamps.append(try PhotoStamp(of: photo)) }
        return key(for: stamps, configuration: configuration)
    }

    /// ``key(for:configuration:)`` of photos already examined: one `stat` per photo serves both the key and
    /// the build journal.
    static func key(for stamps: [PhotoStamp], configuration: VisionConfiguration) -> UInt64 {
        var hasher = FNV1a64()
        hasher.add(Array(configuration.extractionFingerprint.utf8))
        hasher.add([0])
        for stamp in stamps {
            hasher.add(Array(stamp.id.utf8))
            hasher.add([0])
            hasher.add(Array(stamp.path.utf8))
            hasher.add([0])
            hasher.add(stamp.size)
            hasher.add(UInt64(bitPattern: stamp.seconds))
            hasher.add(UInt64(bitPattern: stamp.nanoseconds))
        }
        return hasher.value
    }

    /// The bytes of a cache file holding `references`.
    public static func encode(
        _ references: [(id: String, features: ImageFeatures)], key: UInt64, configuration: VisionConfiguration,
        printIdentity: String? = nil
    ) -> [UInt8] {
        var w = ByteWriter()
        w.append(contentsOf: magic)
        w.append(formatVersion)
        w.append(key)
        w.append(string: configuration.extractionFingerprint)
        w.append(string: printIdentity ?? "")
        w.append(UInt32(references.count))
        for (id, f) in references {
            w.append(string: id)
            FeatureCoding.append(f, to: &w)
        }
        return sealed(w.bytes)
    }

    /// The length of the checksum that ends every cache file.
    static let checksumLength = 4

    /// `body` followed by its checksum: the cache file whose contents before the checksum are `body`.
    static func sealed(_ body: [UInt8]) -> [UInt8] {
        var w = ByteWriter(capacity: body.count + checksumLength)
        body.withUnsafeBytes { w.append(raw: $0) }
        w.append(CRC32.checksum(body))
        return w.bytes
    }

    /// `bytes` with their last ``checksumLength`` bytes replaced by the checksum of the rest, so a fuzz
    /// target can send mutated caches past the checksum into the parser (`@_spi(Fuzzing)`, not API);
    /// bytes too short to hold a checksum come back as they are.
    @_spi(Fuzzing) public static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        bytes.count < checksumLength ? bytes : sealed(Array(bytes.dropLast(checksumLength)))
    }

    /// Decodes and validates cache bytes. A cache written with prints serves a matcher without a printer
    /// (`printIdentity` nil) too, its prints left out, so that matching without the print and with it, one
    /// after the other, does not rebuild the cache each time; the reverse needs the prints and is stale.
    ///
    /// - Throws: ``VisionError/cacheCorrupt(path:reason:)`` for damaged or foreign bytes,
    ///   ``VisionError/cacheStale(path:reason:)`` when the key, the extraction settings or the printer differ.
    public static func decode(
        _ data: [UInt8], expectedKey: UInt64, configuration: VisionConfiguration, printIdentity: String? = nil,
        path: String = "<memory>"
    ) throws(VisionError) -> [(id: String, features: ImageFeatures)] {
        func corrupt(_ reason: String) -> VisionError { .cacheCorrupt(path: path, reason: reason) }
        guard data.count >= minimumSize else { throw corrupt("file is too short (\(data.count) bytes)") }
        guard Array(data.prefix(magic.count)) == magic else { throw corrupt("not a Glimpse feature cache (bad magic)") }
        return try withBytes(of: data) { (raw) throws(VisionError) in
            // The version first: a file of another version has another checksum too.
            var r = ByteReader(raw, offset: magic.count, end: raw.count - 4)
            guard let version = try? r.read(UInt32.self) else { throw corrupt("truncated header") }
            guard version == formatVersion else {
                throw .cacheStale(path: path, reason: "format version \(version), this build uses \(formatVersion)")
            }
            var tail = ByteReader(raw, offset: raw.count - 4)
            let computed = CRC32.checksum(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 4)]))
            guard let stored = try? tail.read(UInt32.self), stored == computed else { throw corrupt("checksum mismatch") }
            guard let key = try? r.read(UInt64.self), let fingerprint = try? r.readString(maxLength: maxIDBytes),
                  let storedPrinter = try? r.readString(maxLength: maxIDBytes) else { throw corrupt("truncated header") }
            guard fingerprint == configuration.extractionFingerprint else {
                throw .cacheStale(path: path, reason: "written with other extraction settings")
            }
            // Without a printer, any printer's cache serves: its prints are read, checked and left out.
            let dropsPrints = printIdentity == nil && !storedPrinter.isEmpty
            guard storedPrinter == (printIdentity ?? "") || dropsPrints else {
                throw .cacheStale(path: path, reason: "written with another feature-print model, or without one")
            }
            guard key == expectedKey else { throw .cacheStale(path: path, reason: "the photos changed since it was written") }
            guard let count = try? r.read(UInt32.self) else { throw corrupt("truncated header") }
            var out: [(id: String, features: ImageFeatures)] = []
            for n in 0..<Int(count) {
                let reference = try decodeReference(
                    &r, number: n, printIdentity: dropsPrints ? storedPrinter : printIdentity, corrupt: corrupt)
                out.append(dropsPrints ? (reference.id, reference.features.with(featurePrints: [])) : reference)
            }
            guard r.remaining == 0 else { throw corrupt("\(r.remaining) unexpected bytes after the last reference") }
            return out
        }
    }

    /// Decodes reference number `number` of a cache file: its id, then its features (``FeatureCoding``).
    private static func decodeReference(
        _ r: inout ByteReader<ByteReadError>, number n: Int, printIdentity: String?, corrupt: (String) -> VisionError
    ) throws(VisionError) -> (id: String, features: ImageFeatures) {
        guard let id = try? r.readString(maxLength: maxIDBytes) else { throw corrupt("reference \(n) is truncated") }
        let features = try FeatureCoding.read(&r, what: "reference \(n)", corrupt: corrupt)
        guard (printIdentity == nil) == features.featurePrints.isEmpty else {
            throw corrupt("reference \(n) \(features.featurePrints.isEmpty ? "lacks" : "has") feature prints")
        }
        return (id, features)
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
