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

    /// The precision every command and the daemon run when no model file or precision is named: int8, the
    /// same network in 8-bit integers (about 2.5 times as fast as fp32, prints within cosine 0.98 of fp32's
    /// on every catalog photo, and the same answers on the evaluation sets; `Models/README.md`).
    public static let defaultPrecision = FeaturePrintPrecision.int8

    /// Where the model of `precision` is looked for when that precision is asked for by name: its
    /// conventional file (``conventionalPath(precision:)``) beside the catalog folder when that file exists,
    /// else in the current directory. `$GLIMPSE_FEATUREPRINT_MODEL` is not read: it names a file, whose
    /// precision is its own.
    public static func defaultPath(precision: FeaturePrintPrecision, catalogDirectory: String? = nil) -> String {
        let conventional = conventionalPath(precision: precision)
        if let catalogDirectory {
            let beside = URL(fileURLWithPath: catalogDirectory).standardizedFileURL
                .deletingLastPathComponent().appendingPathComponent(conventional).path
            if FileManager.default.fileExists(atPath: beside) { return beside }
        }
        return conventional
    }

    /// The environment variable that names the model file, overriding every other rule.
    public static let environmentVariable = "GLIMPSE_FEATUREPRINT_MODEL"

    /// Where the feature-print model is looked for when none is named, by the same rule as the label
    /// model: `$GLIMPSE_FEATUREPRINT_MODEL`; else the file of ``defaultPrecision``
    /// (`Models/featureprint-int8.glimpsemodel`) beside the catalog folder (the repository layout,
    /// `Images/` and `Models/` side by side) when that file exists; else that file in the current
    /// directory. A missing file is reported by ``load(from:)`` as ``FeaturePrintModelError/missing(path:)``.
    public static func defaultPath(
        catalogDirectory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        return defaultPath(precision: defaultPrecision, catalogDirectory: catalogDirectory)
    }
}
