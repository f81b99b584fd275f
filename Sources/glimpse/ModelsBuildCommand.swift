import ArgumentParser
import Foundation
import GlimpseBasics
import GlimpseFeaturePrint
import GlimpseLabels

/// `glimpse models build`: rebuilds the label model from labelled photos.
struct ModelsBuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Rebuild the label model from labelled photos.",
        discussion: """
            References are the catalog's place photos (with their catalog.json labels) and the photos of \
            every --labelled folder. Each photo's feature vector is stored with its labels; the vote \
            settings (k, distance weighting, thresholds) are calibrated by leave-one-out over the \
            references. There is no training step: adding a labelled photo and rebuilding is enough. \
            The file is replaced atomically.
            """
    )

    @OptionGroup var photos: LabelledPhotoOptions

    @Option(name: .customLong("output"), help: "Where to write the model.")
    var output = LabelModelLocation.defaultPath

    @Option(name: .customLong("extractor"), help: """
        Feature extractor: featureprint (the default when the feature-print model is found), scene, \
        regions or colour-histogram.
        """)
    var extractor: String?

    func run() async throws {
        let printer = try LabelModelLocation.defaultPrinter()
        let name = extractor ?? (printer != nil ? FeaturePrintExtractor.id : FeatureExtractors.standard.descriptor.id)
        guard let chosen = FeatureExtractors.extractor(named: name, featurePrinter: printer) else {
            throw ValidationError("unknown extractor \(name); use one of "
                + FeatureExtractors.available(featurePrinter: printer).map(\.descriptor.id).joined(separator: ", "))
        }
        let (vocabulary, labelled) = try photos.load()
        let clock = ContinuousClock()
        let start = clock.now
        let builder = LabelModelBuilder(extractor: chosen)
        let features = try await builder.features(of: labelled)
        let (model, f1) = try builder.build(vocabulary: vocabulary, photos: labelled, features: features)
        try model.save(to: output)
        let seconds = (clock.now - start).seconds
        print("wrote \(output): \(model.references.count) references, \(vocabulary.count) labels, "
            + "extractor \(model.extractor)")
        print("vote: k=\(model.vote.k), weight power=\(model.vote.weightPower), threshold=\(model.vote.threshold) "
            + "(\(model.vote.labelThresholds.filter { $0 != model.vote.threshold }.count) labels with their own); "
            + "leave-one-out micro F1 with these settings \(String(format: "%.3f", f1)); "
            + "\(String(format: "%.1f", seconds)) s")
    }
}
