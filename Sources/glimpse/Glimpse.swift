import ArgumentParser

/// The `glimpse` command: decode, label and match pictures against a catalog.
@main
struct Glimpse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse",
        abstract: "Find the catalog places and collections that a picture shows.",
        version: "0.1.0",
        subcommands: [
            ServeCommand.self, QueryCommand.self, MatchCommand.self, EntitiesCommand.self, LabelsCommand.self,
            DecodeCommand.self, EvalCommand.self, BenchCommand.self, ModelsCommand.self, CatalogCommand.self,
        ]
    )
}
