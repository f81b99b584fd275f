import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GRDB
import GlimpseWire

/// One ``CatalogEdit`` inside one write transaction: preconditions, validation against the stored
/// state, the writes, the change-log entry.
///
/// A revision is the sequence number of the change that last changed the entity, so revisions only
/// grow, even across a delete and a re-create, and an edit that changes nothing leaves them as they are.
struct EditTransaction {
    let db: Database
    let rows: StoreRows
    /// The photo files the edit writes and stops using.
    let files: PhotoFileJournal

    init(_ db: Database, files: PhotoFileJournal) {
        self.db = db
        rows = StoreRows(db)
        self.files = files
    }

    func apply(_ edit: CatalogEdit) throws -> AppliedEdit {
        switch edit {
        case let .putPlace(place, photos, precondition):
            return try putPlace(place, photos: photos, precondition: precondition)
        case let .deletePlace(id, precondition):
            return try deletePlace(id: id, precondition: precondition)
        case let .addPhoto(placeID, photo, precondition):
            return try addPhoto(placeID: placeID, photo: photo, precondition: precondition)
        case let .removePhoto(placeID, sha256, precondition):
            return try removePhoto(placeID: placeID, sha256: sha256, precondition: precondition)
        case let .putCollection(collection, members, precondition):
            return try putCollection(collection, members: members, precondition: precondition)
        case let .deleteCollection(id, precondition):
            return try deleteCollection(id: id, precondition: precondition)
        case let .setLabels(labels, precondition):
            return try setLabels(labels, precondition: precondition)
        case let .replaceCatalog(definition, photos, replace):
            return try replaceCatalog(definition, photos: photos, replace: replace)
        }
    }

    // MARK: - Places and photos

    private func putPlace(_ place: PlaceDefinition, photos: [NewPhoto]?, precondition: Precondition) throws -> AppliedEdit {
        let existing = try rows.placeRow(id: place.id)
        try EditRules.check(precondition, type: "place", id: place.id, current: existing?.revision)
        let oldPhotos = existing == nil ? [] : try rows.photoRows(placeID: place.id)
        let newPhotos = photos.map { $0.map(PhotoRow.init) } ?? oldPhotos
        try EditRules.checkPutPlace(place, isNew: existing == nil, photos: newPhotos, vocabulary: try rows.labels(),
                                    collections: try rows.collectionDefinitions(among: place.collections))
        let fields = place.fields
        if let existing, existing.fields == fields, newPhotos == oldPhotos {
            return AppliedEdit(sequence: try rows.sequence(), changed: false)
        }
        for photo in photos ?? [] { try checkNameIsFree(photo, placeID: place.id) }
        let sequence = try appendChange(kind: "putPlace", type: "place", id: place.id)
        if existing == nil {
            try db.execute(sql: "INSERT INTO places (id, position, fields, revision) VALUES (?, "
                + "(SELECT COALESCE(MAX(position), -1) + 1 FROM places), ?, ?)",
                           arguments: [place.id, try fields.storedJSON, sequence])
        } else {
            try db.execute(sql: "UPDATE places SET fields = ?, revision = ? WHERE id = ?",
                           arguments: [try fields.storedJSON, sequence, place.id])
        }
        if let photos, newPhotos != oldPhotos {
            try db.execute(sql: "DELETE FROM photos WHERE place_id = ?", arguments: [place.id])
            for (position, photo) in photos.enumerated() {
                try insertPhoto(photo, placeID: place.id, position: position)
            }
            try deleteUnused(oldPhotos.map(\.sha256))
        }
        return try outcome(sequence, places: [place.id])
    }

    private func deletePlace(id: String, precondition: Precondition) throws -> AppliedEdit {
        let existing = try rows.placeRow(id: id)
        try EditRules.check(precondition, type: "place", id: id, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "place", id: id) }
        let old = try rows.photoRows(placeID: id)
        let sequence = try appendChange(kind: "deletePlace", type: "place", id: id)
        try db.execute(sql: "DELETE FROM photos WHERE place_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM places WHERE id = ?", arguments: [id])
        try deleteUnused(old.map(\.sha256))
        return try outcome(sequence, places: [id])
    }

    private func addPhoto(placeID: String, photo: NewPhoto, precondition: Precondition) throws -> AppliedEdit {
        let existing = try rows.placeRow(id: placeID)
        try EditRules.check(precondition, type: "place", id: placeID, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "place", id: placeID) }
        guard try EditRules.checkAddPhoto(photo, placeID: placeID, existing: try rows.photoRows(placeID: placeID)) else {
            return AppliedEdit(sequence: try rows.sequence(), changed: false)
        }
        try checkNameIsFree(photo, placeID: placeID)
        let sequence = try appendChange(kind: "addPhoto", type: "place", id: placeID)
        let position = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM photos WHERE place_id = ?",
                                        arguments: [placeID]) ?? 0
        try insertPhoto(photo, placeID: placeID, position: position)
        try bump(placeID: placeID, sequence: sequence)
        return try outcome(sequence, places: [placeID])
    }

    private func removePhoto(placeID: String, sha256: String, precondition: Precondition) throws -> AppliedEdit {
        let existing = try rows.placeRow(id: placeID)
        try EditRules.check(precondition, type: "place", id: placeID, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "place", id: placeID) }
        try EditRules.checkRemovePhoto(sha256: sha256, placeID: placeID, existing: try rows.photoRows(placeID: placeID))
        let sequence = try appendChange(kind: "removePhoto", type: "place", id: placeID)
        try db.execute(sql: "DELETE FROM photos WHERE place_id = ? AND sha256 = ?", arguments: [placeID, sha256])
        try deleteUnused([sha256])
        try bump(placeID: placeID, sequence: sequence)
        return try outcome(sequence, places: [placeID])
    }

    /// Refuses a photo name that another place uses for other bytes (export writes one file per name).
    private func checkNameIsFree(_ photo: NewPhoto, placeID: String) throws {
        if let other = try Row.fetchOne(db, sql: "SELECT place_id FROM photos WHERE name = ? AND sha256 <> ? "
            + "AND place_id <> ? LIMIT 1", arguments: [photo.name, photo.sha256, placeID]) {
            throw EditRules.nameTaken(photo.name, holder: other[0])
        }
    }

    private func insertPhoto(_ photo: NewPhoto, placeID: String, position: Int) throws {
        // The content's file is on disk before the row that names it can commit; content already
        // stored keeps its file (written again if it went missing).
        let file = try String.fetchOne(db, sql: "SELECT file FROM photo_contents WHERE sha256 = ?", arguments: [photo.sha256])
            ?? StoredPhoto.fileName(sha256: photo.sha256, name: photo.name)
        guard PhotoFiles.isFileName(file, sha256: photo.sha256) else {
            throw StoreError.corrupt(path: files.files.folder, reason: "a photo's row names a file that is not its content address")
        }
        try files.put(photo.bytes, as: file)
        try db.execute(sql: """
            INSERT INTO photo_contents (sha256, bytes, byte_count, features, features_key, file) VALUES (?, X'', ?, ?, ?, ?)
            ON CONFLICT (sha256) DO UPDATE SET features = excluded.features, features_key = excluded.features_key
            """, arguments: [photo.sha256, photo.bytes.count, Data(photo.features.bytes), photo.featuresKey, file])
        try db.execute(sql: "INSERT INTO photos (place_id, position, sha256, name, credit) VALUES (?, ?, ?, ?, ?)",
                       arguments: [placeID, position, photo.sha256, photo.name, try PhotoRow.creditColumn(photo.credit)])
    }

    /// Deletes the contents of these photos that no place uses any more.
    private func deleteUnused(_ shas: [String]) throws {
        for sha in Set(shas) {
            let unused = "FROM photo_contents WHERE sha256 = ? AND NOT EXISTS (SELECT 1 FROM photos WHERE photos.sha256 = ?)"
            if let file = try String.fetchOne(db, sql: "SELECT file " + unused, arguments: [sha, sha]) { files.release(file) }
            try db.execute(sql: "DELETE " + unused, arguments: [sha, sha])
        }
    }

    private func bump(placeID: String, sequence: Int64) throws {
        try db.execute(sql: "UPDATE places SET revision = ? WHERE id = ?", arguments: [sequence, placeID])
    }

    // MARK: - Collections and labels

    private func putCollection(
        _ collection: CollectionDefinition, members: [String]?, precondition: Precondition
    ) throws -> AppliedEdit {
        let existing = try rows.collection(id: collection.id)
        try EditRules.check(precondition, type: "collection", id: collection.id, current: existing?.revision)
        try EditRules.checkCollection(collection)
        let listing = existing == nil ? [] : try rows.placesMentioning(collection.id)
            .filter { $0.fields.collections.contains(collection.id) }
        let missing = try members?.first { id in try rows.placeRow(id: id) == nil }
        let (adding, removing) = try EditRules.membershipChanges(members: members, listing: listing.map(\.id), missing: missing)
        if existing?.definition == collection, adding.isEmpty, removing.isEmpty {
            return AppliedEdit(sequence: try rows.sequence(), changed: false)
        }
        let sequence = try appendChange(kind: "putCollection", type: "collection", id: collection.id)
        if existing == nil {
            try db.execute(sql: "INSERT INTO collections (id, position, name, summary, revision) VALUES (?, "
                + "(SELECT COALESCE(MAX(position), -1) + 1 FROM collections), ?, ?, ?)",
                           arguments: [collection.id, collection.name, collection.summary, sequence])
        } else {
            try db.execute(sql: "UPDATE collections SET name = ?, summary = ?, revision = ? WHERE id = ?",
                           arguments: [collection.name, collection.summary, sequence, collection.id])
        }
        for id in adding {
            try updateFields(of: id, sequence: sequence) { $0.collections.append(collection.id) }
        }
        for id in removing {
            try updateFields(of: id, sequence: sequence) { $0.collections.removeAll { $0 == collection.id } }
        }
        return try outcome(sequence, places: Set(adding).union(removing), collections: [collection.id])
    }

    private func deleteCollection(id: String, precondition: Precondition) throws -> AppliedEdit {
        let existing = try rows.collection(id: id)
        try EditRules.check(precondition, type: "collection", id: id, current: existing?.revision)
        guard existing != nil else { throw StoreError.notFound(type: "collection", id: id) }
        let listing = try rows.placesMentioning(id).filter { $0.fields.collections.contains(id) }
        let sequence = try appendChange(kind: "deleteCollection", type: "collection", id: id)
        for place in listing {
            try updateFields(of: place.id, sequence: sequence) { $0.collections.removeAll { $0 == id } }
        }
        try db.execute(sql: "DELETE FROM collections WHERE id = ?", arguments: [id])
        return try outcome(sequence, places: Set(listing.map(\.id)), collections: [id])
    }

    private func setLabels(_ labels: [String], precondition: Precondition) throws -> AppliedEdit {
        try EditRules.check(precondition, type: "labels", id: "labels", current: try rows.labelsRevision())
        try EditRules.checkLabels(labels)
        let old = try rows.labels()
        if old == labels { return AppliedEdit(sequence: try rows.sequence(), changed: false) }
        for dropped in EditRules.droppedLabels(old: old, new: labels) {
            let users = try rows.placesMentioning(dropped).filter { $0.fields.labels.contains(dropped) }
            try EditRules.checkUnused(label: dropped, users: users.map(\.id))
        }
        let sequence = try appendChange(kind: "setLabels", type: "labels", id: "")
        try writeLabels(labels, sequence: sequence)
        var applied = AppliedEdit(sequence: sequence, changed: true)
        applied.labels = labels
        return applied
    }

    private func writeLabels(_ labels: [String], sequence: Int64) throws {
        try db.execute(sql: "DELETE FROM labels")
        for (position, label) in labels.enumerated() {
            try db.execute(sql: "INSERT INTO labels (position, label) VALUES (?, ?)", arguments: [position, label])
        }
        try db.execute(sql: "UPDATE store_meta SET value = ? WHERE key = 'labels_revision'", arguments: [String(sequence)])
    }

    private func updateFields(of placeID: String, sequence: Int64, _ change: (inout PlaceFields) -> Void) throws {
        guard var fields = try rows.placeRow(id: placeID)?.fields else { return }
        change(&fields)
        try db.execute(sql: "UPDATE places SET fields = ?, revision = ? WHERE id = ?",
                       arguments: [try fields.storedJSON, sequence, placeID])
    }

    // MARK: - Whole catalogs

    private func replaceCatalog(_ definition: CatalogDefinition, photos: [[NewPhoto]], replace: Bool) throws -> AppliedEdit {
        try EditRules.checkCatalog(definition, photos: photos)
        let oldPlaces = try String.fetchAll(db, sql: "SELECT id FROM places")
        let oldCollections = try String.fetchAll(db, sql: "SELECT id FROM collections")
        let oldLabels = try rows.labels()
        try EditRules.checkEmpty(replace: replace, places: oldPlaces.count, collections: oldCollections.count,
                                 labels: oldLabels.count)
        let sequence = try appendChange(kind: "replaceCatalog", type: "catalog", id: "")
        for file in try String.fetchAll(db, sql: "SELECT file FROM photo_contents WHERE file IS NOT NULL") { files.release(file) }
        for table in ["photos", "places", "photo_contents", "collections"] {
            try db.execute(sql: "DELETE FROM \(table)")
        }
        try writeLabels(definition.labels, sequence: sequence)
        for (position, collection) in definition.collections.enumerated() {
            try db.execute(sql: "INSERT INTO collections (id, position, name, summary, revision) VALUES (?, ?, ?, ?, ?)",
                           arguments: [collection.id, position, collection.name, collection.summary, sequence])
        }
        for (position, (place, placePhotos)) in zip(definition.places, photos).enumerated() {
            try db.execute(sql: "INSERT INTO places (id, position, fields, revision) VALUES (?, ?, ?, ?)",
                           arguments: [place.id, position, try place.fields.storedJSON, sequence])
            for (index, photo) in placePhotos.enumerated() {
                try insertPhoto(photo, placeID: place.id, position: index)
            }
        }
        var applied = try outcome(sequence, places: Set(oldPlaces).union(definition.places.map(\.id)),
                                  collections: Set(oldCollections).union(definition.collections.map(\.id)))
        applied.labels = definition.labels
        return applied
    }

    // MARK: - Change log

    /// Appends a change-log entry and returns its sequence number, the store's new sequence.
    private func appendChange(kind: String, type: String, id: String) throws -> Int64 {
        let sequence = try rows.sequence() + 1
        try db.execute(sql: "UPDATE store_meta SET value = ? WHERE key = 'sequence'", arguments: [String(sequence)])
        try db.execute(sql: "INSERT INTO changes (sequence, at_ms, kind, entity_type, entity_id) VALUES (?, ?, ?, ?, ?)",
                       arguments: [sequence, Int64(Date().timeIntervalSince1970 * 1000), kind, type, id])
        return sequence
    }

    /// The outcome of a change: the new state of these places and collections (`nil` when gone).
    private func outcome(
        _ sequence: Int64, places: some Sequence<String>, collections: some Sequence<String> = [String]()
    ) throws -> AppliedEdit {
        var applied = AppliedEdit(sequence: sequence, changed: true)
        for id in places { applied.places.updateValue(try rows.place(id: id, features: .any), forKey: id) }
        for id in collections { applied.collections.updateValue(try rows.collection(id: id), forKey: id) }
        return applied
    }
}
