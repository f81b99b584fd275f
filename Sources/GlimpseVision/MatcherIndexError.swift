public import GlimpseFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a matcher's index file (``MatcherIndexFile``) was refused or could not be written.
///
/// An index file holds data derived from the catalog, so every kind of damage or staleness has one remedy,
/// which ``description`` gives and ``isRebuildable`` tells a caller that rebuilds by itself: build the
/// matcher from the photos again and save it over the file.
public enum MatcherIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with an index file's magic bytes.
    case notAnIndexFile(path: String)
    /// The file is of a format version this build does not read.
    case unsupportedVersion(path: String, found: Int, supported: Int)
    /// The file was written on a machine of the other byte order.
    case wrongByteOrder(path: String)
    /// The header's checksum does not match its bytes.
    case headerChecksum(path: String)
    /// The file's size is not the one its header declares.
    case wrongSize(path: String, size: Int, declared: Int)
    /// The file was built with other settings, another feature-print network or from other photos: its
    /// tag is `found` where `expected` was asked for.
    case builtForOther(path: String, expected: String, found: String)
    /// The checksum over the whole file does not match its bytes.
    case checksum(path: String)
    /// The file's parts do not fit together (a section's length or a value out of range).
    case malformed(path: String, reason: String)
    /// The keypoint slot file the index verifies from is missing, damaged, or not the one it was built with.
    case keypointSlots(path: String, reason: String)
    /// The system refused a step of reading or writing the file.
    case io(FileError)

    /// Whether the file is damaged, stale or foreign (or its keypoint file is): its contents cannot be used,
    /// and the remedy is to rebuild it. A missing file is rebuildable too.
    public var isRebuildable: Bool {
        switch self {
        case .io: isMissing
        default: true
        }
    }

    /// Whether there is no file at the path (nothing was saved there yet).
    public var isMissing: Bool {
        if case .io(let error) = self { error.code == ENOENT } else { false }
    }

    /// A sentence that names the file, says what is wrong and what to do about it.
    public var description: String {
        let rebuild = "it holds derived data: delete it, or let Glimpse build the index again and save it"
        switch self {
        case .notAnIndexFile(let path):
            return "\(path) is not a Glimpse matcher index; \(rebuild)"
        case .unsupportedVersion(let path, let found, let supported):
            return "\(path) is a matcher index of version \(found), and this build reads version \(supported); \(rebuild)"
        case .wrongByteOrder(let path):
            return "\(path) was written on a machine of the other byte order; \(rebuild)"
        case .headerChecksum(let path):
            return "\(path) has a damaged header (its checksum does not match); \(rebuild)"
        case .wrongSize(let path, let size, let declared):
            return "\(path) is \(size) bytes where its header declares \(declared) (truncated or appended to); \(rebuild)"
        case .builtForOther(let path, _, _):
            return "\(path) was built from other photos, or with other settings or another feature-print network; \(rebuild)"
        case .checksum(let path):
            return "\(path) is damaged (its checksum does not match); \(rebuild)"
        case .malformed(let path, let reason):
            return "\(path) is malformed: \(reason); \(rebuild)"
        case .keypointSlots(let path, let reason):
            return "the keypoint file of the index \(path) cannot be used: \(reason); \(rebuild)"
        case .io(let error):
            return error.description
        }
    }
}
