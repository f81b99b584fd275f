import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseWire

/// `glimpse catalog put-place ID --json FILE [--photo IMG]…`: create or replace a place.
struct CatalogPutPlaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put-place",
        abstract: "Create or replace a place from a JSON entry as catalog.json lists places.",
        discussion: """
            The JSON holds the place's fields as catalog.json lists them ("name", "kind", "region", \
            "continent", "labels", "collections"); its "image" and "views" are not read, its "credit" is the \
            first photo's. Without --photo the place keeps its photos (a new place needs one); with --photo, \
            its photos become exactly these, in order, each named photos/<file name>.
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
        let entry: PlaceEntry
        do {
            entry = try JSONDecoder().decode(PlaceEntry.self, from: Data(try AtomicFile.readAll(json)))
        } catch {
            throw ValidationError("cannot read the place from \(json): \(error)")
        }
        let place = PlaceDefinition(
            id: id, name: entry.name, kind: entry.kind, region: entry.region, continent: entry.continent,
            labels: entry.labels ?? [], collections: entry.collections ?? [], photos: [])
        let extraction = try photos.isEmpty ? nil : edit.extraction()
        let newPhotos = try extraction.map { extraction in
            try photos.enumerated().map { index, path in
                try edit.newPhoto(at: path, name: "photos/" + (path as NSString).lastPathComponent,
                                  credit: index == 0 ? entry.credit : nil, extraction: extraction)
            }
        }
        try await edit.send(.putPlace(place, photos: newPhotos, precondition: edit.precondition))
    }
}

/// A place's fields as `put-place --json` reads them: catalog.json's place entry, photos optional.
private struct PlaceEntry: Decodable {
    var name: String
    var kind: String
    var region: String?
    var continent: String?
    var labels: [String]?
    var collections: [String]?
    var credit: PhotoCredit?
}
