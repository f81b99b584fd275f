/// Why the bytes of a Glimpse model file were refused: the checks every model file format makes
/// (the feature-print model and the label model), in the order loading meets them.
///
/// Each model's own error wraps this one (`FeaturePrintModelError.file`, `LabelModelError.file`) and
/// says, through ``sentence(model:hint:)``, which model it was and how to get a good file.
public enum ModelFileError: Sendable, Equatable {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file does not start with the model's magic bytes.
    case notAModelFile(path: String)
    /// The file's length is not the one its header gives: it was cut short or has bytes after its end.
    case truncated(path: String, expected: Int, actual: Int)
    /// The file is of a format version this build does not read; `supported` are the versions it reads.
    case unsupportedFormatVersion(path: String, found: UInt16, supported: ClosedRange<UInt16>)
    /// The stored checksum does not match the contents: the file was damaged.
    case checksumMismatch(path: String, stored: UInt32, computed: UInt32)
    /// The contents are inconsistent: a count, kind, id, shape, length or index is out of range.
    case malformed(path: String, reason: String)

    /// The file the problem is in.
    public var path: String {
        switch self {
        case let .unreadable(path, _), let .notAModelFile(path), let .truncated(path, _, _),
             let .unsupportedFormatVersion(path, _, _), let .checksumMismatch(path, _, _), let .malformed(path, _):
            path
        }
    }

    /// A sentence that says what was wrong with the file of the `model` (such as `label model`) and
    /// what to do: `hint`, which says how to get a good file.
    public func sentence(model: String, hint: String) -> String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read \(model) \(path): \(reason); check the file is readable, or \(hint)"
        case let .notAModelFile(path):
            "\(path) is not a Glimpse \(model) (wrong magic bytes); \(hint)"
        case let .truncated(path, expected, actual):
            "\(model) \(path) is \(actual) bytes but its header says \(expected): the file is truncated or "
                + "damaged; \(hint)"
        case let .unsupportedFormatVersion(path, found, supported):
            "\(model) \(path) has format version \(found) but this build reads "
                + (supported.count == 1 ? "version \(supported.lowerBound)" : "versions \(supported.lowerBound) to \(supported.upperBound)")
                + "; \(hint)"
        case let .checksumMismatch(path, stored, computed):
            "\(model) \(path) is damaged: stored checksum \(CRC32.hex(stored)) but the contents give "
                + "\(CRC32.hex(computed)); \(hint)"
        case let .malformed(path, reason):
            "\(model) \(path) is malformed: \(reason); \(hint)"
        }
    }
}
