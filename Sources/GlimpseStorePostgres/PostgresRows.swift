import Foundation
import GlimpseCatalog
import GlimpseStore
import GlimpseFiles
import GlimpseWire
import PostgresNIO

/// Reads of the stored state inside a transaction, the PostgreSQL twin of the SQLite store's rows.
struct PostgresRows {
    let session: PostgresSession

    func meta(_ key: String) async throws -> String? {
        try await session.value("SELECT value FROM store_meta WHERE key = \(key)", as: String.self)
    }

    func sequence() async throws -> Int64 { Int64(try await meta("sequence") ?? "0") ?? 0 }

    func labelsRevision() async throws -> Int64 { Int64(try await meta("labels_revision") ?? "0") ?? 0 }

    func labels() async throws -> [String] {
        try await session.rows("SELECT label FROM labels ORDER BY position").map { try $0.decode(String.self) }
    }

    func collections() async throws -> [StoredCollection] {
        try await session.rows("SELECT id, name, summary, revision FROM collections ORDER BY position").map { row in
            let (id, name, summary, revision) = try row.decode((String, String, String, Int64).self)
            return StoredCollection(definition: CollectionDefinition(id: id, name: name, summary: summary), revision: revision)
        }
    }

    func collection(id: String) async throws -> StoredCollection? {
        guard let row = try await session.rows("SELECT name, summary, revision FROM collections WHERE id = \(id)").first
        else { return nil }
        let (name, summary, revision) = try row.decode((String, String, Int64).self)
        return StoredCollection(definition: CollectionDefinition(id: id, name: name, summary: summary), revision: revision)
    }

    /// The stored collections among `ids`.
    func collectionDefinitions(among ids: [String]) async throws -> [CollectionDefinition] {
        var found: [CollectionDefinition] = []
        for id in ids { if let collection = try await collection(id: id) { found.append(collection.definition) } }
        return found
    }

    /// A place's fields and revision.
    func placeRow(id: String) async throws -> (fields: PlaceFields, revision: Int64)? {
        guard let row = try await session.rows("SELECT fields, revision FROM places WHERE id = \(id)").first else { return nil }
        let (fields, revision) = try row.decode((String, Int64).self)
        return (try PlaceFields.decode(fields, placeID: id), revision)
    }

    /// The ids of the places among `ids` that do not exist, in order.
    func missingPlaces(among ids: [String]) async throws -> [String] {
        let existing = Set(try await session.rows("SELECT id FROM places WHERE id = ANY(\(ids))").map { try $0.decode(String.self) })
        return ids.filter { !existing.contains($0) }
    }

    /// The places whose fields mention `value` (a collection id or a label), with their fields and revisions.
    func placesMentioning(_ value: String) async throws -> [(id: String, fields: PlaceFields, revision: Int64)] {
        let pattern = try PlaceFields.mentionPattern(value)
        return try await session.rows(
            "SELECT id, fields, revision FROM places WHERE fields LIKE \(pattern) ESCAPE '\\' ORDER BY position"
        ).map { row in
            let (id, fields, revision) = try row.decode((String, String, Int64).self)
            return (id, try PlaceFields.decode(fields, placeID: id), revision)
        }
    }

    func photoRows(placeID: String) async throws -> [PhotoRow] {
        try await session.rows("SELECT sha256, name, credit FROM photos WHERE place_id = \(placeID) ORDER BY position").map { row in
            let (sha, name, credit) = try row.decode((String, String, String?).self)
            return PhotoRow(sha256: try StoredPhoto.checkedAddress(sha, of: "the photos of place '\(placeID)'"), name: name,
                            credit: try PhotoRow.credit(credit))
        }
    }

    /// The stored photos of one place (`placeID`) or of all, grouped by place id, in order.
    func photos(placeID: String?, features: FeatureChoice) async throws -> [String: [StoredPhoto]] {
        let key: String?
        let any: Bool
        switch features {
        case .none: (key, any) = (nil, false)
        case .any: (key, any) = (nil, true)
        case .key(let wanted): (key, any) = (wanted, false)
        }
        let rows = try await session.rows("""
            SELECT p.place_id, p.sha256, p.name, p.credit, c.byte_count,
                CASE WHEN \(any) OR c.features_key = \(key) THEN c.features END, c.features_key
            FROM photos p JOIN photo_contents c ON c.sha256 = p.sha256
            WHERE \(placeID)::TEXT IS NULL OR p.place_id = \(placeID) ORDER BY p.place_id, p.position
            """)
        var out: [String: [StoredPhoto]] = [:]
        for row in rows {
            let (place, sha, name, credit, byteCount, blob, storedKey) =
                try row.decode((String, String, String, String?, Int64, Data?, String?).self)
            _ = try StoredPhoto.checkedAddress(sha, of: "the photos of place '\(place)'")
            // Kept in their stored coding: the engine reads them, and says which photo's are damaged.
            let stored = blob.map { EncodedFeatures(bytes: [UInt8]($0)) }
            out[place, default: []].append(StoredPhoto(
                sha256: sha, name: name, credit: try PhotoRow.credit(credit), byteCount: Int(byteCount), features: stored,
                featuresKey: storedKey))
        }
        return out
    }

    func place(id: String, features: FeatureChoice) async throws -> StoredPlace? {
        guard let (fields, revision) = try await placeRow(id: id) else { return nil }
        let photos = try await self.photos(placeID: id, features: features)[id] ?? []
        return StoredPlace(id: id, fields: fields, revision: revision, photos: photos)
    }

    func catalog(storeID: String, features: FeatureChoice) async throws -> StoredCatalog {
        let photos = try await self.photos(placeID: nil, features: features)
        let places = try await session.rows("SELECT id, fields, revision FROM places ORDER BY position").map { row in
            let (id, fields, revision) = try row.decode((String, String, Int64).self)
            return StoredPlace(
                id: id, fields: try PlaceFields.decode(fields, placeID: id), revision: revision, photos: photos[id] ?? [])
        }
        return StoredCatalog(
            storeID: storeID, sequence: try await sequence(), labels: try await labels(),
            labelsRevision: try await labelsRevision(), places: places, collections: try await collections())
    }

    /// The change log after `sequence`, oldest first.
    func changes(after sequence: Int64) async throws -> [CatalogChange] {
        try await session.rows(
            "SELECT sequence, at_ms, kind, entity_type, entity_id FROM changes WHERE sequence > \(sequence) ORDER BY sequence"
        ).map { row in
            let (sequence, at, kind, type, id) = try row.decode((Int64, Int64, String, String, String).self)
            return CatalogChange(sequence: sequence, at: Date(timeIntervalSince1970: Double(at) / 1000), kind: kind,
                                 entityType: type, entityID: id)
        }
    }

    /// What changed after `after` (see ``CatalogStore/delta(after:featuresKey:)``): the places the log
    /// names or whose revision is past `after` (a collection edit changes the places listing it).
    func delta(after: Int64, storeID: String, features: FeatureChoice) async throws -> CatalogDelta {
        let sequence = try await sequence()
        let oldest = try await session.value("SELECT MIN(sequence) FROM changes", as: Int64?.self) ?? nil
        let plan = DeltaPlan(after: after, changes: try await changes(after: after), sequence: sequence, oldestLogged: oldest)
        if plan.whole { return CatalogDelta(sequence: sequence, whole: try await catalog(storeID: storeID, features: features)) }
        var delta = CatalogDelta(sequence: sequence)
        let revised = try await session.rows("SELECT id FROM places WHERE revision > \(after)").map { try $0.decode(String.self) }
        for id in plan.places.union(revised) { delta.places.updateValue(try await place(id: id, features: features), forKey: id) }
        for id in plan.collections { delta.collections.updateValue(try await collection(id: id), forKey: id) }
        if plan.labels {
            delta.labels = try await labels()
            delta.labelsRevision = try await labelsRevision()
        }
        return delta
    }
}
