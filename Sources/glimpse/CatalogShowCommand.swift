import ArgumentParser
import GlimpseStore
import GlimpseStoreSQLite

/// `glimpse catalog show`: what the store holds.
struct CatalogShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the store's id, schema version, sequence and counts."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let source = try store.openFile(mode: .read)
        let (stored, counts) = try await StoreCommandFailure.run { () async throws(StoreError) in
            (try await source.read(featuresKey: nil), try await source.counts())
        }
        print("store: \(source.path)")
        print("store id: \(stored.storeID)")
        print("schema version: \(source.schemaVersion)")
        print("sequence: \(stored.sequence)")
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) { print("\(name): \(count)") }
    }
}
