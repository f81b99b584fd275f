import ArgumentParser
import Foundation
import GlimpseEvaluation
import GlimpseLabels

/// `glimpse models evaluate`: label precision, recall and F1 on photos the model has not seen.
struct ModelsEvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure label F1 on unseen photos, next to a colour-histogram baseline.",
        discussion: """
            Leave-one-out: each reference is labelled by all the others. With --queries DIR (a folder \
            made by distort.py from the photos of a --labelled folder, with its queries.json), each \
            distorted copy is labelled without its own reference. Vote settings are calibrated by 5-fold \
            cross-validation, so no photo is scored with settings fitted on itself. Every extractor is \
            evaluated on the same photos; the first is the model's.
            """
    )

    @OptionGroup var photos: LabelledPhotoOptions

    @Option(name: .customLong("queries"), help: "A folder of distorted queries with queries.json.")
    var queries: String?

    @Option(name: .customLong("extractor"), help: "Extractors to compare (default: featureprint, scene and colour-histogram).")
    var extractors: [String] = ["featureprint", "scene", "colour-histogram"]

    @Flag(name: .customLong("json"), help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let printer = try LabelModelLocation.defaultPrinter()
        let chosen = try extractors.map { name in
            guard let found = FeatureExtractors.extractor(named: name, featurePrinter: printer) else {
                throw ValidationError("unknown extractor \(name); use one of "
                    + FeatureExtractors.available(featurePrinter: printer).map(\.descriptor.id).joined(separator: ", "))
            }
            return found
        }
        let (vocabulary, references) = try photos.load()
        var distorted: [DistortedQuery] = []
        if let queries {
            do {
                distorted = try LabelledPhotos.distortedQueries(queries, references: references)
            } catch {
                throw ValidationError(error.description)
            }
        }
        let report = try await LabelEvaluation.run(vocabulary: vocabulary, references: references,
                                                   queries: distorted, extractors: chosen)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(LabelReportTable.render(report))
        }
    }
}

/// Plain-text rendering of a ``LabelEvaluationReport``.
enum LabelReportTable {
    static func render(_ report: LabelEvaluationReport) -> String {
        var lines: [String] = ["\(report.references) references; vote settings by \(report.folds)-fold cross-validation", ""]
        lines.append(pad("test set", 15) + pad("extractor", 18) + pad("photos", 8)
            + "micro P   micro R   micro F1  macro F1")
        for method in report.methods {
            let name = String(method.extractor.prefix { $0 != " " })
            let sections = [("leave-one-out", method.leaveOneOut)] + (method.distorted.map { [("distorted", $0)] } ?? [])
            for (title, section) in sections {
                lines.append(pad(title, 15) + pad(name, 18) + pad("\(section.photos)", 8)
                    + pad(f(section.micro.precision), 10) + pad(f(section.micro.recall), 10)
                    + pad(f(section.micro.f1), 10) + f(section.macro.f1))
            }
        }
        if !report.gains.isEmpty {
            lines.append("")
            lines.append("micro-F1 gain, paired bootstrap over test photos (distorted queries drawn with their source photo):")
            for gain in report.gains {
                let g = gain.microF1
                lines.append("  " + pad(gain.testSet, 15) + short(gain.extractor) + " over " + short(gain.baseline) + ": "
                    + signed(g.gain) + ", 95 % interval " + signed(g.low) + " … " + signed(g.high) + ", higher in "
                    + String(format: "%.1f", g.shareAbove * 100) + " % of \(g.resamples) resamples of \(g.groups) photos")
            }
        }
        for (index, title) in ["leave-one-out", "distorted"].enumerated() {
            let sections = report.methods.compactMap { index == 0 ? $0.leaveOneOut : $0.distorted }
            guard let first = sections.first else { continue }
            lines.append("")
            lines.append("per-label F1, \(title): " + report.methods.map { String($0.extractor.prefix { $0 != " " }) }
                .joined(separator: " | "))
            for row in first.perLabel where row.support > 0 {
                let values = sections.map { section in
                    section.perLabel.first { $0.label == row.label }.map { f($0.score.f1) } ?? "-"
                }
                lines.append("  " + pad(row.label, 10) + pad("n=\(row.support)", 7) + values.joined(separator: "  "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func f(_ value: Double) -> String { String(format: "%.3f", value) }

    private static func signed(_ value: Double) -> String { String(format: "%+.3f", value) }

    private static func short(_ extractor: String) -> String { String(extractor.prefix { $0 != " " }) }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
