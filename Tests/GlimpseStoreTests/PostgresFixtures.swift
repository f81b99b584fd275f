import Foundation
import GlimpseStore
@testable import GlimpseStorePostgres
import GlimpseTestSupport
import Logging
import PostgresNIO

/// Databases on the tests' PostgreSQL server (``TestPostgres``): one new database per test.
enum PostgresFixtures {
    /// Where one test database is: a URL, or libpq variables.
    struct Database: Sendable {
        let name: String
        let url: String?
        let environment: [String: String]

        /// Opens a store object on this database (several may share it, like several daemons), with a
        /// generous connect timeout for a machine busy with the other tests unless `extra` sets one.
        ///
        /// The store's own tasks run on ``DedicatedExecutor/store``: on the suite's global executor a lease
        /// waited behind hundreds of computing tests for each of its steps and missed its deadline, which
        /// needs only one ("no connection … within 30 s" with the server up and idle).
        ///
        /// `statementTimeout` is the server's limit on one statement and on one wait for a lock (the
        /// store's default when `nil`).
        func open(_ extra: [String: String] = [:], statementTimeout: Duration? = nil) async throws -> PostgresCatalogStore {
            let settings = environment.merging(["PGCONNECT_TIMEOUT": "30"]) { $1 }.merging(extra) { $1 }
            if let statementTimeout {
                return try await PostgresCatalogStore.open(url: url, environment: settings, logger: logger,
                                                           taskExecutor: DedicatedExecutor.store,
                                                           statementTimeout: statementTimeout)
            }
            return try await PostgresCatalogStore.open(url: url, environment: settings, logger: logger,
                                                       taskExecutor: DedicatedExecutor.store)
        }
    }

    /// The tests' logger: errors only (postgres-nio logs every failed connection attempt at info).
    static let logger: Logger = {
        var logger = Logger(label: "glimpse.store.test")
        logger.logLevel = .error
        return logger
    }()

    /// A new, empty database `t_<random>` on `server` (the shared one by default).
    static func database(on server: TestPostgres.Server? = nil) async throws -> Database {
        let server = try server ?? TestPostgres.server()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await admin(server) { connection in
            try await connection.query("CREATE DATABASE \(unescaped: name)", logger: logger)
        }
        return Database(name: name, url: server.url(database: name), environment: server.environment(database: name))
    }

    /// A store on a new database.
    static func store() async throws -> PostgresCatalogStore {
        try await database().open()
    }

    /// Runs `body` on a connection to database `database` (the server's `postgres` by default).
    static func admin<T>(
        _ server: TestPostgres.Server, database: String = "postgres", _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let settings = try ConnectionSettings.parse(url: server.url(database: database),
                                                    environment: server.environment(database: database))
        let connection = try await PostgresConnection.connect(
            configuration: try settings.connectionConfiguration(), id: 0, logger: logger)
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
