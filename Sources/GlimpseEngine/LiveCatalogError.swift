public import GlimpseStore

/// Why a live catalog could not open or take an edit.
public enum LiveCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store refused or failed (the edit, when there was one, was not applied).
    case store(StoreError)
    /// The engine could not load, or could not take the stored catalog.
    case engine(EngineError)

    /// A sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .store(let error): error.description
        case .engine(let error): error.description
        }
    }
}
