import ArgumentParser
import GlimpseLabels

/// `glimpse models`: build and evaluate the label model in `Models/`.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Build and evaluate the labelled-reference label model.",
        subcommands: [ModelsBuildCommand.self, ModelsEvaluateCommand.self, ModelsNullPrintsCommand.self]
    )
}

/// Options naming the labelled photos, shared by `models build` and `models evaluate`.
struct LabelledPhotoOptions: ParsableArguments {
    @Option(name: .customLong("catalog"), help: "catalog.json: its label vocabulary and labelled place photos.")
    var catalog = "Images/catalog.json"

    @Flag(name: .customLong("no-catalog-photos"),
          help: "Use only the catalog's vocabulary, not its place photos, as references.")
    var noCatalogPhotos = false

    @Option(name: .customLong("labelled"),
            help: "A folder with labels.json ([{\"image\", \"id\", \"labels\"}]); may be repeated.")
    var labelled: [String] = []

    /// The vocabulary and every labelled photo, catalog places first.
    func load() throws -> (vocabulary: [String], photos: [LabelledPhoto]) {
        do {
            let catalog = try LabelledPhotos.catalog(at: catalog)
            var photos = noCatalogPhotos ? [] : catalog.photos
            for folder in labelled {
                photos += try LabelledPhotos.folder(folder, vocabulary: catalog.vocabulary)
            }
            guard !photos.isEmpty else {
                throw ValidationError("no labelled photos: give --labelled DIR or drop --no-catalog-photos")
            }
            return (catalog.vocabulary, photos)
        } catch let error as LabelledPhotosError {
            throw ValidationError(error.description)
        }
    }
}


