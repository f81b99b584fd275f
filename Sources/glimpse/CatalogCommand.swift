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
            serves it; edit through the daemon with --socket then. Or it is a PostgreSQL database that \
            several daemons share: --store postgres://user@host/db (or 'postgres' for the PG* variables); \
            edits to it need no daemon, and every daemon serving it sees them within a second.
            """,
        subcommands: [
            CatalogImportCommand.self, CatalogExportCommand.self, CatalogCheckCommand.self, CatalogShowCommand.self, CatalogCalibrationCommand.self,
            CatalogPutPlaceCommand.self, CatalogDeletePlaceCommand.self, CatalogAddPhotoCommand.self,
            CatalogRemovePhotoCommand.self, CatalogPutCollectionCommand.self, CatalogDeleteCollectionCommand.self,
        ]
    )
}

/// `--store`: which store a `glimpse catalog` command works on (``StoreLocation``).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The catalog store: a SQLite file, a postgres:// URL, or 'postgres' for the PG* variables "
            + "(default: $GLIMPSE_STORE, else the file `glimpse serve` keeps for --catalog).",
        valueName: "store"))
    var store: String?

    @Option(help: "The catalog folder whose store is used when --store is not given.")
    var catalog = "Images"

    /// Where the store is, by the default rule when not named.
    var location: StoreLocation { StoreLocation(store: store, catalogDirectory: catalog) }

    /// Opens the store, a file or a database; a failure is printed and becomes the exit status
    /// (``StoreCommandFailure``).
    func open(mode: SQLiteCatalogStore.Mode, create: Bool = false) async throws -> OpenedStore {
        let location = self.location
        return try await StoreCommandFailure.run { () async throws(StoreError) in
            try await location.open(mode: mode, create: create)
        }
    }

    /// Opens a store file, for what only a SQLite store can tell (its integrity check and row counts).
    func openFile(mode: SQLiteCatalogStore.Mode) throws -> SQLiteCatalogStore {
        guard case .sqlite(let path) = location else {
            FileHandle.standardError.write(Data(
                "error: this command reads a SQLite store file; for a PostgreSQL store use `glimpse catalog export` or the daemon's GET /v1/catalog\n".utf8))
            throw ExitCode(64)
        }
        do throws(StoreError) {
            return try SQLiteCatalogStore.open(path: path, create: false, mode: mode)
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
        case .io, .corrupt, .unavailable, .photoCache: ExitCode(74)
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
