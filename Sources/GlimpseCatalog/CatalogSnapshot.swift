import Foundation
import GlimpseIntents
import Synchronization

/// An immutable catalog with a content-derived id: what a visual search and its cursors are bound to.
///
/// The id is the first 16 hex digits of the SHA-256 of `catalog.json`'s bytes, so the same file
/// always gives the same id and any edit gives a new one.
public struct CatalogSnapshot: Sendable {
    /// The content-derived id, 16 lowercase hex digits.
    public let id: String
    /// The catalog.
    public let catalog: Catalog
    /// The id as 8 raw bytes, as carried in cursors.
    let idBytes: [UInt8]
    /// Per collection (in catalog order): label → fraction of its places that carry the label.
    let labelProfiles: [[String: Double]]
    /// Folded label → vocabulary label.
    let vocabulary: [String: String]
    /// Vocabulary label → its position in the vocabulary.
    let labelOffsets: [String: Int]
    /// Vocabulary label → how informative it is: `ln((places + 1) / (places carrying it + 0.5))`.
    let labelInformativeness: [String: Double]

    /// Takes a snapshot of `catalog`.
    public init(_ catalog: Catalog) {
        let digest = SHA256.hash(catalog.contents)
        idBytes = Array(digest.prefix(8))
        id = SHA256.hex(idBytes)
        self.catalog = catalog
        labelProfiles = catalog.collections.map { collection in
            var counts: [String: Double] = [:]
            for placeID in collection.places {
                for label in catalog.place(id: placeID)?.labels ?? [] { counts[label, default: 0] += 1 }
            }
            let size = Double(max(collection.places.count, 1))
            return counts.mapValues { $0 / size }
        }
        var vocabulary: [String: String] = [:]
        var offsets: [String: Int] = [:]
        for (offset, label) in catalog.labels.enumerated() {
            vocabulary[TextFolding.fold(label), default: label] = label
            offsets[label] = offset
        }
        self.vocabulary = vocabulary
        self.labelOffsets = offsets
        var carriers: [String: Int] = [:]
        for place in catalog.places {
            for label in Set(place.labels) { carriers[label, default: 0] += 1 }
        }
        let placeCount = Double(catalog.places.count)
        labelInformativeness = Dictionary(uniqueKeysWithValues: catalog.labels.map { label in
            (label, log((placeCount + 1) / (Double(carriers[label] ?? 0) + 0.5)))
        })
    }
}

/// The secret that signs continuation cursors, so a damaged or forged cursor is refused.
public struct CursorKey: Sendable {
    let bytes: [UInt8]

    /// A key from secret bytes (at least 16 are recommended).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// A key derived from a passphrase (its SHA-256).
    public init(passphrase: String) { bytes = SHA256.hash(Array(passphrase.utf8)) }

    /// A fresh random 32-byte key: cursors then verify only in this process.
    public static func random() -> CursorKey {
        var generator = SystemRandomNumberGenerator()
        return CursorKey(bytes: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// Keeps the most recent catalog snapshots so cursors issued against an older catalog still page
/// exactly; thread-safe.
public final class SnapshotStore: Sendable {
    /// How many snapshots are kept; the least recently published is dropped first.
    public let capacity: Int
    /// The key that signs and verifies cursors.
    public let cursorKey: CursorKey
    private let snapshots = Mutex<[CatalogSnapshot]>([])

    /// Creates an empty store keeping at most `capacity` snapshots (at least 1).
    public init(capacity: Int = 8, cursorKey: CursorKey = .random()) {
        self.capacity = max(capacity, 1)
        self.cursorKey = cursorKey
    }

    /// Makes `catalog` the current snapshot and returns it; publishing an unchanged catalog returns
    /// the existing snapshot.
    @discardableResult
    public func publish(_ catalog: Catalog) -> CatalogSnapshot {
        let snapshot = CatalogSnapshot(catalog)
        return snapshots.withLock { list in
            if let index = list.firstIndex(where: { $0.id == snapshot.id }) {
                let existing = list.remove(at: index)
                list.append(existing)
                return existing
            }
            list.append(snapshot)
            if list.count > capacity { list.removeFirst(list.count - capacity) }
            return snapshot
        }
    }

    /// The most recently published snapshot, or `nil` when none was.
    public var current: CatalogSnapshot? { snapshots.withLock { $0.last } }

    /// The kept snapshot with this id, or `nil` when it was never published or has been dropped.
    public func snapshot(id: String) -> CatalogSnapshot? {
        snapshots.withLock { list in list.first { $0.id == id } }
    }

    /// The ids of the kept snapshots, oldest first.
    public var snapshotIDs: [String] { snapshots.withLock { $0.map(\.id) } }
}
