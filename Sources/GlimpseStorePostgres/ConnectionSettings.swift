import Foundation
import GlimpseStore
import PostgresNIO

/// Where and how to reach the catalog database, read as libpq reads it: a `postgres://` or
/// `postgresql://` URL, or else the `PG*` environment variables.
///
/// Supported: user, password, host (a name, an address, or a Unix-socket directory: a host starting
/// with `/`), port, database name; in a URL the query parameters `host`, `port`, `user`, `password`,
/// `dbname`, `sslmode`, `sslrootcert` and `connect_timeout` too, and the variables `PGHOST`, `PGPORT`,
/// `PGUSER`, `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGSSLROOTCERT` and `PGCONNECT_TIMEOUT`.
/// `sslmode` is `disable`, `allow` or `prefer` (TLS when the server offers it, unverified), `require`
/// (TLS or no connection, unverified), `verify-ca` (the certificate must chain to the trusted roots)
/// or `verify-full` (and name the host); the roots are the system's, or `sslrootcert`'s. A Unix
/// socket never uses TLS. Several hosts, service files and `.pgpass` are not supported.
struct ConnectionSettings: Sendable, Equatable {
    /// Where the server listens.
    enum Endpoint: Sendable, Equatable {
        /// TCP to a host and port.
        case tcp(host: String, port: Int)
        /// A Unix socket file (`<directory>/.s.PGSQL.<port>`).
        case unixSocket(path: String)
    }

    /// TLS as `sslmode` asks for it.
    enum TLSMode: String, Sendable, Equatable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    var endpoint: Endpoint
    var username: String
    var password: String?
    var database: String
    var tls: TLSMode
    var rootCertificate: String?
    var connectTimeout: Duration
    /// The server's limit on one statement and on one wait for a lock (`statement_timeout`,
    /// `lock_timeout`, set on every connection at connect); a transaction left idle is ended by the
    /// server after ``callTimeout`` (`idle_in_transaction_session_timeout`).
    var statementTimeout = Duration.seconds(5)

    /// How long one call may run on its leased connection (all of an edit's statements) before the
    /// store gives up on it and drops the connection: twice ``statementTimeout``.
    var callTimeout: Duration { statementTimeout * 2 }

    /// The parameters every connection starts with: its name and the server-side limits.
    func startupParameters(name: String) -> [(String, String)] {
        let statement = String(Self.milliseconds(statementTimeout))
        return [("application_name", name), ("statement_timeout", statement), ("lock_timeout", statement),
                ("idle_in_transaction_session_timeout", String(Self.milliseconds(callTimeout)))]
    }

    /// `duration` in whole milliseconds, at least 1 (a PostgreSQL setting of 0 means no limit).
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Where the store is, for messages: `user@host:port/db` or `user@socket/db`, never the password.
    var target: String {
        switch endpoint {
        case let .tcp(host, port): "postgres://\(username)@\(host):\(port)/\(database)"
        case let .unixSocket(path): "postgres://\(username)@\(path)/\(database)"
        }
    }

    /// The settings of `url` when given (the environment fills what it leaves out, as libpq does),
    /// else of the `PG*` variables of `environment`.
    static func parse(url: String?, environment: [String: String]) throws(StoreError) -> ConnectionSettings {
        var values: [String: String] = [:]
        let variables = ["host": "PGHOST", "port": "PGPORT", "user": "PGUSER", "password": "PGPASSWORD",
                         "dbname": "PGDATABASE", "sslmode": "PGSSLMODE", "sslrootcert": "PGSSLROOTCERT",
                         "connect_timeout": "PGCONNECT_TIMEOUT"]
        for (key, variable) in variables {
            if let value = environment[variable], !value.isEmpty { values[key] = value }
        }
        if let url { try values.merge(parseURL(url)) { _, fromURL in fromURL } }
        return try settings(values, environment: environment)
    }

    /// The values a URL names, by libpq's keyword.
    private static func parseURL(_ url: String) throws(StoreError) -> [String: String] {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"),
              let components = URLComponents(string: url)
        else {
            throw .invalid(reason: "'\(redacted(url))' is not a postgres:// or postgresql:// URL")
        }
        var values: [String: String] = [:]
        if let user = components.user, !user.isEmpty { values["user"] = user }
        if let password = components.password { values["password"] = password }
        if let host = components.percentEncodedHost, !host.isEmpty { values["host"] = host.removingPercentEncoding ?? host }
        if let port = components.port { values["port"] = String(port) }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        if !path.isEmpty { values["dbname"] = path }
        for item in components.queryItems ?? [] {
            guard let value = item.value else { continue }
            guard ["host", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "connect_timeout"]
                .contains(item.name)
            else {
                throw .invalid(reason: "the database URL's parameter '\(item.name)' is not supported")
            }
            values[item.name] = value
        }
        return values
    }

    private static func settings(_ values: [String: String], environment: [String: String]) throws(StoreError) -> ConnectionSettings {
        let portText = values["port"] ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw .invalid(reason: "the database port '\(portText)' is not a port number")
        }
        let modeText = values["sslmode"] ?? "prefer"
        guard let tls = TLSMode(rawValue: modeText) else {
            throw .invalid(reason: "sslmode '\(modeText)' is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
        var timeout = Duration.seconds(10)
        if let text = values["connect_timeout"] {
            guard let seconds = Int(text), seconds >= 0 else {
                throw .invalid(reason: "connect_timeout '\(text)' is not a whole number of seconds")
            }
            if seconds > 0 { timeout = .seconds(max(seconds, 2)) }
        }
        let host = values["host"] ?? defaultHost()
        let username = values["user"] ?? environment["USER"] ?? NSUserName()
        return ConnectionSettings(
            endpoint: host.hasPrefix("/") ? .unixSocket(path: host + "/.s.PGSQL.\(port)") : .tcp(host: host, port: port),
            username: username, password: values["password"], database: values["dbname"] ?? username, tls: tls,
            rootCertificate: values["sslrootcert"], connectTimeout: timeout)
    }

    /// libpq's default host on Debian: its socket directory when the server listens there, else localhost.
    private static func defaultHost() -> String {
        FileManager.default.fileExists(atPath: "/var/run/postgresql") ? "/var/run/postgresql" : "localhost"
    }

    /// `url` with its password replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// NIOSSL's client configuration for this mode, `nil` when TLS is off (or the endpoint is a socket).
    func tlsConfiguration() -> TLSConfiguration? {
        guard case .tcp = endpoint, tls != .disable else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable, .allow, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificate { configuration.trustRoots = .file(rootCertificate) }
        return configuration
    }

    /// The pool's configuration.
    func clientConfiguration() -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case let .tcp(host, port):
            let tls: PostgresClient.Configuration.TLS = switch (tls, tlsConfiguration()) {
            case (_, nil): .disable
            case (.allow, let context?), (.prefer, let context?): .prefer(context)
            case (_, let context?): .require(context)
            }
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        case let .unixSocket(path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = startupParameters(name: "glimpse")
        return configuration
    }

    /// A single connection's configuration (the change listener's).
    func connectionConfiguration() throws(StoreError) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case let .tcp(host, port):
            var tls = PostgresConnection.Configuration.TLS.disable
            if let settings = tlsConfiguration() {
                do {
                    let context = try NIOSSLContext(configuration: settings)
                    tls = self.tls == .allow || self.tls == .prefer ? .prefer(context) : .require(context)
                } catch {
                    throw .unavailable(reason: "cannot set up TLS for \(target): \(error)")
                }
            }
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
        case let .unixSocket(path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        }
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        configuration.options.additionalStartupParameters = startupParameters(name: "glimpse")
        return configuration
    }
}
