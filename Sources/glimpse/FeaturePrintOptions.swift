import ArgumentParser
import Foundation
import GlimpseEngine

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

    /// Which network the engine loads: none with `--no-featureprint`, the named file, or the default rule.
    var choice: ModelChoice {
        noFeaturePrint ? .off : ModelChoice(path: featurePrintModel)
    }
}
