/// What changed in a store after a sequence number, with the current state of everything the change
/// log names after it: read in one transaction, so ``sequence`` and the state agree.
public struct CatalogDelta: Sendable, Equatable {
    /// The store's last sequence number, at which the state was read.
    public var sequence: Int64
    /// Each place changed after the asked sequence (named by a change, or listing a collection a change
    /// named): its state now, with the features stored under the key asked for; `nil` when it no longer exists.
    public var places: [String: StoredPlace?]
    /// Each collection named by a change after the asked sequence: its state now, `nil` when deleted.
    public var collections: [String: StoredCollection?]
    /// The label vocabulary, when it changed after the asked sequence.
    public var labels: [String]?
    /// The vocabulary's revision, with ``labels``.
    public var labelsRevision: Int64?
    /// The whole catalog instead (``places`` and ``collections`` empty) when a whole catalog was
    /// replaced after the asked sequence, or the change log no longer reaches back to it.
    public var whole: StoredCatalog?

    /// Creates a delta.
    public init(
        sequence: Int64, places: [String: StoredPlace?] = [:], collections: [String: StoredCollection?] = [:],
        labels: [String]? = nil, labelsRevision: Int64? = nil, whole: StoredCatalog? = nil
    ) {
        self.sequence = sequence
        self.places = places
        self.collections = collections
        self.labels = labels
        self.labelsRevision = labelsRevision
        self.whole = whole
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { places.isEmpty && collections.isEmpty && labels == nil && whole == nil }
}

/// A sign from a store that several processes write.
public enum StoreSignal: Sendable, Equatable {
    /// Another writer (or this one) committed a change, at this sequence number when known (`nil`:
    /// perhaps some, as when a listener starts): catch up with ``CatalogStore/delta(after:featuresKey:)``.
    case changed(sequence: Int64?)
    /// The connection that hears about changes dropped; changes may go unheard until ``connectionRestored``.
    case connectionLost(reason: String)
    /// The connection is back: changes made meanwhile were not heard, so catch up with a delta.
    case connectionRestored
}

/// Which entities a delta reads, from the change log after the asked sequence; every backend plans
/// its delta alike and reads the state in the same transaction.
package struct DeltaPlan: Sendable, Equatable {
    /// The whole catalog is read instead.
    package var whole: Bool
    /// The places named by changes (the backend adds those whose revision is past the asked sequence,
    /// which a collection edit changed).
    package var places: Set<String>
    /// The collections named by changes.
    package var collections: Set<String>
    /// Whether the vocabulary is read.
    package var labels: Bool

    /// The plan for a delta after `after`, given the change log's entries after it, the store's
    /// `sequence` and the oldest sequence the log holds (`nil` when empty).
    package init(after: Int64, changes: [CatalogChange], sequence: Int64, oldestLogged: Int64?) {
        let logReaches = after >= sequence || (oldestLogged.map { $0 <= after + 1 } ?? false)
        whole = after < 0 || after > sequence || !logReaches || changes.contains { $0.entityType == "catalog" }
        places = []
        collections = []
        labels = false
        guard !whole else { return }
        for change in changes {
            switch change.entityType {
            case "place": places.insert(change.entityID)
            case "collection": collections.insert(change.entityID)
            case "labels": labels = true
            default: whole = true
            }
        }
    }
}
