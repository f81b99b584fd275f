import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GRDB
import GlimpseWire

/// Reads of the stored state inside a transaction or a read.
struct StoreRows {
    let db: Database

    init(_ db: Database) { self.db = db }

    func meta(_ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = ?", arguments: [key])
    }

    func sequence() throws -> Int64 { Int64(try meta("sequence") ?? "0") ?? 0 }

    func labelsRevision() throws -> Int64 { Int64(try meta("labels_revision") ?? "0") ?? 0 }

    func labels() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT label FROM labels ORDER BY position")
    }

    func collections() throws -> [StoredCollection] {
        try Row.fetchAll(db, sql: "SELECT id, name, summary, revision FROM collections ORDER BY position").map { row in
            StoredCollection(definition: CollectionDefinition(id: row[0], name: row[1], summary: row[2]), revision: row[3])
        }
    }

    func collection(id: String) throws -> StoredCollection? {
        try Row.fetchOne(db, sql: "SELECT name, summary, revision FROM collections WHERE id = ?", arguments: [id]).map { row in
            StoredCollection(definition: CollectionDefinition(id: id, name: row[0], summary: row[1]), revision: row[2])
        }
    }

    /// The stored collections among `ids`.
    func collectionDefinitions(among ids: [String]) throws -> [CollectionDefinition] {
        try ids.compactMap { id in try collection(id: id)?.definition }
    }

    /// A place's fields and revision.
    func placeRow(id: String) throws -> (fields: PlaceFields, revision: Int64)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT fields, revision FROM places WHERE id = ?", arguments: [id])
        else { return nil }
        return (try PlaceFields.decode(row[0], placeID: id), row[1])
    }

    /// The places whose fields mention `value` (a collection id or a label), with their fields and revisions.
    func placesMentioning(_ value: String) throws -> [(id: String, fields: PlaceFields, revision: Int64)] {
        try Row.fetchAll(db, sql: "SELECT id, fields, revision FROM places WHERE fields LIKE ? ESCAPE '\\' ORDER BY position",
                         arguments: [try PlaceFields.mentionPattern(value)]).map { row in
            (row[0], try PlaceFields.decode(row[1], placeID: row[0]), row[2])
        }
    }

    func photoRows(placeID: String) throws -> [PhotoRow] {
        try Row.fetchAll(db, sql: "SELECT sha256, name, credit FROM photos WHERE place_id = ? ORDER BY position",
                         arguments: [placeID]).map { row in
            PhotoRow(sha256: try StoredPhoto.checkedAddress(row[0], of: "the photos of place '\(placeID)'"), name: row[1],
                     credit: try PhotoRow.credit(row[2]))
        }
    }

    /// The stored photos of one place (`placeID`) or of all, grouped by place id, in order.
    func photos(placeID: String?, features: FeatureChoice) throws -> [String: [StoredPhoto]] {
        let featureColumn: String
        var arguments: StatementArguments = []
        switch features {
        case .none: featureColumn = "NULL"
        case .any: featureColumn = "c.features"
        case .key(let key):
            featureColumn = "CASE WHEN c.features_key = ? THEN c.features END"
            arguments += [key]
        }
        var sql = "SELECT p.place_id, p.sha256, p.name, p.credit, c.byte_count, \(featureColumn), c.features_key "
            + "FROM photos p JOIN photo_contents c ON c.sha256 = p.sha256"
        if let placeID {
            sql += " WHERE p.place_id = ?"
            arguments += [placeID]
        }
        sql += " ORDER BY p.place_id, p.position"
        var out: [String: [StoredPhoto]] = [:]
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            let sha = try StoredPhoto.checkedAddress(row[1], of: "the photos of place '\(row[0] as String)'")
            // Kept in their stored coding: the engine reads them, and says which photo's are damaged.
            let stored = (row[5] as Data?).map { EncodedFeatures(bytes: [UInt8]($0)) }
            out[row[0], default: []].append(StoredPhoto(
                sha256: sha, name: row[2], credit: try PhotoRow.credit(row[3]), byteCount: row[4], features: stored,
                featuresKey: row[6]))
        }
        return out
    }

    func place(id: String, features: FeatureChoice) throws -> StoredPlace? {
        guard let (fields, revision) = try placeRow(id: id) else { return nil }
        let photos = try self.photos(placeID: id, features: features)[id] ?? []
        return StoredPlace(id: id, fields: fields, revision: revision, photos: photos)
    }

    func catalog(storeID: String, features: FeatureChoice) throws -> StoredCatalog {
        let photos = try self.photos(placeID: nil, features: features)
        let places = try Row.fetchAll(db, sql: "SELECT id, fields, revision FROM places ORDER BY position").map { row in
            let id: String = row[0]
            return StoredPlace(
                id: id, fields: try PlaceFields.decode(row[1], placeID: id), revision: row[2], photos: photos[id] ?? [])
        }
        return StoredCatalog(
            storeID: storeID, sequence: try sequence(), labels: try labels(), labelsRevision: try labelsRevision(),
            places: places, collections: try collections())
    }

    /// The change log after `sequence`, oldest first.
    func changes(after sequence: Int64) throws -> [CatalogChange] {
        try Row.fetchAll(db, sql: "SELECT sequence, at_ms, kind, entity_type, entity_id FROM changes "
            + "WHERE sequence > ? ORDER BY sequence", arguments: [sequence]).map { row in
            CatalogChange(sequence: row[0], at: Date(timeIntervalSince1970: Double(row[1] as Int64) / 1000),
                          kind: row[2], entityType: row[3], entityID: row[4])
        }
    }

    /// What changed after `after` (see ``CatalogStore/delta(after:featuresKey:)``): the places the log
    /// names or whose revision is past `after` (a collection edit changes the places listing it).
    func delta(after: Int64, storeID: String, features: FeatureChoice) throws -> CatalogDelta {
        let sequence = try sequence()
        let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(sequence) FROM changes")
        let plan = DeltaPlan(after: after, changes: try changes(after: after), sequence: sequence, oldestLogged: oldest)
        if plan.whole { return CatalogDelta(sequence: sequence, whole: try catalog(storeID: storeID, features: features)) }
        var delta = CatalogDelta(sequence: sequence)
        let revised = try String.fetchAll(db, sql: "SELECT id FROM places WHERE revision > ?", arguments: [after])
        for id in plan.places.union(revised) { delta.places.updateValue(try place(id: id, features: features), forKey: id) }
        for id in plan.collections { delta.collections.updateValue(try collection(id: id), forKey: id) }
        if plan.labels {
            delta.labels = try labels()
            delta.labelsRevision = try labelsRevision()
        }
        return delta
    }
}
