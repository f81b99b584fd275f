import Foundation
import GlimpseCatalog
import GlimpseStore
import GlimpseFiles
import GlimpseWire
import PostgresNIO

/// One ``CatalogEdit`` inside one write transaction on PostgreSQL, with the SQLite store's semantics:
/// preconditions and validation (``EditRules``) against the state read inside the transaction, the
/// writes, one change-log entry and a `NOTIFY` of the new sequence number on ``channel``.
///
/// Several processes write one database: the transaction first locks the `sequence` row of
/// `store_meta`, so edits run one after the other and each sees the state the previous one committed.
/// A revision is the sequence number of the change that last changed the entity.
struct PostgresEditTransaction {
    /// The channel every changing edit notifies, with its sequence number as the payload.
    static let channel = "glimpse_catalog"

    let session: PostgresSession
    let rows: PostgresRows

    init(_ session: PostgresSession) {
        self.session = session
        rows = PostgresRows(session: session)
    }

    func apply(_ edit: CatalogEdit) async throws -> AppliedEdit {
        try await session.run("SELECT value FROM store_meta WHERE key = 'sequence' FOR UPDATE")
        switch edit {
        case let .putPlace(place, photos, precondition):
            return try await putPlace(place, photos: photos, precondition: precondition)
        case let .deletePlace(id, precondition):
            return try await deletePlace(id: id, precondition: precondition)
        case let .addPhoto(placeID, photo, precondition):
            return try await addPhoto(placeID: placeID, photo: photo, precondition: precondition)
        case let .removePhoto(placeID, sha256, precondition):
            return try await removePhoto(placeID: placeID, sha256: sha256, precondition: precondition)
        case let .putCollection(collection, members, precondition):
            return try await putCollection(collection, members: members, precondition: precondition)
        case let .deleteCollection(id, precondition):
            return try await deleteCollection(id: id, precondition: precondition)
        case let .setLabels(labels, precondition):
            return try await setLabels(labels, precondition: precondition)
        case let .replaceCatalog(definition, photos, replace):
            return try await replaceCatalog(definition, photos: photos, replace: replace)
        }
    }

    private func unchanged() async throws -> AppliedEdit {
        AppliedEdit(sequence: try await rows.sequence(), changed: false)
    }

    // MARK: - Places and photos

    private func putPlace(_ place: PlaceDefinition, photos: [NewPhoto]?, precondition: Precondition) async throws -> AppliedEdit {
        let existing = try await rows.placeRow(id: place.id)
        try EditRules.check(precondition, type: "place", id: place.id, current: existing?.revision)
        let oldPhotos = existing == nil ? [] : try await rows.photoRows(placeID: place.id)
        let newPhotos = photos.map { $0.map(PhotoRow.init) } ?? oldPhotos
        try EditRules.checkPutPlace(place, isNew: existing == nil, photos: newPhotos, vocabulary: try await rows.labels(),
                                    collections: try await rows.collectionDefinitions(among: place.collections))
        let fields = place.fields
        if let existing, existing.fields == fields, newPhotos == oldPhotos { return try await unchanged() }
        for photo in photos ?? [] { try await checkNameIsFree(photo, placeID: place.id) }
        let sequence = try await appendChange(kind: "putPlace", type: "place", id: place.id)
        let json = try fields.storedJSON
        if existing == nil {
            try await session.run("""
                INSERT INTO places (id, position, fields, revision)
                VALUES (\(place.id), (SELECT COALESCE(MAX(position), -1) + 1 FROM places), \(json), \(sequence))
                """)
        } else {
            try await session.run("UPDATE places SET fields = \(json), revision = \(sequence) WHERE id = \(place.id)")
        }
        if let photos, newPhotos != oldPhotos {
            try await session.run("DELETE FROM photos WHERE place_id = \(place.id)")
            for (position, photo) in photos.enumerated() {
                try await insertPhoto(photo, placeID: place.id, position: position)
            }
            try await deleteUnused(oldPhotos.map(\.sha256))
        }
        return try await outcome(sequence, places: [place.id])
    }

    private func deletePlace(id: String, precondition: Precondition) async throws -> AppliedEdit {
        let existing = try await rows.placeRow(id: id)
        try EditRules.check(precondition, type: "place", id: id, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "place", id: id) }
        let old = try await rows.photoRows(placeID: id)
        let sequence = try await appendChange(kind: "deletePlace", type: "place", id: id)
        try await session.run("DELETE FROM photos WHERE place_id = \(id)")
        try await session.run("DELETE FROM places WHERE id = \(id)")
        try await deleteUnused(old.map(\.sha256))
        return try await outcome(sequence, places: [id])
    }

    private func addPhoto(placeID: String, photo: NewPhoto, precondition: Precondition) async throws -> AppliedEdit {
        let existing = try await rows.placeRow(id: placeID)
        try EditRules.check(precondition, type: "place", id: placeID, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "place", id: placeID) }
        guard try EditRules.checkAddPhoto(photo, placeID: placeID, existing: try await rows.photoRows(placeID: placeID)) else {
            return try await unchanged()
        }
        try await checkNameIsFree(photo, placeID: placeID)
        let sequence = try await appendChange(kind: "addPhoto", type: "place", id: placeID)
        let position = try await session.value(
            "SELECT COALESCE(MAX(position), -1) + 1 FROM photos WHERE place_id = \(placeID)", as: Int64.self) ?? 0
        try await insertPhoto(photo, placeID: placeID, position: Int(position))
        try await bump(placeID: placeID, sequence: sequence)
        return try await outcome(sequence, places: [placeID])
    }

    private func removePhoto(placeID: String, sha256: String, precondition: Precondition) async throws -> AppliedEdit {
        let existing = try await rows.placeRow(id: placeID)
        try EditRules.check(precondition, type: "place", id: placeID, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "place", id: placeID) }
        try EditRules.checkRemovePhoto(sha256: sha256, placeID: placeID, existing: try await rows.photoRows(placeID: placeID))
        let sequence = try await appendChange(kind: "removePhoto", type: "place", id: placeID)
        try await session.run("DELETE FROM photos WHERE place_id = \(placeID) AND sha256 = \(sha256)")
        try await deleteUnused([sha256])
        try await bump(placeID: placeID, sequence: sequence)
        return try await outcome(sequence, places: [placeID])
    }

    /// Refuses a photo name that another place uses for other bytes (export writes one file per name).
    private func checkNameIsFree(_ photo: NewPhoto, placeID: String) async throws {
        if let holder = try await session.value("""
            SELECT place_id FROM photos WHERE name = \(photo.name) AND sha256 <> \(photo.sha256)
            AND place_id <> \(placeID) LIMIT 1
            """, as: String.self) {
            throw EditRules.nameTaken(photo.name, holder: holder)
        }
    }

    private func insertPhoto(_ photo: NewPhoto, placeID: String, position: Int) async throws {
        try await session.run("""
            INSERT INTO photo_contents (sha256, bytes, byte_count, features, features_key)
            VALUES (\(photo.sha256), \(Data(photo.bytes)), \(Int64(photo.bytes.count)),
                \(Data(photo.features.bytes)), \(photo.featuresKey))
            ON CONFLICT (sha256) DO UPDATE SET features = excluded.features, features_key = excluded.features_key
            """)
        let credit = try PhotoRow.creditColumn(photo.credit)
        try await session.run("""
            INSERT INTO photos (place_id, position, sha256, name, credit)
            VALUES (\(placeID), \(Int64(position)), \(photo.sha256), \(photo.name), \(credit))
            """)
    }

    /// Deletes the contents of these photos that no place uses any more.
    private func deleteUnused(_ shas: [String]) async throws {
        guard !shas.isEmpty else { return }
        try await session.run("""
            DELETE FROM photo_contents c WHERE c.sha256 = ANY(\(Array(Set(shas))))
            AND NOT EXISTS (SELECT 1 FROM photos p WHERE p.sha256 = c.sha256)
            """)
    }

    private func bump(placeID: String, sequence: Int64) async throws {
        try await session.run("UPDATE places SET revision = \(sequence) WHERE id = \(placeID)")
    }

    // MARK: - Collections and labels

    private func putCollection(
        _ collection: CollectionDefinition, members: [String]?, precondition: Precondition
    ) async throws -> AppliedEdit {
        let existing = try await rows.collection(id: collection.id)
        try EditRules.check(precondition, type: "collection", id: collection.id, current: existing?.revision)
        try EditRules.checkCollection(collection)
        let listing = existing == nil ? [] : try await rows.placesMentioning(collection.id)
            .filter { $0.fields.collections.contains(collection.id) }
        var missing: String?
        if let members { missing = try await rows.missingPlaces(among: members).first }
        let (adding, removing) = try EditRules.membershipChanges(members: members, listing: listing.map(\.id), missing: missing)
        if existing?.definition == collection, adding.isEmpty, removing.isEmpty { return try await unchanged() }
        let sequence = try await appendChange(kind: "putCollection", type: "collection", id: collection.id)
        if existing == nil {
            try await session.run("""
                INSERT INTO collections (id, position, name, summary, revision)
                VALUES (\(collection.id), (SELECT COALESCE(MAX(position), -1) + 1 FROM collections), \(collection.name),
                    \(collection.summary), \(sequence))
                """)
        } else {
            try await session.run("""
                UPDATE collections SET name = \(collection.name), summary = \(collection.summary), revision = \(sequence)
                WHERE id = \(collection.id)
                """)
        }
        for id in adding {
            try await updateFields(of: id, sequence: sequence) { $0.collections.append(collection.id) }
        }
        for id in removing {
            try await updateFields(of: id, sequence: sequence) { $0.collections.removeAll { $0 == collection.id } }
        }
        return try await outcome(sequence, places: Set(adding).union(removing), collections: [collection.id])
    }

    private func deleteCollection(id: String, precondition: Precondition) async throws -> AppliedEdit {
        let existing = try await rows.collection(id: id)
        try EditRules.check(precondition, type: "collection", id: id, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "collection", id: id) }
        let listing = try await rows.placesMentioning(id).filter { $0.fields.collections.contains(id) }
        let sequence = try await appendChange(kind: "deleteCollection", type: "collection", id: id)
        for place in listing {
            try await updateFields(of: place.id, sequence: sequence) { $0.collections.removeAll { $0 == id } }
        }
        try await session.run("DELETE FROM collections WHERE id = \(id)")
        return try await outcome(sequence, places: Set(listing.map(\.id)), collections: [id])
    }

    private func setLabels(_ labels: [String], precondition: Precondition) async throws -> AppliedEdit {
        try EditRules.check(precondition, type: "labels", id: "labels", current: try await rows.labelsRevision())
        try EditRules.checkLabels(labels)
        let old = try await rows.labels()
        if old == labels { return try await unchanged() }
        for dropped in EditRules.droppedLabels(old: old, new: labels) {
            let users = try await rows.placesMentioning(dropped).filter { $0.fields.labels.contains(dropped) }
            try EditRules.checkUnused(label: dropped, users: users.map(\.id))
        }
        let sequence = try await appendChange(kind: "setLabels", type: "labels", id: "")
        try await writeLabels(labels, sequence: sequence)
        var applied = AppliedEdit(sequence: sequence, changed: true)
        applied.labels = labels
        return applied
    }

    private func writeLabels(_ labels: [String], sequence: Int64) async throws {
        try await session.run("DELETE FROM labels")
        if !labels.isEmpty {
            let positions = labels.indices.map { Int64($0) }
            try await session.run("INSERT INTO labels (position, label) SELECT * FROM unnest(\(positions)::BIGINT[], \(labels)::TEXT[])")
        }
        try await session.run("UPDATE store_meta SET value = \(String(sequence)) WHERE key = 'labels_revision'")
    }

    private func updateFields(of placeID: String, sequence: Int64, _ change: (inout PlaceFields) -> Void) async throws {
        guard var fields = try await rows.placeRow(id: placeID)?.fields else { return }
        change(&fields)
        let json = try fields.storedJSON
        try await session.run("UPDATE places SET fields = \(json), revision = \(sequence) WHERE id = \(placeID)")
    }

    // MARK: - Whole catalogs

    private func replaceCatalog(_ definition: CatalogDefinition, photos: [[NewPhoto]], replace: Bool) async throws -> AppliedEdit {
        try EditRules.checkCatalog(definition, photos: photos)
        let oldPlaces = try await session.rows("SELECT id FROM places").map { try $0.decode(String.self) }
        let oldCollections = try await session.rows("SELECT id FROM collections").map { try $0.decode(String.self) }
        let oldLabels = try await rows.labels()
        try EditRules.checkEmpty(replace: replace, places: oldPlaces.count, collections: oldCollections.count,
                                 labels: oldLabels.count)
        let sequence = try await appendChange(kind: "replaceCatalog", type: "catalog", id: "")
        try await session.run("DELETE FROM photos")
        try await session.run("DELETE FROM places")
        try await session.run("DELETE FROM photo_contents")
        try await session.run("DELETE FROM collections")
        try await writeLabels(definition.labels, sequence: sequence)
        for (position, collection) in definition.collections.enumerated() {
            try await session.run("""
                INSERT INTO collections (id, position, name, summary, revision)
                VALUES (\(collection.id), \(Int64(position)), \(collection.name), \(collection.summary), \(sequence))
                """)
        }
        for (position, (place, placePhotos)) in zip(definition.places, photos).enumerated() {
            let json = try place.fields.storedJSON
            try await session.run("""
                INSERT INTO places (id, position, fields, revision) VALUES (\(place.id), \(Int64(position)), \(json), \(sequence))
                """)
            for (index, photo) in placePhotos.enumerated() {
                try await insertPhoto(photo, placeID: place.id, position: index)
            }
        }
        var applied = try await outcome(sequence, places: Set(oldPlaces).union(definition.places.map(\.id)),
                                        collections: Set(oldCollections).union(definition.collections.map(\.id)))
        applied.labels = definition.labels
        return applied
    }

    // MARK: - Change log

    /// Appends a change-log entry, notifies listeners, and returns its sequence number, the store's new sequence.
    private func appendChange(kind: String, type: String, id: String) async throws -> Int64 {
        let sequence = try await rows.sequence() + 1
        let at = Int64(Date().timeIntervalSince1970 * 1000)
        try await session.run("UPDATE store_meta SET value = \(String(sequence)) WHERE key = 'sequence'")
        try await session.run("""
            INSERT INTO changes (sequence, at_ms, kind, entity_type, entity_id)
            VALUES (\(sequence), \(at), \(kind), \(type), \(id))
            """)
        try await session.run("SELECT pg_notify(\(Self.channel), \(String(sequence)))")
        return sequence
    }

    /// The outcome of a change: the new state of these places and collections (`nil` when gone).
    private func outcome(
        _ sequence: Int64, places: some Sequence<String>, collections: some Sequence<String> = [String]()
    ) async throws -> AppliedEdit {
        var applied = AppliedEdit(sequence: sequence, changed: true)
        for id in places { applied.places.updateValue(try await rows.place(id: id, features: .any), forKey: id) }
        for id in collections { applied.collections.updateValue(try await rows.collection(id: id), forKey: id) }
        return applied
    }
}
