import ArgumentParser
import Foundation
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseImage
import GlimpseVision

/// `glimpse models null-prints`: the feature prints of photos of no catalog place, for the matcher's
/// print-alone accept line (see `scripts/featureprint/make-null-prints.sh`).
struct ModelsNullPrintsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "null-prints",
        abstract: "Write the feature prints of photos of no catalog place (the matcher's null prints).",
        discussion: """
            Each photo is decoded as a query is (no larger than the matcher looks at) and printed whole by the \
            network named by --featureprint-model; the prints are written with the network's identity, so the \
            file is refused beside any other network. Give only photos of no place of any catalog this will \
            serve: the matcher measures, for the catalog it serves, where these land, and accepts a place on \
            its print alone only beyond where all but --false-match-rate of them do.
            """
    )

    @Option(name: .customLong("featureprint-model"), help: "The feature-print network (default: Models/featureprint.glimpsemodel).")
    var model = FeaturePrintModel.conventionalPath

    @Option(name: .customLong("output"), help: "Where to write (default: the model's path with the extension .nulls).")
    var output: String?

    @Option(name: .customLong("source"), help: "A sentence saying where the photos came from, stored in the file.")
    var source = "photos of no catalog place"

    @Argument(help: "Image files, or folders of them (read recursively, in name order).")
    var inputs: [String]

    func run() async throws {
        let printer = FeaturePrinterPool(model: try FeaturePrintModel.load(from: model))
        var files: [String] = []
        for input in inputs {
            guard FolderWalk.isDirectory(input) else { files.append(input); continue }
            var found: [String] = []
            for entry in FolderWalk(root: input, recursive: true) where !entry.isDirectory {
                let lower = entry.name.lowercased()
                if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") || lower.hasSuffix(".png") { found.append(entry.path) }
            }
            files += found.sorted()
        }
        guard !files.isEmpty else { throw ValidationError("no photos found in \(inputs.joined(separator: ", "))") }
        let options = VisionConfiguration.default.queryDecoding
        var values: [Float] = []
        values.reserveCapacity(files.count * printer.featurePrintDimension)
        for file in files {
            let image = try ImageDecoder.decode(contentsOfFile: file, options: options).pixelBuffer
            let print = try printer.featurePrint(of: image)
            values += print.values
        }
        let nulls = NullPrints(
            identity: printer.featurePrintIdentity, source: source, dimension: printer.featurePrintDimension,
            values: values)
        let path = output ?? NullPrints.path(besideModel: model)
        try nulls.write(to: path)
        print("wrote \(path): \(nulls.count) prints of \(nulls.dimension) values (\(source))")
    }
}
