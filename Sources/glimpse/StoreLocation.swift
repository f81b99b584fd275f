import Foundation
import GlimpseFiles
import GlimpseStore
#if PostgreSQL
import GlimpseStorePostgres
#endif
import GlimpseStoreSQLite
import Logging

/// Where a catalog store is: a SQLite file, or a PostgreSQL database that several daemons share.
///
/// `--store` (or `$GLIMPSE_STORE`) names it: `postgres://…` or `postgresql://…` is a database URL, the
/// word `postgres` alone the database libpq's `PG*` variables name, anything else a SQLite file.
enum StoreLocation: Equatable, CustomStringConvertible {
    /// A SQLite file.
    case sqlite(path: String)
    /// A PostgreSQL database: its URL, or `nil` for the `PG*` environment variables.
    case postgres(url: String?)

    /// The store `--store` names, else `$GLIMPSE_STORE`, else the SQLite file kept for the catalog folder.
    init(store: String?, catalogDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let named = store ?? environment["GLIMPSE_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        if let named, named == "postgres" || named == "postgresql" {
            self = .postgres(url: nil)
        } else if let named, named.hasPrefix("postgres://") || named.hasPrefix("postgresql://") {
            self = .postgres(url: named)
        } else {
            self = .sqlite(path: named ?? SQLiteCatalogStore.defaultPath(catalogDirectory: catalogDirectory, environment: environment))
        }
    }

    /// The file's path, or the database URL without its password.
    var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url.map(Self.withoutPassword) ?? "postgres (PG* environment)"
        }
    }

    /// Whether several processes may write the store at once (a database).
    var isShared: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// The `glimpse` name of the store's kind, as the daemon reports it.
    var kind: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgres: "postgres"
        }
    }

    /// Opens the store. A SQLite file in ``SQLiteCatalogStore/Mode/write`` takes its writer's lock.
    ///
    /// - Parameter waiting: for a database that cannot be reached, told the reason once and then retried
    ///   with backoff (0.5 s doubling to 10 s) until it can; without it, the first failure is thrown.
    func open(
        mode: SQLiteCatalogStore.Mode, create: Bool, logger: Logger = Logger(label: "glimpse.store"),
        waiting: (@Sendable (String) -> Void)? = nil
    ) async throws(StoreError) -> OpenedStore {
        switch self {
        case .sqlite(let path):
            let store = try SQLiteCatalogStore.open(path: path, create: create, mode: mode)
            return OpenedStore(store: store, photoFolder: PhotoFolder(path: store.photoFolder), location: self)
        case .postgres(let url):
            #if !PostgreSQL
            _ = url
            throw .io(
                path: description,
                reason: "this glimpse was built without PostgreSQL (swift build --disable-default-traits); "
                    + "build it with the default traits to use a PostgreSQL store")
            #else
            // The PostgreSQL client logs each failed connection attempt at info: the daemon says once
            // what is wrong instead, so its messages are kept to warnings unless debugging.
            var clientLogger = logger
            if clientLogger.logLevel > .debug { clientLogger.logLevel = max(clientLogger.logLevel, .warning) }
            var delay = Duration.milliseconds(500)
            var told = false
            while true {
                do throws(StoreError) {
                    let store = try await PostgresCatalogStore.open(url: url, logger: clientLogger)
                    return OpenedStore(store: store, photoFolder: Self.photoCache(storeID: store.storeID), location: self)
                } catch {
                    guard case .unavailable(let reason) = error, let waiting else { throw error }
                    if !told {
                        waiting(reason)
                        told = true
                    }
                    do { try await Task.sleep(for: delay) } catch { throw .unavailable(reason: "cancelled while waiting: \(reason)") }
                    delay = min(delay * 2, .seconds(10))
                }
            }
            #endif
        }
    }

    /// Where a database store's photos are kept as files for this host: `glimpse/photos/<store id>` in
    /// `$XDG_CACHE_HOME` (or `~/.cache`). A cache, filled from the database.
    static func photoCache(storeID: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> PhotoFolder {
        let cache = UserFolders.cacheHome(environment: environment) ?? NSHomeDirectory() + "/.cache"
        return PhotoFolder(path: cache + "/glimpse/photos/" + storeID)
    }

    /// `url` with any password replaced by `***`.
    static func withoutPassword(_ url: String) -> String {
        guard var parts = URLComponents(string: url), parts.password != nil else { return url }
        parts.password = "***"
        return parts.string ?? url
    }
}

/// An open store, where its photos are kept as files, and where it is.
struct OpenedStore {
    /// The store.
    let store: any CatalogStore
    /// Its photos as files.
    let photoFolder: PhotoFolder
    /// Where it is.
    let location: StoreLocation
}
