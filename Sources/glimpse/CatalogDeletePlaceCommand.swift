import ArgumentParser
import GlimpseStore

/// `glimpse catalog delete-place ID`.
struct CatalogDeletePlaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-place", abstract: "Delete a place and its photos.")

    @Argument(help: "The place's id.")
    var id: String

    @OptionGroup var edit: CatalogEditOptions

    func run() async throws {
        try await edit.send(.deletePlace(id: id, precondition: edit.precondition))
    }
}
