import GlimpseStore
import PostgresNIO

/// How postgres-nio's errors become ``StoreError``s.
enum PostgresErrors {
    /// The SQLSTATE classes that say the database cannot be used right now: connection exceptions (08),
    /// insufficient resources (53), operator intervention such as a shutting-down server (57), and
    /// failed authorisation (28) or a missing database (3D).
    static let unavailableClasses: Set<String> = ["08", "53", "57", "28", "3D"]

    /// A leased connection was closed before a statement could be sent on it (postgres-nio would wait
    /// for its answer forever).
    struct ConnectionClosed: Error, CustomStringConvertible {
        var description: String { "the connection closed" }
    }

    /// Whether a connection that threw `error` must not be used again: anything but the server's
    /// refusal of one statement (a constraint, a cancelled statement) or a refusal of the store's own.
    static func leavesConnectionUnusable(_ error: any Error) -> Bool {
        switch error {
        case is StoreError, is PostgresDecodingError:
            return false
        case let error as PSQLError:
            guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return true }
            return state.hasPrefix("08") || state.hasPrefix("57P")
        default:
            return true
        }
    }

    /// Maps an error thrown while using the database at `target`.
    static func storeError(_ error: any Error, target: String) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as PSQLError:
            return storeError(error, target: target)
        case let error as PostgresDecodingError:
            return .corrupt(path: target, reason: "a column does not decode: \(String(reflecting: error))")
        case is CancellationError:
            return .unavailable(reason: "the call was cancelled before \(target) answered")
        default:
            // Socket, TLS and pool errors: the server cannot be reached.
            return .unavailable(reason: "\(target): \(error)")
        }
    }

    private static func storeError(_ error: PSQLError, target: String) -> StoreError {
        guard error.code == .server, let info = error.serverInfo else {
            let cause = error.underlying.map { ": \($0)" } ?? ""
            return .unavailable(reason: "\(target): \(error.code)\(cause)")
        }
        let state = info[.sqlState] ?? ""
        let message = info[.message] ?? "the server refused the statement"
        // 57014 (a statement cancelled by statement_timeout) is of class 57; 55P03 is a lock_timeout.
        if unavailableClasses.contains(String(state.prefix(2))) || state == "55P03" {
            return .unavailable(reason: "\(target): \(message)")
        }
        if state.hasPrefix("22") { return .invalid(reason: message) }
        return .io(path: target, reason: "\(message) (SQLSTATE \(state))")
    }
}
