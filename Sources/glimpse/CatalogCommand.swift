import ArgumentParser
import Foundation
import GlimpseStore
import GlimpseStoreSQLite

/// `glimpse catalog`: import, export, check and edit a catalog store file.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Import, export, check and edit the catalog store.",
        discussion: """
            The store is one SQLite file: --store, else $GLIMPSE_STORE, else the store `glimpse serve` keeps \
            for the --catalog folder (stores/<folder>-<hash>.sqlite in $XDG_DATA_HOME/glimpse, or \
            ~/.local/share/glimpse). Edits on the file take its writer's lock and fail at once while a daemon \
            serves it; edit through the daemon with --socket then.
            """,
        subcommands: [
            CatalogImportCommand.self, CatalogExportCommand.self, CatalogCheckCommand.self, CatalogShowCommand.self,
            CatalogPutPlaceCommand.self, CatalogDeletePlaceCommand.self, CatalogAddPhotoCommand.self,
            CatalogRemovePhotoCommand.self, CatalogPutCollectionCommand.self, CatalogDeleteCollectionCommand.self,
        ]
    )
}

/// `--store FILE`: which store file a `glimpse catalog` command works on.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The catalog store file (default: $GLIMPSE_STORE, else the one `glimpse serve` keeps for --catalog).",
        valueName: "file"))
    var store: String?

    @Option(help: "The catalog folder whose store is used when --store is not given.")
    var catalog = "Images"

    /// The store file's path, by the default rule when not named.
    var path: String { store ?? SQLiteCatalogStore.defaultPath(catalogDirectory: catalog) }

    /// Opens the store; a failure is printed and becomes the exit status (``StoreCommandFailure``).
    func open(mode: SQLiteCatalogStore.Mode, create: Bool = false) throws -> SQLiteCatalogStore {
        do throws(StoreError) {
            return try SQLiteCatalogStore.open(path: path, create: create, mode: mode)
        } catch {
            throw StoreCommandFailure(error).exitCode
        }
    }
}

/// A store error, printed as one line on standard error, with an exit status by its kind: 75 when the
/// store is busy (try again later), 74 for input/output and damage, 65 for a store too new, 1 for an
/// edit refused.
struct StoreCommandFailure: Error {
    let error: StoreError

    init(_ error: StoreError) {
        self.error = error
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
    }

    var exitCode: ExitCode {
        switch error {
        case .busy: ExitCode(75)
        case .io, .corrupt: ExitCode(74)
        case .schemaTooNew: ExitCode(65)
        default: ExitCode(1)
        }
    }
}

extension StoreCommandFailure {
    /// Runs `body`, turning a ``StoreError`` into the failure's exit status.
    static func run<T>(_ body: () async throws(StoreError) -> T) async throws -> T {
        do throws(StoreError) {
            return try await body()
        } catch {
            throw StoreCommandFailure(error).exitCode
        }
    }
}
