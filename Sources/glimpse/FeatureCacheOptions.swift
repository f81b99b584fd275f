import ArgumentParser
import GlimpseCatalog

/// Where commands that build the visual matcher keep the catalog photos' features between runs.
struct FeatureCacheOptions: ParsableArguments {
    @Option(name: .customLong("feature-cache"), help: ArgumentHelp(
        "The catalog photos' feature cache file (default: one per catalog folder in $GLIMPSE_CACHE_DIR, "
            + "$XDG_CACHE_HOME/glimpse or ~/.cache/glimpse).",
        valueName: "file"))
    var path: String?

    @Flag(name: .customLong("no-feature-cache"), help: "Extract the catalog photos' features on every start.")
    var disabled = false

    /// The cache file for the catalog in `directory`, or `nil` when caching is off. In the shared
    /// cache folder, also marks it used and removes other catalogs' caches unused for 30 days.
    func prepare(catalogDirectory directory: String) -> String? {
        if disabled { return nil }
        if let path { return path }
        guard let shared = Catalog.defaultFeatureCachePath(forDirectory: directory) else { return nil }
        Catalog.tidyFeatureCacheFolder(keeping: shared)
        return shared
    }
}
