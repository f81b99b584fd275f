import ArgumentParser
import GlimpseStore

/// `glimpse catalog delete-collection ID`.
struct CatalogDeleteCollectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-collection", abstract: "Delete a collection and remove it from the places that list it.")

    @Argument(help: "The collection's id.")
    var id: String

    @OptionGroup var edit: CatalogEditOptions

    func run() async throws {
        try await edit.send(.deleteCollection(id: id, precondition: edit.precondition))
    }
}
