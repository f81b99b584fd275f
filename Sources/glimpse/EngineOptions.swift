import ArgumentParser
import Foundation
import GlimpseEngine
import GlimpseVision

/// The catalog, feature cache and models every command that matches pictures loads
/// (`serve`, `query`, `match`, `bench`, `eval`): one set of options for the ``Engine``.
struct EngineOptions: ParsableArguments {
    @Option(help: "The catalog folder holding catalog.json.")
    var catalog = "Images"

    @OptionGroup var featureCache: FeatureCacheOptions

    @Option(name: [.customLong("label-model"), .customLong("model")], help: """
        The scene label model (default: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the \
        catalog folder, else in the current directory; labels are derived only from a matched place when \
        none is found). A named file must exist.
        """)
    var labelModel: String?

    @OptionGroup var featurePrint: FeaturePrintOptions

    @Option(name: .customLong("matcher-index"), help: ArgumentHelp("""
        Save the built matcher (prints, keypoints and shortlist index) to this file, and load it at the next \
        start instead of extracting and indexing the catalog photos; a missing, stale or damaged file is \
        rebuilt. On a catalog store, a start loads the file and adds or removes the photos edited since, and \
        the file is saved again once edits settle. For large catalogs.
        """, valueName: "file"))
    var matcherIndex: String?

    @OptionGroup var largeCatalog: LargeCatalogOptions

    /// What the engine loads, by these options.
    func configuration() -> EngineConfiguration {
        var configuration = EngineConfiguration(catalogDirectory: catalog)
        configuration.featureCache = featureCache.prepare(catalogDirectory: catalog)
        configuration.labelModel = ModelChoice(path: labelModel)
        configuration.featurePrintModel = featurePrint.choice(catalogDirectory: catalog)
        configuration.matcherIndex = matcherIndex
        configuration.vision = largeCatalog.applied(to: configuration.vision)
        configuration.keypointSlots = largeCatalog.keypointSlots
        return configuration
    }

    /// Loads the engine these options describe, after `adjust` has changed its configuration; a long build
    /// says how far it has come on standard error (``BuildProgressReport``), and so does each damaged keypoint
    /// slot, unless `adjust` reports otherwise.
    func load(
        command: String, _ adjust: (inout EngineConfiguration) -> Void = { _ in }
    ) async throws(EngineError) -> Engine {
        var configuration = configuration()
        configuration.buildProgress = BuildProgressReport.standardError(command)
        configuration.keypointSlotEvents = { event in
            switch event {
            case .damaged(let damage):
                FileHandle.standardError.write(Data(
                    "glimpse \(command): warning: \(damage); its reference is re-extracted from its photo\n".utf8))
            case .writesRefused(let path, let count, let reason):
                FileHandle.standardError.write(Data(
                    "glimpse \(command): warning: \(count) photos' keypoints held in memory, not in \(path): \(reason)\n".utf8))
            case .repaired, .notRepaired:
                break
            }
        }
        adjust(&configuration)
        return try await Engine.load(configuration)
    }
}
