import ArgumentParser

/// The `glimpse` command: decode, label and match pictures against a catalog.
@main
struct Glimpse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse",
        abstract: "Find the catalog places and collections that a picture shows.",
        version: "0.1.0",
        subcommands: [DecodeCommand.self, EvalCommand.self, QueryCommand.self, EntitiesCommand.self, MatchCommand.self, BenchCommand.self, ServeCommand.self]
    )
}
