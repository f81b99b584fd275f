import ArgumentParser
import Foundation
import GlimpseEngine
import GlimpseFeaturePrint

/// `--featureprint-model`, `--featureprint-precision` and `--no-featureprint`: which feature-print network
/// matching and labels use.
struct FeaturePrintOptions: ParsableArguments {
    @Option(name: .customLong("featureprint-model"), help: """
        The feature-print network, the matcher's second signal (default: $GLIMPSE_FEATUREPRINT_MODEL, else \
        Models/featureprint-int8.glimpsemodel beside the catalog folder, else in the current directory; \
        matching runs on keypoints alone when none is found).
        """)
    var featurePrintModel: String?

    @Option(name: .customLong("featureprint-precision"), help: """
        The feature print's arithmetic: int8 (the default; Models/featureprint-int8.glimpsemodel) or fp32 \
        (Models/featureprint.glimpsemodel, about 2.5 times as slow), each beside the catalog folder, else in the \
        current directory. Prints and reference caches of the two are kept apart.
        """)
    var precision: Precision?

    /// The values of `--featureprint-precision`.
    enum Precision: String, ExpressibleByArgument, CaseIterable {
        case fp32, int8

        /// The library's precision of the same name.
        var precision: FeaturePrintPrecision { self == .int8 ? .int8 : .fp32 }
    }

    @Flag(name: .customLong("no-featureprint"), help: "Match on keypoints alone, without the feature print.")
    var noFeaturePrint = false

    func validate() throws {
        if noFeaturePrint && (featurePrintModel != nil || precision != nil) {
            throw ValidationError("--no-featureprint excludes --featureprint-model and --featureprint-precision")
        }
        if featurePrintModel != nil && precision != nil {
            throw ValidationError("--featureprint-model and --featureprint-precision exclude each other: a model "
                + "file carries its precision")
        }
    }

    /// Which network the engine loads: none with `--no-featureprint`, the named file, the file of the
    /// precision named by `--featureprint-precision` (which must exist), or the default rule.
    func choice(catalogDirectory: String?) -> ModelChoice {
        if noFeaturePrint { return .off }
        if let precision {
            return .file(FeaturePrintModel.defaultPath(precision: precision.precision, catalogDirectory: catalogDirectory))
        }
        return ModelChoice(path: featurePrintModel)
    }
}
