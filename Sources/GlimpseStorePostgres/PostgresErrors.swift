import GlimpseStore
import PostgresNIO

/// How postgres-nio's errors become ``StoreError``s.
enum PostgresErrors {
    /// The SQLSTATE classes that say the database cannot be used right now: connection exceptions (08),
    /// insufficient resources (53), operator intervention such as a shutting-down server (57), and
    /// failed authorisation (28) or a missing database (3D).
    static let unavailableClasses: Set<String> = ["08", "53", "57", "28", "3D"]

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
        if unavailableClasses.contains(String(state.prefix(2))) { return .unavailable(reason: "\(target): \(message)") }
        if state.hasPrefix("22") { return .invalid(reason: message) }
        return .io(path: target, reason: "\(message) (SQLSTATE \(state))")
    }
}
