public import GlimpseFeaturePrint
public import GlimpseLabels
public import GlimpseVision

/// The models an ``Engine`` runs: the feature printer and the label model, each loaded by the one rule
/// of ``ModelChoice`` (a named file must load, a conventional file is used when present, none otherwise).
///
/// Loaded apart from the engine when what is read next depends on them: a catalog store keeps each
/// photo's features under a key that names the feature printer (``featuresKey``).
public struct EngineModels: Sendable {
    /// The feature printer, when a feature-print model was loaded and is needed.
    public let featurePrinter: FeaturePrinterPool?
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
        return EngineModels(featurePrinter: printer, labeler: labeler, vision: configuration.vision)
    }

    /// The key reference features made with these models and settings are stored under
    /// (``FeatureCoding/key(configuration:printIdentity:)``).
    public var featuresKey: String {
        FeatureCoding.key(configuration: vision, printIdentity: featurePrinter?.featurePrintIdentity)
    }
}
