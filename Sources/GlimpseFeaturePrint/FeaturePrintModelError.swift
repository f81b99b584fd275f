/// Why a feature-print model could not be found, loaded or assembled.
///
/// Every description names the file and says how to get a good one. The file's cases come in the
/// order loading meets them.
public enum FeaturePrintModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file at the path.
    case missing(path: String)
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file does not start with the feature-print magic bytes.
    case notAModelFile(path: String)
    /// The file's length is not the one its header gives: it was cut short or has bytes after its end.
    case truncated(path: String, expected: Int, actual: Int)
    /// The file is of a feature-print format version this build does not read.
    case unsupportedFormatVersion(path: String, found: UInt16, supported: UInt16)
    /// The stored checksum does not match the contents: the file was damaged.
    case checksumMismatch(path: String, stored: UInt32, computed: UInt32)
    /// The contents are inconsistent: a count, kind, id, shape or length is out of range.
    case malformed(path: String, reason: String)
    /// The parts given to ``FeaturePrintModel/init(network:provenance:input:weightType:valueCount:embeddingValue:logitsValue:layers:)``
    /// disagree.
    case invalidModel(reason: String)

    static let rebuildHint = "check out the file from the repository's Models/ folder or rebuild it "
        + "with scripts/convert-featureprint.sh (see Models/README.md)"

    /// A sentence that says what was wrong and what to do.
    public var description: String {
        switch self {
        case let .missing(path):
            "feature-print model \(path) does not exist; set GLIMPSE_FEATUREPRINT_MODEL to the file's path, or "
                + Self.rebuildHint
        case let .unreadable(path, reason):
            "cannot read feature-print model \(path): \(reason); check the file is readable, or "
                + Self.rebuildHint
        case let .notAModelFile(path):
            "\(path) is not a Glimpse feature-print model (wrong magic bytes); \(Self.rebuildHint)"
        case let .unsupportedFormatVersion(path, found, supported):
            "feature-print model \(path) has format version \(found) but this build reads versions 1 (float) to "
                + "\(supported) (int8); "
                + Self.rebuildHint
        case let .truncated(path, expected, actual):
            "feature-print model \(path) is \(actual) bytes but its header says \(expected): the file is "
                + "truncated or damaged; \(Self.rebuildHint)"
        case let .checksumMismatch(path, stored, computed):
            "feature-print model \(path) is damaged: stored checksum \(hex(stored)) but the contents give "
                + "\(hex(computed)); \(Self.rebuildHint)"
        case let .malformed(path, reason):
            "feature-print model \(path) is malformed: \(reason); \(Self.rebuildHint)"
        case let .invalidModel(reason):
            "invalid feature-print model: \(reason)"
        }
    }
}

/// Why a feature print could not be computed.
public enum FeaturePrintError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The inference engine (XNNPACK) could not run the model on this machine.
    case engineUnavailable(reason: String)
    /// The network input given to a low-level call is not `size × size` pixels.
    case wrongInputSize(width: Int, height: Int, expected: Int)
    /// The engine failed while running the network.
    case runFailed(reason: String)

    /// A sentence that says what was wrong and what to do.
    public var description: String {
        switch self {
        case let .engineUnavailable(reason):
            "the feature-print engine cannot run: \(reason); check that libxnnpack0 is installed "
                + "(scripts/setup.sh) and that the processor has SSE2"
        case let .wrongInputSize(width, height, expected):
            "the network input is \(width)×\(height) pixels but the model takes \(expected)×\(expected); "
                + "call featurePrint(of:) to resize any image"
        case let .runFailed(reason):
            "the feature-print network failed to run: \(reason)"
        }
    }
}

func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
