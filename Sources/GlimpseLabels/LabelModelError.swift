public import GlimpseFiles

/// Why a label model could not be loaded, saved or assembled.
///
/// Every description names the file and says how to get a good one: `glimpse models build`.
public enum LabelModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read or its bytes were refused: the checks every model file makes.
    case file(ModelFileError)
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
        case let .file(problem):
            problem.sentence(model: "label model", hint: Self.rebuildHint)
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
