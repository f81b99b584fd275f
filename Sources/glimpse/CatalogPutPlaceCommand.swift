import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore

/// `glimpse catalog put-place ID --json FILE [--photo IMG]…`: create or replace a place.
struct CatalogPutPlaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put-place",
        abstract: "Create or replace a place from a JSON entry as catalog.json lists places.",
        discussion: """
            The JSON's photo fields ("image", "credit", "views") are ignored unless no --photo is given for a \
            new place. With --photo, the place's photos become exactly these, in order, each stored under \
            photos/<file name>.
            """
    )

    @Argument(help: "The place's id (overrides the JSON's).")
    var id: String

    @Option(name: .customLong("json"), help: ArgumentHelp("The place's fields, as catalog.json lists a place.", valueName: "file"))
    var json: String

    @Option(name: .customLong("photo"), help: ArgumentHelp("A reference photo; may be repeated.", valueName: "image"))
    var photos: [String] = []

    @OptionGroup var edit: CatalogEditOptions

    func run() async throws {
        var place: PlaceDefinition
        do {
            place = try JSONDecoder().decode(PlaceDefinition.self, from: Data(try AtomicFile.readAll(json)))
        } catch {
            throw ValidationError("cannot read the place from \(json): \(error)")
        }
        place.id = id
        let newPhotos = try photos.isEmpty ? nil : photos.enumerated().map { index, path in
            try edit.newPhoto(at: path, name: "photos/" + (path as NSString).lastPathComponent,
                              credit: index < place.photos.count ? place.photos[index].credit : nil)
        }
        try await edit.send(.putPlace(place, photos: newPhotos, precondition: edit.precondition))
    }
}
