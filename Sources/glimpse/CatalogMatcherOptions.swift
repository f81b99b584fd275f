import ArgumentParser
import GlimpseBatch

/// The catalog, feature cache and label model of commands that match pictures in process
/// (`glimpse match`, `glimpse bench`).
struct CatalogMatcherOptions: ParsableArguments {
    @Option(help: "The catalog folder (holding catalog.json).")
    var catalog = "Images"

    @OptionGroup var featureCache: FeatureCacheOptions

    @Option(help: """
        The scene label model (default: $GLIMPSE_LABEL_MODEL, else Models/labels.glimpsemodel beside the \\
        catalog folder, else in the current directory; labels are left out when none is found).
        """)
    var labelModel: String?

    @OptionGroup var featurePrint: FeaturePrintOptions

    /// The matcher over the catalog, with the label model when one is found.
    func load() async throws(CatalogMatcherError) -> CatalogMatcher {
        try await CatalogMatcher.load(catalogDirectory: catalog, labelModel: labelModel,
                                      featureCache: featureCache.prepare(catalogDirectory: catalog),
                                      featurePrintModel: featurePrint.featurePrintModel,
                                      featurePrint: !featurePrint.noFeaturePrint)
    }
}
