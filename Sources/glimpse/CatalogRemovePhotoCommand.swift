import ArgumentParser
import GlimpseStore

/// `glimpse catalog remove-photo ID SHA`.
struct CatalogRemovePhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-photo", abstract: "Remove a photo from a place (not its last one: delete the place instead).")

    @Argument(help: "The place's id.")
    var id: String

    @Argument(help: "The photo's SHA-256 (lowercase hex).")
    var sha256: String

    @OptionGroup var edit: CatalogEditOptions

    func run() async throws {
        try await edit.send(.removePhoto(placeID: id, sha256: sha256.lowercased(), precondition: edit.precondition))
    }
}
