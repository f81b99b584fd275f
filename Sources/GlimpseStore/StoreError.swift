public import GlimpseCatalog

/// Why a store operation failed; each case says what to do about it.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No place or collection has this id.
    case notFound(type: String, id: String)
    /// The entity's revision does not satisfy the edit's precondition; `current` is `nil` when it does not exist.
    case preconditionFailed(type: String, id: String, current: Int64?)
    /// The edit would make the catalog invalid.
    case invalidCatalog(CatalogError)
    /// The edit is malformed.
    case invalid(reason: String)
    /// The edit conflicts with the stored state (the last photo, a label in use, a non-empty store, …).
    case conflict(reason: String)
    /// Another process holds the store for writing.
    case busy(path: String, holder: Int32?)
    /// The store was written by a newer Glimpse.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// The store file is damaged.
    case corrupt(path: String, reason: String)
    /// The store could not be read or written.
    case io(path: String, reason: String)
    /// The photo cache (``PhotoFolder``) cannot be written: a full disk, a read-only folder. The store
    /// itself is sound; queries are served and the photos' bytes read from the store.
    case photoCache(path: String, reason: String)
    /// The catalog database cannot be reached (its server is down, the network or the credentials
    /// fail); the daemon keeps answering queries from what it holds.
    case unavailable(reason: String)

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case let .notFound(type, id):
            "no \(type) has id '\(id)'; `glimpse catalog show` lists the store's contents"
        case let .preconditionFailed(type, id, current):
            if let current {
                "\(type) '\(id)' is at revision \(current), not the one the edit expected; read it again and retry"
            } else {
                "\(type) '\(id)' does not exist, and the edit expected it to; read the catalog again and retry"
            }
        case let .invalidCatalog(error):
            error.description
        case let .invalid(reason):
            "invalid edit: \(reason)"
        case let .conflict(reason):
            reason
        case let .busy(path, holder):
            "the store \(path) is in use by a running daemon"
                + (holder.map { " (pid \($0))" } ?? "") + "; edit through its socket with --socket"
        case let .schemaTooNew(path, found, supported):
            "the store \(path) has schema version \(found), newer than this build's \(supported); use a newer glimpse"
        case let .corrupt(path, reason):
            "the store \(path) is damaged (\(reason)); restore it from a backup or re-import with `glimpse catalog import --replace`"
        case let .io(path, reason):
            "cannot use the store \(path): \(reason)"
        case let .photoCache(path, reason):
            "cannot write the photo cache \(path): \(reason); free space or fix its permissions (the store is unaffected)"
        case let .unavailable(reason):
            "the catalog database cannot be reached (\(reason)); queries keep being answered, retry the edit later"
        }
    }

    /// The sentence a client of the daemon is given: like ``description`` but naming no host path,
    /// database URL, user or internal type (the daemon's log has ``description``).
    public var publicDescription: String {
        switch self {
        case .notFound, .preconditionFailed, .invalid, .conflict:
            description
        case let .invalidCatalog(error):
            error.publicDescription
        case .busy:
            "the catalog store is in use by another process; edit through the daemon that holds it"
        case .schemaTooNew:
            "the catalog store was written by a newer Glimpse; run a newer glimpse"
        case .corrupt:
            "the catalog store holds damaged data; the daemon's log names it, and `glimpse catalog check` finds it"
        case .io:
            "the catalog store cannot be read or written (a full disk or a permission, say); the daemon's log says why"
        case .photoCache:
            "the photo cache cannot be written (a full disk, say); queries are answered and pictures read from the store"
        case .unavailable:
            "the catalog database cannot be reached; queries keep being answered, retry the edit later"
        }
    }
}
