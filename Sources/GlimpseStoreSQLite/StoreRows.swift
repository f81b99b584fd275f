import Foundation
import GlimpseCatalog
import GlimpseStore
import GlimpseVision
import GRDB

/// Which features a read decodes.
enum FeatureChoice: Sendable {
    /// None.
    case none
    /// Those stored under this key.
    case key(String)
    /// Whatever is stored.
    case any
}

/// A place's fields as the `places.fields` column holds them (JSON; the photos are rows of `photos`).
struct PlaceFields: Codable, Equatable {
    var name: String
    var kind: String
    var region: String?
    var continent: String?
    var labels: [String]
    var collections: [String]

    init(_ place: PlaceDefinition) {
        name = place.name
        kind = place.kind
        region = place.region
        continent = place.continent
        labels = place.labels
        collections = place.collections
    }

    func definition(id: String, photos: [PhotoDefinition]) -> PlaceDefinition {
        PlaceDefinition(id: id, name: name, kind: kind, region: region, continent: continent, labels: labels,
                        collections: collections, photos: photos)
    }

    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode(_ json: String, placeID: String) throws -> PlaceFields {
        do {
            return try JSONDecoder().decode(PlaceFields.self, from: Data(json.utf8))
        } catch {
            throw StoreError.corrupt(path: "place '\(placeID)'", reason: "its fields do not decode: \(error)")
        }
    }

    /// A `LIKE` pattern that every place whose fields mention `value` as a JSON string matches (and
    /// perhaps a few others: a prefilter, checked exactly after decoding).
    static func mentionPattern(_ value: String) throws -> String {
        let json = try encode([value]).dropFirst().dropLast()
        var pattern = "%"
        for character in json {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}

/// A photo row of a place: what `photos` holds, without the bytes.
struct PhotoRow: Equatable {
    var sha256: String
    var name: String
    var credit: PhotoCredit?
}

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
            PhotoRow(sha256: row[0], name: row[1], credit: try Self.credit(row[2]))
        }
    }

    static func credit(_ json: String?) throws -> PhotoCredit? {
        guard let json else { return nil }
        do {
            return try JSONDecoder().decode(PhotoCredit.self, from: Data(json.utf8))
        } catch {
            throw StoreError.corrupt(path: "photo credit", reason: "it does not decode: \(error)")
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
            let sha: String = row[1]
            var decoded: ImageFeatures?
            if let blob = row[5] as Data? {
                do throws(VisionError) {
                    decoded = try FeatureCoding.decode([UInt8](blob), path: "features of photo \(sha)")
                } catch {
                    throw StoreError.corrupt(path: "features of photo \(sha)", reason: error.description)
                }
            }
            out[row[0], default: []].append(StoredPhoto(
                sha256: sha, name: row[2], credit: try Self.credit(row[3]), byteCount: row[4], features: decoded,
                featuresKey: row[6]))
        }
        return out
    }

    func place(id: String, features: FeatureChoice) throws -> StoredPlace? {
        guard let (fields, revision) = try placeRow(id: id) else { return nil }
        let photos = try self.photos(placeID: id, features: features)[id] ?? []
        return StoredPlace(
            definition: fields.definition(id: id, photos: photos.map { PhotoDefinition(image: $0.name, credit: $0.credit) }),
            revision: revision, photos: photos)
    }

    func catalog(storeID: String, features: FeatureChoice) throws -> StoredCatalog {
        let photos = try self.photos(placeID: nil, features: features)
        let places = try Row.fetchAll(db, sql: "SELECT id, fields, revision FROM places ORDER BY position").map { row in
            let id: String = row[0]
            let placePhotos = photos[id] ?? []
            return StoredPlace(
                definition: try PlaceFields.decode(row[1], placeID: id).definition(
                    id: id, photos: placePhotos.map { PhotoDefinition(image: $0.name, credit: $0.credit) }),
                revision: row[2], photos: placePhotos)
        }
        return StoredCatalog(
            storeID: storeID, sequence: try sequence(), labels: try labels(), labelsRevision: try labelsRevision(),
            places: places, collections: try collections())
    }
}
