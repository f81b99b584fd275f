public import GlimpseFiles

/// Why a feature-print model could not be found, loaded or assembled.
///
/// Every description names the file and says how to get a good one.
public enum FeaturePrintModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file at the path.
    case missing(path: String)
    /// The file could not be read or its bytes were refused: the checks every model file makes.
    case file(ModelFileError)
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
        case let .file(problem):
            problem.sentence(model: "feature-print model", hint: Self.rebuildHint)
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
