import ArgumentParser
import Foundation
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseLabels

/// `glimpse labels`: scene labels of pictures, from the labelled-reference model in `Models/`.
struct LabelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "labels",
        abstract: "Print the scene labels (sky, water, building, …) of pictures, with scores.",
        discussion: """
            Labels come from the labelled-reference model (see Models/README.md): the picture's nearest \
            labelled references vote, and a label is printed when its score (0…1) reaches the model's \
            calibrated threshold. The model is read from --model, else $GLIMPSE_LABEL_MODEL, else \
            Models/labels.glimpsemodel in the current directory; exit status 66 when it cannot be read, 65 \
            when it is damaged or was built by another extractor version. A file that fails prints an \
            error and the others go on; the exit status is 0 only when every file was labelled.
            """
    )

    @Argument(help: "Image files (PNG or JPEG).")
    var files: [String]

    @Option(name: .customLong("model"), help: "The label model file.")
    var model: String?

    @Flag(name: .customLong("json"), help: "Print one JSON object per file and line (JSON Lines).")
    var json = false

    @Flag(name: .customLong("all"), help: "Print every label's score, not only those reaching the threshold.")
    var all = false

    func run() throws {
        let predictor = LabelPredictor(model: try LabelModelLocation.load(model))
        var failures = 0
        for file in files {
            do {
                let image = try LabelImageLoader.load(file)
                let labels = all ? predictor.scores(for: image) : predictor.labels(for: image)
                if json {
                    print(jsonLine(LabelsLine(path: file, labels: labels, error: nil)))
                } else {
                    print("\(file): " + (labels.isEmpty ? "(no label)" : labels.map(\.description).joined(separator: ", ")))
                }
            } catch {
                failures += 1
                if json {
                    print(jsonLine(LabelsLine(path: file, labels: nil, error: "\(error)")))
                } else {
                    FileHandle.standardError.write(Data("\(file): error: \(error)\n".utf8))
                }
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private struct LabelsLine: Encodable {
        let path: String
        let labels: [ScoredLabel]?
        let error: String?
    }

    private func jsonLine<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Where the commands find the label model.
enum LabelModelLocation {
    /// The feature-print printers a label model built on feature prints needs, found by the shared
    /// rule (`$GLIMPSE_FEATUREPRINT_MODEL`, else `Models/featureprint-int8.glimpsemodel` beside the catalog
    /// folder or in the current directory); exit status 65 when a model is found but does not load.
    static func defaultPrinter(catalogDirectory: String? = nil) throws -> FeaturePrinterPool? {
        do {
            return try FeaturePrinterPool.load(explicit: nil, catalogDirectory: catalogDirectory)
        } catch {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode(65)
        }
    }

    /// The default model path, relative to the current directory.
    static let defaultPath = LabelModel.conventionalPath

    /// `explicit`, else ``LabelModel/defaultPath(catalogDirectory:environment:)`` (no catalog here:
    /// `$GLIMPSE_LABEL_MODEL`, else ``defaultPath``).
    static func path(_ explicit: String?) -> String {
        explicit ?? LabelModel.defaultPath()
    }

    /// The model at ``path(_:)``, validated; on failure prints why and exits with 66 when the file
    /// cannot be read and 65 when it is damaged or made by another extractor (`sysexits.h`).
    static func load(_ explicit: String?) throws -> LabelModel {
        let printer = try defaultPrinter()
        do {
            return try LabelModel.load(from: path(explicit), featurePrinter: printer)
        } catch {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            if case .file(.unreadable) = error { throw ExitCode(66) }
            throw ExitCode(65)
        }
    }
}
