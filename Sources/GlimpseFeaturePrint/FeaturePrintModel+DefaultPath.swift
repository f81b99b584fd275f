public import Foundation

extension FeaturePrintModel {
    /// The file name of the committed model, relative to a repository or install root.
    public static let conventionalPath = "Models/featureprint.glimpsemodel"

    /// The file name of the committed int8 model (the same network quantised), relative to a
    /// repository or install root.
    public static let conventionalInt8Path = "Models/featureprint-int8.glimpsemodel"

    /// The conventional file of a precision.
    public static func conventionalPath(precision: FeaturePrintPrecision) -> String {
        precision == .int8 ? conventionalInt8Path : conventionalPath
    }

    /// Where the model of `precision` is looked for: for ``FeaturePrintPrecision/fp32``,
    /// ``defaultPath(catalogDirectory:environment:)``; for ``FeaturePrintPrecision/int8``,
    /// `Models/featureprint-int8.glimpsemodel` beside the catalog folder when that file exists, else in the
    /// current directory (`$GLIMPSE_FEATUREPRINT_MODEL` names the fp32 file and is not read).
    public static func defaultPath(
        precision: FeaturePrintPrecision, catalogDirectory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        guard precision == .int8 else { return defaultPath(catalogDirectory: catalogDirectory, environment: environment) }
        if let catalogDirectory {
            let beside = URL(fileURLWithPath: catalogDirectory).standardizedFileURL
                .deletingLastPathComponent().appendingPathComponent(conventionalInt8Path).path
            if FileManager.default.fileExists(atPath: beside) { return beside }
        }
        return conventionalInt8Path
    }

    /// The environment variable that names the model file, overriding every other rule.
    public static let environmentVariable = "GLIMPSE_FEATUREPRINT_MODEL"

    /// Where the feature-print model is looked for when none is named, by the same rule as the label
    /// model: `$GLIMPSE_FEATUREPRINT_MODEL`; else `Models/featureprint.glimpsemodel` beside the
    /// catalog folder (the repository layout, `Images/` and `Models/` side by side) when that file
    /// exists; else `Models/featureprint.glimpsemodel` in the current directory. A missing file is
    /// reported by ``load(from:)`` as ``FeaturePrintModelError/missing(path:)``.
    public static func defaultPath(
        catalogDirectory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        if let catalogDirectory {
            let beside = URL(fileURLWithPath: catalogDirectory).standardizedFileURL
                .deletingLastPathComponent().appendingPathComponent(conventionalPath).path
            if FileManager.default.fileExists(atPath: beside) { return beside }
        }
        return conventionalPath
    }
}
