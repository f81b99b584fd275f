public import GlimpseFeaturePrint
public import GlimpseLabels
public import GlimpseVision
import Foundation

/// The models an ``Engine`` runs: the feature printer and the label model, each loaded by the one rule
/// of ``ModelChoice`` (a named file must load, a conventional file is used when present, none otherwise).
///
/// Loaded apart from the engine when what is read next depends on them: a catalog store keeps each
/// photo's features under a key that names the feature printer (``featuresKey``).
public struct EngineModels: Sendable {
    /// The feature printer, when a feature-print model was loaded and is needed.
    public let featurePrinter: FeaturePrinterPool?
    /// The null prints of the feature printer's network, when its `.nulls` file was found beside it.
    public let nullPrints: NullPrints?
    /// The scene labeller, when a label model was loaded.
    public let labeler: LabelPredictor?
    /// The reference extraction settings.
    public let vision: VisionConfiguration

    /// Loads what `configuration` names.
    ///
    /// - Throws: ``EngineError`` naming the model file at fault.
    public static func load(_ configuration: EngineConfiguration) throws(EngineError) -> EngineModels {
        let directory = configuration.catalogDirectory
        var printer: FeaturePrinterPool?
        if configuration.matchesPictures || configuration.labelModel != .off {
            printer = try Engine.loadPrinter(configuration.featurePrintModel, catalogDirectory: directory)
        }
        let labeler = try Engine.loadLabeler(configuration.labelModel, catalogDirectory: directory, printer: printer)
        if !configuration.matchesPictures && labeler == nil { printer = nil }
        var nulls: NullPrints?
        if let printer, configuration.matchesPictures {
            nulls = try loadNullPrints(for: printer, choice: configuration.featurePrintModel, catalogDirectory: directory)
        }
        return EngineModels(featurePrinter: printer, nullPrints: nulls, labeler: labeler, vision: configuration.vision)
    }

    /// The null prints beside the feature-print model (``NullPrints/path(besideModel:)``): `nil` when there
    /// is no such file (the print alone then accepts nothing).
    ///
    /// - Throws: ``EngineError/nullPrints(_:)`` when the file exists but is damaged, truncated or of
    ///   another network.
    static func loadNullPrints(
        for printer: FeaturePrinterPool, choice: ModelChoice, catalogDirectory: String
    ) throws(EngineError) -> NullPrints? {
        guard choice != .off else { return nil }
        let model = choice.namedFile ?? FeaturePrintModel.defaultPath(catalogDirectory: catalogDirectory)
        let path = NullPrints.path(besideModel: model)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do throws(NullPrintsError) {
            return try NullPrints.load(from: path, expectingIdentity: printer.featurePrintIdentity)
        } catch {
            throw .nullPrints(error)
        }
    }

    /// The key reference features made with these models and settings are stored under
    /// (`FeatureCoding.key(configuration:printIdentity:)`).
    public var featuresKey: String {
        FeatureCoding.key(configuration: vision, printIdentity: featurePrinter?.featurePrintIdentity)
    }
}
