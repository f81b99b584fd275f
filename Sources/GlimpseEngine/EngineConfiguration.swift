public import GlimpseCatalog
public import GlimpseVision

/// Which model file the engine loads, by the one rule every command and the daemon share.
public enum ModelChoice: Sendable, Hashable {
    /// The conventional file when it exists: the model's environment variable
    /// (`$GLIMPSE_LABEL_MODEL`, `$GLIMPSE_FEATUREPRINT_MODEL`), else `Models/<name>.glimpsemodel`
    /// beside the catalog folder, else in the current directory. When none exists the engine runs
    /// without that model; when one exists it must load.
    case automatic
    /// This file, which must exist and load.
    case file(String)
    /// No model.
    case off

    /// `.file(path)` for a named path, `.automatic` for `nil`: how a command-line option maps.
    public init(path: String?) {
        self = path.map(ModelChoice.file) ?? .automatic
    }

    /// The file a `.file` choice names; `nil` for `.automatic` and `.off`, whose file (if any) comes from
    /// the model's own default rule (`FeaturePrintModel.defaultPath(catalogDirectory:environment:)`,
    /// `LabelModel.defaultPath(catalogDirectory:environment:)`).
    public var namedFile: String? {
        if case .file(let path) = self { path } else { nil }
    }
}

/// What an ``Engine`` loads: the catalog folder, its reference features, the two models and the
/// matching settings.
public struct EngineConfiguration: Sendable {
    /// The folder holding `catalog.json`.
    public var catalogDirectory: String
    /// The scene label model. Without one, labels come from the caller or the matched place only.
    public var labelModel: ModelChoice = .automatic
    /// The feature-print network, the matcher's second signal and the label model's features.
    /// Without one, matching runs on keypoints alone.
    public var featurePrintModel: ModelChoice = .automatic
    /// The feature cache file for the reference photos, or `nil` to extract them at every load.
    public var featureCache: String?
    /// Whether pictures are matched at all. Without matching, the engine answers labels and cursors
    /// only and loads neither the reference features nor the feature print (a quick start for
    /// `glimpse query --labels`).
    public var matchesPictures = true
    /// Keypoint, shortlist, verification and decoding settings.
    public var vision: VisionConfiguration = .default
    /// Only these places are registered with the matcher (`nil`: every place). Evaluation leaves
    /// places out this way to measure pictures of places the matcher does not know.
    public var placeIDs: Set<String>?
    /// Synthetic references added to the matcher: perturbed copies of real descriptors that crowd the
    /// shortlist but never verify, to measure matching at a larger catalog size. 0 in service.
    public var syntheticReferences = 0
    /// Photos of no catalog place to make the synthetic references from (`Distractors`: real
    /// descriptors of these photos at real layouts) instead of perturbed copies of the catalog's own
    /// descriptors; `nil` keeps the copies.
    public var distractorPool: [ReferencePhoto]?
    /// A path for a new file of the references' full keypoint sets, which verification reads back while
    /// memory keeps only what the shortlist indexes (`VisionConfiguration.indexedKeypointLimit`); `nil`
    /// holds everything in memory.
    public var keypointSlots: String?
    /// A file the built matcher is saved to and loaded from (`MatcherIndexFile`): a start on the same
    /// photos and settings loads it instead of extracting and indexing; a missing, stale or damaged one is
    /// rebuilt and saved again. `nil` builds at every start.
    public var matcherIndex: String?
    /// Told how far building the matcher has come (`MatcherBuildProgress`): each step as it starts and
    /// ends, the distractors after every batch. The daemon logs it; `nil` says nothing.
    public var buildProgress: (@Sendable (MatcherBuildProgress) -> Void)?
    /// Told of each keypoint slot found damaged (once per slot) and of each repair of the references whose
    /// slots were (`KeypointSlotEvent`, see `Engine.keypointSlotHealth`). The daemon logs it; `nil` says
    /// nothing (the damage is still counted and repaired).
    public var keypointSlotEvents: (@Sendable (KeypointSlotEvent) -> Void)?
    /// The key that signs cursors. Daemons that share cursors use one key.
    public var cursorKey: CursorKey = .random()
    /// Page sizes and label-fit limits of the visual search.
    public var search = VisualSearchQuery.Configuration()
    /// How long after the last catalog update the matcher's added and removed references are folded
    /// into one segment, in the background, so that queries cost what they cost on a catalog loaded at
    /// start (a second segment costs a second index lookup per query descriptor). `nil` folds only when
    /// the changes grow large (`VisualMatcher.needsCompaction`). Above `VisualMatcher.quietFoldLimit`
    /// references a quiet spell folds only the additions, once they are large (`VisualMatcher.foldWhenQuiet`).
    public var compactionQuietPeriod: Duration? = .seconds(1)

    /// A configuration for the catalog in `catalogDirectory`, with both models found by the default
    /// rule and no feature cache.
    public init(catalogDirectory: String) {
        self.catalogDirectory = catalogDirectory
    }
}
