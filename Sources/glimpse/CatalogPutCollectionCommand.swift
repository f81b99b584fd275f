import ArgumentParser
import GlimpseCatalog
import GlimpseStore
import GlimpseWire

/// `glimpse catalog put-collection ID --name … --summary … [--member PLACE]…`.
struct CatalogPutCollectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put-collection",
        abstract: "Create or replace a collection; with --member, exactly those places list it afterwards."
    )

    @Argument(help: "The collection's id.")
    var id: String

    @Option(help: "The display name.")
    var name: String

    @Option(help: "One sentence describing what it holds.")
    var summary = ""

    @Option(name: .customLong("member"), help: ArgumentHelp("A place that belongs to it; may be repeated.", valueName: "place"))
    var members: [String] = []

    @Flag(name: .customLong("keep-members"), help: "Leave which places list it as it is (the default without --member).")
    var keepMembers = false

    @OptionGroup var edit: CatalogEditOptions

    func validate() throws {
        if keepMembers && !members.isEmpty { throw ValidationError("--keep-members and --member exclude each other") }
    }

    func run() async throws {
        let collection = CollectionDefinition(id: id, name: name, summary: summary)
        try await edit.send(.putCollection(
            collection, members: members.isEmpty ? nil : members, precondition: edit.precondition))
    }
}
