public import GlimpseFiles
public import GlimpseStore
public import GlimpseStoreSQLite
public import Synchronization

/// A real SQLite catalog store whose reads of the change log (`changes`, `delta`) fail while
/// ``readsFail`` is set, as a database that went away between an edit's commit and the catch-up does;
/// everything else goes to ``inner``.
public final class ChangeLogFailingStore: CatalogStore {
    /// The store every call goes to.
    public let inner: SQLiteCatalogStore
    /// Whether reads of the change log fail now.
    public let readsFail = Mutex(false)

    /// Wraps `inner`, its change log readable until ``readsFail`` is set.
    public init(_ inner: SQLiteCatalogStore) { self.inner = inner }

    public func read(featuresKey: String?) async throws(StoreError) -> StoredCatalog { try await inner.read(featuresKey: featuresKey) }
    public func photoBytes(sha256: String) async throws(StoreError) -> [UInt8] { try await inner.photoBytes(sha256: sha256) }
    public func apply(_ edit: CatalogEdit) async throws(StoreError) -> AppliedEdit { try await inner.apply(edit) }
    public func storeFeatures(_ features: EncodedFeatures, sha256: String, featuresKey: String) async throws(StoreError) {
        try await inner.storeFeatures(features, sha256: sha256, featuresKey: featuresKey)
    }
    public func changes(after sequence: Int64) async throws(StoreError) -> [CatalogChange] {
        try checkReads()
        return try await inner.changes(after: sequence)
    }
    public func delta(after sequence: Int64, featuresKey: String?) async throws(StoreError) -> CatalogDelta {
        try checkReads()
        return try await inner.delta(after: sequence, featuresKey: featuresKey)
    }
    public func changeSignals() -> AsyncStream<StoreSignal>? { nil }
    public func close() async { await inner.close() }

    private func checkReads() throws(StoreError) {
        if readsFail.withLock({ $0 }) { throw .unavailable(reason: "the database went away") }
    }
}
