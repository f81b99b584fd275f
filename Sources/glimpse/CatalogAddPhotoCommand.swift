import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseStore
import GlimpseWire

/// `glimpse catalog add-photo ID IMG`: another reference photo for a place.
struct CatalogAddPhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-photo", abstract: "Add a reference photo to a place (a photo it already has changes nothing).")

    @Argument(help: "The place's id.")
    var id: String

    @Argument(help: "The photo file (PNG or JPEG).")
    var image: String

    @Option(name: .customLong("name"), help: "The photo's name in the catalog (default: photos/<file name>).")
    var name: String?

    @Option(name: .customLong("credit-author"), help: "Who made the photo.")
    var author: String?

    @Option(name: .customLong("credit-license"), help: "The photo's license, such as CC-BY-SA-4.0.")
    var license: String?

    @Option(name: .customLong("credit-source"), help: "Where the photo was taken from.")
    var source: String?

    @OptionGroup var edit: CatalogEditOptions

    func run() async throws {
        let credit = author == nil && license == nil && source == nil
            ? nil : PhotoCredit(author: author ?? "", license: license ?? "", source: source ?? "")
        let photo = try edit.newPhoto(
            at: image, name: name ?? "photos/" + (image as NSString).lastPathComponent, credit: credit,
            extraction: try edit.extraction())
        try await edit.send(.addPhoto(placeID: id, photo: photo, precondition: edit.precondition))
    }
}
