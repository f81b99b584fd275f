public import Foundation

extension LabelModel {
    /// The file name of the committed model, relative to a repository or install root.
    public static let conventionalPath = "Models/labels.glimpsemodel"

    /// Where the label model is looked for when none is named: `$GLIMPSE_LABEL_MODEL`; else
    /// `Models/labels.glimpsemodel` beside the catalog folder (the repository layout, `Images/` and
    /// `Models/` side by side) when that file exists; else `Models/labels.glimpsemodel` in the current
    /// directory. Every command and the daemon use this, so they find the same model wherever they
    /// are started from.
    public static func defaultPath(
        catalogDirectory: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let named = environment["GLIMPSE_LABEL_MODEL"], !named.isEmpty { return named }
        if let catalogDirectory {
            let beside = URL(fileURLWithPath: catalogDirectory).standardizedFileURL
                .deletingLastPathComponent().appendingPathComponent(conventionalPath).path
            if FileManager.default.fileExists(atPath: beside) { return beside }
        }
        return conventionalPath
    }
}
