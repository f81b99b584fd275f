import ArgumentParser
import GlimpseStore
import GlimpseStoreSQLite

/// `glimpse catalog export DIR`: the store as a catalog folder.
struct CatalogExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the store's catalog to a folder: catalog.json and every photo under its name."
    )

    @Argument(help: "The folder to write (created when missing; files there are replaced).")
    var directory: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let opened = try await store.open(mode: .read)
        let source = opened.store
        let written = try await StoreCommandFailure.run { () async throws(StoreError) in
            try await CatalogTransfer.export(from: source, to: directory)
        }
        print("exported \(written.places) places and \(written.photos) photos to \(directory)")
    }
}
