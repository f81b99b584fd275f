import Foundation
import GlimpseCatalog
package import GlimpseWire

/// Which features a read decodes.
package enum FeatureChoice: Sendable {
    /// None.
    case none
    /// Those stored under this key.
    case key(String)
    /// Whatever is stored.
    case any

    /// The choice for a read asking for the features stored under `featuresKey` (none when `nil`).
    package init(featuresKey: String?) {
        self = featuresKey.map { .key($0) } ?? .none
    }
}

/// The JSON text every backend stores in its JSON columns (a place's fields, a photo's credit): sorted
/// keys, slashes unescaped, so equal values are equal text.
package enum StoredJSON {
    /// The stored JSON of `value`.
    package static func text<T: Encodable>(_ value: T) throws(StoreError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .invalid(reason: "cannot encode \(T.self): \(error)")
        }
    }
}

/// A place's fields as every backend stores them: one column of ``StoredJSON`` (the photos are rows of
/// their own).
extension PlaceFields {
    /// The stored `fields` column of these fields.
    package var storedJSON: String {
        get throws(StoreError) { try StoredJSON.text(self) }
    }

    /// Decodes a stored `fields` column of place `placeID`.
    package static func decode(_ json: String, placeID: String) throws(StoreError) -> PlaceFields {
        do {
            return try JSONDecoder().decode(PlaceFields.self, from: Data(json.utf8))
        } catch {
            throw .corrupt(path: "place '\(placeID)'", reason: "its fields do not decode: \(error)")
        }
    }

    /// A `LIKE` pattern (escape character `\`) that every place whose fields mention `value` as a JSON
    /// string matches (and perhaps a few others: a prefilter, checked exactly after decoding).
    package static func mentionPattern(_ value: String) throws(StoreError) -> String {
        let json = try StoredJSON.text([value]).dropFirst().dropLast()
        var pattern = "%"
        for character in json {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}

/// A photo row of a place: what a store's `photos` table holds, without the bytes.
package struct PhotoRow: Equatable, Sendable {
    package var sha256: String
    package var name: String
    package var credit: PhotoCredit?

    /// A photo row from its columns.
    package init(sha256: String, name: String, credit: PhotoCredit?) {
        self.sha256 = sha256
        self.name = name
        self.credit = credit
    }

    /// The row a new photo gets.
    package init(_ photo: NewPhoto) {
        self.init(sha256: photo.sha256, name: photo.name, credit: photo.credit)
    }

    /// Decodes a stored `credit` column.
    package static func credit(_ json: String?) throws(StoreError) -> PhotoCredit? {
        guard let json else { return nil }
        do {
            return try JSONDecoder().decode(PhotoCredit.self, from: Data(json.utf8))
        } catch {
            throw .corrupt(path: "photo credit", reason: "it does not decode: \(error)")
        }
    }

    /// The stored `credit` column of `credit`.
    package static func creditColumn(_ credit: PhotoCredit?) throws(StoreError) -> String? {
        guard let credit else { return nil }
        return try StoredJSON.text(credit)
    }
}
