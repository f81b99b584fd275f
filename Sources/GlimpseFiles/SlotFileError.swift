/// Why a ``SlotFile`` was refused or could not be read or written.
///
/// A slot file holds data derived from a catalog (compact features), so every kind of damage has one
/// remedy, which ``description`` gives: delete the file and let it be rebuilt. ``isDamage`` tells a caller
/// that rebuilds by itself which errors call for it.
public enum SlotFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with a slot file's magic bytes.
    case notASlotFile(path: String)
    /// The file is a slot file of a version this build does not read.
    case unsupportedVersion(path: String, found: UInt32)
    /// The header's checksum does not match its bytes.
    case headerChecksum(path: String)
    /// The file is shorter than its header says, or than a slot read needs (`size` bytes where at least
    /// `expected` are needed): cut short, or shortened by another program while open.
    case truncated(path: String, size: Int, expected: Int)
    /// The file's slots are `found` bytes long where the reader expects `expected`.
    case slotSizeMismatch(path: String, expected: Int, found: Int)
    /// The file was made for other settings or another source: its identity tag is `found`.
    case identityMismatch(path: String, expected: String, found: String)
    /// Slot `slot` lies beyond the file's `count` slots.
    case slotOutOfRange(path: String, slot: Int, count: Int)
    /// Slot `slot`'s checksum does not match its bytes.
    case slotChecksum(path: String, slot: Int)
    /// Slot `slot` belongs to `found` (0 when it is free), not to the `expected` owner.
    case ownerMismatch(path: String, slot: Int, expected: UInt64, found: UInt64)
    /// A payload of `size` bytes does not fit a slot's `limit` (or is empty).
    case payloadSize(path: String, size: Int, limit: Int)
    /// An identity tag of `size` bytes is longer than the header's `limit`.
    case tagTooLong(size: Int, limit: Int)
    /// The file was opened for reading, and a write was asked for.
    case readOnly(path: String)
    /// Another process has the file open for writing.
    case busy(path: String)
    /// The system refused a step of opening, growing, writing, flushing or mapping the file.
    case io(FileError)

    /// Whether the file is damaged, stale or foreign: its contents cannot be used, and the remedy is to
    /// rebuild it.
    public var isDamage: Bool {
        switch self {
        case .notASlotFile, .unsupportedVersion, .headerChecksum, .truncated, .slotSizeMismatch,
             .identityMismatch, .slotOutOfRange, .slotChecksum, .ownerMismatch:
            true
        case .payloadSize, .tagTooLong, .readOnly, .busy, .io:
            false
        }
    }

    /// A sentence that names the file, says what is wrong and what to do about it.
    public var description: String {
        let rebuild = "it holds derived data: delete it and it is rebuilt from the catalog"
        switch self {
        case .notASlotFile(let path):
            return "\(path) is not a Glimpse slot file; \(rebuild)"
        case .unsupportedVersion(let path, let found):
            return "\(path) is a slot file of version \(found), which this build does not read; \(rebuild)"
        case .headerChecksum(let path):
            return "\(path) has a damaged header (its checksum does not match); \(rebuild)"
        case .truncated(let path, let size, let expected):
            return "\(path) is truncated: \(size) bytes where at least \(expected) are needed (cut short, or shortened by another program); \(rebuild)"
        case .slotSizeMismatch(let path, let expected, let found):
            return "\(path) has slots of \(found) bytes where \(expected) are expected (another feature profile); \(rebuild)"
        case .identityMismatch(let path, let expected, let found):
            return "\(path) was made for \"\(found)\", not \"\(expected)\" (other settings, model or catalog); \(rebuild)"
        case .slotOutOfRange(let path, let slot, let count):
            return "\(path) has \(count) slots and slot \(slot) was asked for (an index that does not belong to it); \(rebuild)"
        case .slotChecksum(let path, let slot):
            return "\(path) has a damaged slot \(slot) (its checksum does not match); \(rebuild)"
        case .ownerMismatch(let path, let slot, let expected, let found):
            let holder = found == 0 ? "is free" : "belongs to \(Self.hex(found))"
            return "slot \(slot) of \(path) \(holder), not to \(Self.hex(expected)) (an index that does not match the file); \(rebuild)"
        case .payloadSize(let path, let size, let limit):
            return "a payload of \(size) bytes does not fit a slot of \(path) (1 to \(limit) bytes); reduce the features first"
        case .tagTooLong(let size, let limit):
            return "an identity tag of \(size) bytes is longer than a slot file's \(limit)-byte limit; shorten it"
        case .readOnly(let path):
            return "\(path) was opened for reading and cannot be written; open it for writing"
        case .busy(let path):
            return "\(path) is open for writing in another process; stop it, or use another file"
        case .io(let error):
            return error.description
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
