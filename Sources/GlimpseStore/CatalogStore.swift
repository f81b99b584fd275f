public import GlimpseFiles

/// Where a live catalog is kept: places, collections, labels and photos that change while the daemon
/// serves. One implementation per database (``SQLiteCatalogStore`` in GlimpseStoreSQLite,
/// ``PostgresCatalogStore`` in GlimpseStorePostgres); everything
/// above it (import, export, the engine, the CLI) speaks this protocol only.
///
/// Every changing edit is one transaction, validated inside it against the stored state, and appends
/// one entry to the change log with the next sequence number.
public protocol CatalogStore: Sendable {
    /// Everything but the photos' bytes; each photo carries its features when they were stored under
    /// `featuresKey` (see GlimpseVision's `FeatureCoding.key(configuration:printIdentity:)`), none when it is `nil`.
    func read(featuresKey: String?) async throws(StoreError) -> StoredCatalog

    /// The bytes of the photo with this SHA-256 (lowercase hex).
    func photoBytes(sha256: String) async throws(StoreError) -> [UInt8]

    /// Applies `edit` in one transaction, validated inside it against the stored state.
    func apply(_ edit: CatalogEdit) async throws(StoreError) -> AppliedEdit

    /// Stores re-extracted features of a photo (a cache: the sequence number does not change).
    func storeFeatures(_ features: EncodedFeatures, sha256: String, featuresKey: String) async throws(StoreError)

    /// The change log after `sequence`, oldest first.
    func changes(after sequence: Int64) async throws(StoreError) -> [CatalogChange]

    /// What changed after `sequence`, with the current state of everything the change log names after
    /// it, read in one transaction (see ``CatalogDelta``); photos carry the features stored under
    /// `featuresKey`, none when it is `nil`.
    func delta(after sequence: Int64, featuresKey: String?) async throws(StoreError) -> CatalogDelta

    /// Signals that another writer may have changed the store, for stores several processes write
    /// (PostgreSQL); `nil` for a store with one writer (SQLite). The stream ends when the store is closed.
    func changeSignals() -> AsyncStream<StoreSignal>?

    /// Lets go of the store (connections, locks); it must not be used afterwards.
    func close() async
}
