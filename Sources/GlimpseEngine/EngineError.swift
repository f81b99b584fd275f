public import GlimpseCatalog
public import GlimpseFeaturePrint
import GlimpseFiles
public import GlimpseLabels
public import GlimpseVision

/// Why an ``Engine`` could not load: each case says which file is at fault and what to do.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The catalog could not be loaded, or one of its reference photos could not be decoded.
    case catalog(CatalogError)
    /// A named label model does not exist.
    case labelModelMissing(path: String)
    /// The label model exists but does not load.
    case labelModel(LabelModelError)
    /// The feature-print model was named, or exists, but does not load.
    case featurePrintModel(FeaturePrintModelError)
    /// The null prints beside the feature-print model exist but cannot be used.
    case nullPrints(NullPrintsError)

    /// Whether the fault is a file that is missing or cannot be read (rather than one that is invalid):
    /// the daemon exits 66 for these and 65 for the others, as `sysexits.h` asks.
    public var isMissingFile: Bool {
        switch self {
        case .catalog(.unreadable), .catalog(.derivedFile), .labelModelMissing, .labelModel(.file(.unreadable)): true
        default: false
        }
    }

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case .catalog(let error):
            if case .derivedFile = error { error.description } else { "cannot load the catalog: \(error)" }
        case .labelModelMissing(let path):
            "the label model \(path) does not exist; build it with `glimpse models build`, or leave the option "
                + "out to run without derived labels when none is found"
        case .labelModel(let error):
            "cannot load the label model: \(error)"
        case .featurePrintModel(let error):
            "cannot load the feature-print model: \(error)"
        case .nullPrints(let error):
            "cannot use the null prints: \(error)"
        }
    }
}
