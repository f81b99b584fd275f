import GlimpseFiles

/// Why an index file could not be written, read or trusted.
///
/// A file that fails any check is never used; the descriptions say what was found and how to recover
/// (rebuild the index from its source vectors and save it again).
public enum IndexFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened, measured or read; `errno` is the system error number.
    case cannotRead(path: String, errno: Int32)
    /// `operation` (open, write, fsync, close, rename) failed while saving; `errno` is the system error number.
    case cannotWrite(path: String, operation: String, errno: Int32)
    /// The disk or quota is full; the previous file, if any, is untouched.
    case noSpace(path: String)
    /// The new file replaced the old one, but `operation` on its directory failed: a crash now could
    /// bring the previous file back.
    case savedButNotDurable(path: String, operation: String, errno: Int32)
    /// The file is shorter than its header says: it was cut off.
    case truncated(expectedBytes: Int, actualBytes: Int)
    /// The file is longer than its header says.
    case trailingBytes(expectedBytes: Int, actualBytes: Int)
    /// The file does not start with the index magic: it is not an index file.
    case notAnIndexFile
    /// The file's format version is not one this build reads.
    case unsupportedVersion(found: Int, supported: Int)
    /// The byte-order marker is wrong: the file was written on a machine of another byte order, or damaged.
    case wrongByteOrder
    /// The header's own checksum does not match: the header is damaged.
    case headerChecksumMismatch(declared: UInt32, computed: UInt32)
    /// The whole-file checksum does not match: the contents are damaged.
    case checksumMismatch(declared: UInt32, computed: UInt32)
    /// The index kind code is unknown.
    case unknownKind(Int)
    /// The metric code is unknown.
    case unknownMetric(Int)
    /// The file holds a different kind of index than the caller asked for.
    case kindMismatch(expected: String, found: String)
    /// The file's vectors have another dimension than the caller's feature extractor produces.
    case dimensionMismatch(expected: Int, found: Int)
    /// The file was made for another feature extractor or data set (its tag differs).
    case tagMismatch(expected: String, found: String)
    /// The checksum matched but the contents are inconsistent; `reason` says where.
    case malformed(String)

    static let rebuild = "rebuild the index from its source vectors and save it again"

    /// A sentence that says what was wrong and how to recover.
    public var description: String {
        switch self {
        case let .cannotRead(path, errno):
            return "cannot read index file \(path) (errno \(errno)); check that it exists and is readable"
        case let .cannotWrite(path, operation, errno):
            return "cannot save index file \(path): \(operation) failed (errno \(errno)); the previous file is untouched"
        case let .savedButNotDurable(path, operation, errno):
            return "index file \(path) was replaced but \(operation) failed (errno \(errno)); a crash now could "
                + "bring the previous file back: check the file system and save again"
        case let .noSpace(path):
            return "no space left to save index file \(path); free disk space and save again (the previous file is untouched)"
        case let .truncated(expected, actual):
            return "index file is truncated: \(actual) of \(expected) bytes; \(Self.rebuild)"
        case let .trailingBytes(expected, actual):
            return "index file has \(actual) bytes but its header describes \(expected); \(Self.rebuild)"
        case .notAnIndexFile:
            return "not a Glimpse index file (wrong magic); check the path, or \(Self.rebuild)"
        case let .unsupportedVersion(found, supported):
            return found > supported
                ? "index file format \(found) is newer than this build reads (\(supported)); upgrade, or \(Self.rebuild)"
                : "index file format \(found) is not supported (this build reads \(supported)); \(Self.rebuild)"
        case .wrongByteOrder:
            return "index file byte-order marker is wrong; \(Self.rebuild) on this machine"
        case let .headerChecksumMismatch(declared, computed):
            return "index file header is damaged (checksum \(CRC32.hex(declared)) ≠ \(CRC32.hex(computed))); \(Self.rebuild)"
        case let .checksumMismatch(declared, computed):
            return "index file is damaged (checksum \(CRC32.hex(declared)) ≠ \(CRC32.hex(computed))); \(Self.rebuild)"
        case let .unknownKind(code):
            return "index file holds an unknown index kind (\(code)); upgrade, or \(Self.rebuild)"
        case let .unknownMetric(code):
            return "index file uses an unknown metric (\(code)); upgrade, or \(Self.rebuild)"
        case let .kindMismatch(expected, found):
            return "index file holds a \(found) index, not a \(expected) index; load it as \(found) or \(Self.rebuild)"
        case let .dimensionMismatch(expected, found):
            return "index file holds \(found)-dimensional vectors but \(expected) were expected; "
                + "it was built by another feature extractor: \(Self.rebuild)"
        case let .tagMismatch(expected, found):
            return "index file was built for '\(found)', not '\(expected)'; \(Self.rebuild)"
        case let .malformed(reason):
            return "index file is inconsistent: \(reason); \(Self.rebuild)"
        }
    }
}
