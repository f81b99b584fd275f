public import Foundation

extension FeaturePrinterPool {
    /// The printer pool every command and the daemon use, by one rule: the model at `explicit` when a
    /// path is named (an error when it does not load); else the model at
    /// ``FeaturePrintModel/defaultPath(catalogDirectory:environment:)`` when that file exists; else
    /// `nil`, and matching and labels run without a feature print.
    ///
    /// - Throws: ``FeaturePrintModelError`` when a named file, or a default file that exists, does not load.
    public static func load(
        explicit: String?, catalogDirectory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(FeaturePrintModelError) -> FeaturePrinterPool? {
        let path = explicit ?? FeaturePrintModel.defaultPath(catalogDirectory: catalogDirectory, environment: environment)
        if explicit == nil && !FileManager.default.fileExists(atPath: path) { return nil }
        return FeaturePrinterPool(model: try FeaturePrintModel.load(from: path))
    }
}
