import Foundation
import GlimpseFiles
#if canImport(Glibc)
import Glibc
#endif

/// A reference photo as a build found it: its identifier, path, size and modification time. Features
/// kept under a stamp serve only the same identifier at the same file, unchanged since.
struct PhotoStamp: Hashable, Sendable {
    /// The identifier the photo is indexed under.
    let id: String
    /// The photo file's path.
    let path: String
    /// Its size in bytes.
    let size: UInt64
    /// Its modification time: seconds and nanoseconds.
    let seconds: Int64
    let nanoseconds: Int64

    /// The stamp of `photo` as its file is now.
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when the file cannot be examined.
    init(of photo: ReferencePhoto) throws(VisionError) {
        var info = stat()
        guard stat(photo.path, &info) == 0 else {
            throw .referencePhoto(path: photo.path, reason: String(cString: strerror(errno)))
        }
        self.init(id: photo.id, path: photo.path, size: UInt64(truncatingIfNeeded: info.st_size),
                  seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    init(id: String, path: String, size: UInt64, seconds: Int64, nanoseconds: Int64) {
        self.id = id
        self.path = path
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }
}

/// The features a build of the feature cache has extracted so far, appended batch by batch beside the
/// cache (``path(forCache:)``), so that a build that is interrupted (killed, stopped by a photo it cannot
/// read, the machine going down) resumes where it stopped instead of extracting every photo again. The
/// build removes it once the cache is written.
///
/// Layout (little-endian): magic `GLVJRNL1`, format version, the extraction key
/// (``FeatureCoding/key(configuration:printIdentity:)``), the CRC-32 of those; then records, each its
/// length, the photo's ``PhotoStamp`` and ``FeatureCoding`` features, and the CRC-32 of the record. A
/// record cut short by the interruption, or damaged, ends what is read, and the next append overwrites
/// it. A journal of other settings is emptied. The file is locked (`flock`) while a build writes it: a
/// second build of the same cache at the same time does without one.
final class FeatureJournal {
    static let magic: [UInt8] = Array("GLVJRNL1".utf8)
    static let formatVersion: UInt32 = 1
    /// No record is larger: a longer length is a damaged one.
    static let maxRecordBytes = 256 << 20

    /// The reason ``open(path:key:)`` gives when another build holds the journal.
    static let heldElsewhere = "another build is writing its journal"

    /// The journal of the feature cache at `cachePath`.
    static func path(forCache cachePath: String) -> String { cachePath + ".journal" }

    let path: String
    private let descriptor: Int32
    /// Where the next record goes: the end of the last whole record.
    private var end: Int

    /// What the journal held from earlier builds when it was opened.
    let recovered: Recovered

    /// What an opened journal holds from earlier builds.
    struct Recovered {
        /// The features of each photo stamp, as last written.
        var features: [PhotoStamp: ImageFeatures] = [:]
        /// Why some or all of the file was not used (damage, other settings), when that happened.
        var problem: VisionError?
    }

    private init(path: String, descriptor: Int32, end: Int, recovered: Recovered) {
        self.path = path
        self.descriptor = descriptor
        self.end = end
        self.recovered = recovered
    }

    deinit { close(descriptor) }

    /// Opens the journal at `path` for features made under `key`, creating it (private to its owner), and
    /// reads what it holds (``recovered``). A journal of another key is emptied. It stays locked until the
    /// value is released.
    ///
    /// - Throws: ``VisionError/cacheIO(path:reason:)`` when it cannot be opened, read, locked (another
    ///   build holds it) or started.
    static func open(path: String, key: String) throws(VisionError) -> FeatureJournal {
        func failure(_ reason: String) -> VisionError { .cacheIO(path: path, reason: reason) }
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot open the build journal: " + String(cString: strerror(errno))) }
        let locked = FileLock.lockExclusively(fd)
        guard locked == 0 else {
            close(fd)
            throw failure(locked == EWOULDBLOCK ? heldElsewhere : "cannot lock the build journal: "
                          + String(cString: strerror(locked)))
        }
        var recovered = Recovered()
        let bytes: [UInt8]
        do throws(VisionError) {
            // Read by the package's one whole-file rule; the lock held on `fd` keeps other builds out meanwhile.
            bytes = try AtomicFile.read(
                path, peekBytes: 0, mapError: { failure("cannot read the build journal: \($0.reason)") },
                check: { (_, _) throws(VisionError) in })
        } catch {
            close(fd)
            throw error
        }
        let header = self.header(key: key)
        var end = header.count
        var fresh = false
        if bytes.count >= header.count, Array(bytes.prefix(header.count)) == header {
            let read = records(bytes, from: header.count, path: path)
            recovered.features = read.features
            end = read.end
            if read.end < bytes.count {
                recovered.problem = .cacheCorrupt(
                    path: path, reason: "the build journal ends in \(bytes.count - read.end) bytes of an unfinished or damaged record")
            }
        } else {
            if !bytes.isEmpty {
                recovered.problem = .cacheStale(path: path, reason: "the build journal was written with other settings")
            }
            fresh = true
        }
        let journal = FeatureJournal(path: path, descriptor: fd, end: end, recovered: recovered)
        if fresh { try journal.write(header, at: 0) }
        guard ftruncate(fd, off_t(end)) == 0 else {
            throw failure("cannot trim the build journal: " + String(cString: strerror(errno)))
        }
        return journal
    }

    /// Appends `entries` and flushes them to the disk, so that they survive the process and the machine.
    ///
    /// - Throws: ``VisionError/cacheIO(path:reason:)`` when they cannot be written; what was written before
    ///   them stays readable.
    func append(_ entries: [(stamp: PhotoStamp, features: ImageFeatures)]) throws(VisionError) {
        guard !entries.isEmpty else { return }
        var w = ByteWriter()
        for (stamp, features) in entries {
            let start = w.bytes.count
            w.append(UInt32(0))
            w.append(string: stamp.id)
            w.append(string: stamp.path)
            w.append(stamp.size)
            w.append(stamp.seconds)
            w.append(stamp.nanoseconds)
            FeatureCoding.append(features, to: &w)
            let length = w.bytes.count - start - 4
            w.patch(UInt32(length), at: start)
            w.append(CRC32.checksum(w.bytes[(start + 4)...]))
        }
        try write(w.bytes, at: end)
        guard fdatasync(descriptor) == 0 else {
            throw .cacheIO(path: path, reason: "cannot flush the build journal: " + String(cString: strerror(errno)))
        }
        end += w.bytes.count
    }

    /// Deletes the journal: its build is finished. Only this journal's file goes: a journal another build
    /// has made at the path since is left to it.
    func remove() {
        var open = stat(), named = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &named) == 0,
              open.st_dev == named.st_dev, open.st_ino == named.st_ino else { return }
        unlink(path)
    }

    // MARK: - Private

    /// The header of a journal for features made under `key`.
    private static func header(key: String) -> [UInt8] {
        var w = ByteWriter()
        w.append(contentsOf: magic)
        w.append(formatVersion)
        w.append(string: key)
        w.append(CRC32.checksum(w.bytes))
        return w.bytes
    }

    /// The records of `bytes` from `start` on, up to the first that is cut short or damaged, and where the
    /// last whole one ends. The same stamp twice keeps the later features.
    private static func records(_ bytes: [UInt8], from start: Int, path: String) -> (features: [PhotoStamp: ImageFeatures], end: Int) {
        var features: [PhotoStamp: ImageFeatures] = [:]
        var end = start
        bytes.withUnsafeBytes { raw in
            while raw.count - end >= 8 {
                var head = ByteReader(raw, offset: end)
                guard let length = try? head.read(UInt32.self), Int(length) <= maxRecordBytes,
                      raw.count - end - 8 >= Int(length) else { return }
                let body = UnsafeRawBufferPointer(rebasing: raw[(end + 4)..<(end + 4 + Int(length))])
                var tail = ByteReader(raw, offset: end + 4 + Int(length))
                guard let stored = try? tail.read(UInt32.self), stored == CRC32.checksum(bytes: body) else { return }
                var r = ByteReader(raw, offset: end + 4, end: end + 4 + Int(length))
                guard let id = try? r.readString(maxLength: FeatureCache.maxIDBytes),
                      let photo = try? r.readString(maxLength: 1 << 16), let size = try? r.read(UInt64.self),
                      let seconds = try? r.read(Int64.self), let nanoseconds = try? r.read(Int64.self),
                      let decoded = try? FeatureCoding.read(&r, what: "a journal record", corrupt: { .cacheCorrupt(path: path, reason: $0) }),
                      r.remaining == 0
                else { return }
                features[PhotoStamp(id: id, path: photo, size: size, seconds: seconds, nanoseconds: nanoseconds)] = decoded
                end += 8 + Int(length)
            }
        }
        return (features, end)
    }

    /// Writes `bytes` at `offset`.
    private func write(_ bytes: [UInt8], at offset: Int) throws(VisionError) {
        let code = bytes.withUnsafeBytes { AtomicFile.writeAll(descriptor, $0, at: offset) }
        guard code == 0 else {
            throw .cacheIO(path: path, reason: "cannot write the build journal: " + String(cString: strerror(code)))
        }
    }
}
