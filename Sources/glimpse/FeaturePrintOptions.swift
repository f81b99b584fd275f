import ArgumentParser
import Foundation
import GlimpseFeaturePrint

/// `--featureprint-model` and `--no-featureprint`: which feature-print network matching and labels use.
struct FeaturePrintOptions: ParsableArguments {
    @Option(name: .customLong("featureprint-model"), help: """
        The feature-print network, the matcher's second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else \
        Models/featureprint.glimpsemodel beside the catalog folder, else in the current directory; matching \
        runs on keypoints alone when none is found).
        """)
    var featurePrintModel: String?

    @Flag(name: .customLong("no-featureprint"), help: "Match on keypoints alone, without the feature print.")
    var noFeaturePrint = false

    func validate() throws {
        if noFeaturePrint && featurePrintModel != nil {
            throw ValidationError("--no-featureprint and --featureprint-model exclude each other")
        }
    }

    /// The printer pool by the shared rule (``FeaturePrinterPool/load(explicit:catalogDirectory:environment:)``),
    /// `nil` with `--no-featureprint` or when no model is found.
    func loadPrinter(catalogDirectory: String?) throws -> FeaturePrinterPool? {
        guard !noFeaturePrint else { return nil }
        do {
            return try FeaturePrinterPool.load(explicit: featurePrintModel, catalogDirectory: catalogDirectory)
        } catch {
            throw IntentsCommandError(error.description)
        }
    }
}
