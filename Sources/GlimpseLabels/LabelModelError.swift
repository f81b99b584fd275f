/// Why a label model could not be loaded, saved or assembled.
///
/// Every description names the file and says how to get a good one: `glimpse models build`.
public enum LabelModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file does not start with the label-model magic bytes.
    case notAModelFile(path: String)
    /// The file was written in a format version this build does not read.
    case unsupportedFormatVersion(path: String, found: UInt16, supported: UInt16)
    /// The file is shorter (or longer) than its header says.
    case truncated(path: String, expected: Int, actual: Int)
    /// The stored checksum does not match the contents: the file was damaged.
    case checksumMismatch(path: String, stored: UInt32, computed: UInt32)
    /// The contents are inconsistent (a count, length or index out of range).
    case malformed(path: String, reason: String)
    /// The model's vectors were made by a feature extractor (or settings) this build does not compute.
    case extractorMismatch(path: String, model: String, current: String)
    /// The parts given to ``LabelModel/init(extractor:vote:vocabulary:references:vectors:)`` disagree.
    case invalidModel(reason: String)
    /// The model could not be written; the previous file, if any, is untouched.
    case writeFailed(path: String, reason: String)
    /// The new model replaced the file, but flushing its directory failed: a crash now could bring
    /// the previous file back.
    case writtenButNotDurable(path: String, reason: String)

    static let rebuildHint = "rebuild it with `glimpse models build` (see Models/README.md)"

    /// A sentence that says what was wrong and what to do.
    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read label model \(path): \(reason); pass --model PATH or \(Self.rebuildHint)"
        case let .notAModelFile(path):
            "\(path) is not a Glimpse label model (wrong magic bytes); \(Self.rebuildHint)"
        case let .unsupportedFormatVersion(path, found, supported):
            "label model \(path) has format version \(found) but this build reads version \(supported); "
                + Self.rebuildHint
        case let .truncated(path, expected, actual):
            "label model \(path) is \(actual) bytes but its header says \(expected): the file is truncated "
                + "or damaged; \(Self.rebuildHint)"
        case let .checksumMismatch(path, stored, computed):
            "label model \(path) is damaged: stored checksum \(hex(stored)) but the contents give \(hex(computed)); "
                + Self.rebuildHint
        case let .malformed(path, reason):
            "label model \(path) is malformed: \(reason); \(Self.rebuildHint)"
        case let .extractorMismatch(path, model, current):
            "label model \(path) was built with feature extractor \(model), but this build computes "
                + "\(current); \(Self.rebuildHint)"
        case let .invalidModel(reason):
            "invalid label model: \(reason)"
        case let .writeFailed(path, reason):
            "cannot write label model \(path): \(reason); check the directory exists and is writable "
                + "(the previous file, if any, is untouched)"
        case let .writtenButNotDurable(path, reason):
            "label model \(path) was replaced but \(reason); a crash now could bring the previous file "
                + "back: check the file system and save again"
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
