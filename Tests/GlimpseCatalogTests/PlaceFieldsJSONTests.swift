import Foundation
import GlimpseWire
import Testing

/// A place's six fields have one home (`PlaceFields`); the definitions and wire bodies that hold them
/// still write them flat, as `catalog.json`, the edit routes and docs/api.md spell them.
@Suite struct PlaceFieldsJSONTests {
    static let fields = PlaceFields(
        name: "Tower by the river", kind: "landmark", region: "France", continent: "Europe", labels: ["tower", "sky"],
        collections: ["landmarks"])

    static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value)) as? [String: Any])
    }

    @Test func aStoredPlaceIsWrittenFlatAndReadBack() throws {
        let definition = PlaceDefinition(id: "tower", fields: Self.fields, photos: [PhotoDefinition(image: "photos/t.jpg")])
        let photo = StoredPhotoJSON(id: String(repeating: "a", count: 64), name: "photos/t.jpg", bytes: 10,
                                    credit: PhotoCredit(author: "A", license: "CC0-1.0", source: "S"))
        let stored = StoredPlaceJSON(definition, photos: [photo], revision: 3)
        let object = try Self.object(stored)
        #expect(Set(object.keys) == ["id", "name", "kind", "region", "continent", "labels", "collections", "photos", "revision"])
        #expect(object["name"] as? String == "Tower by the river" && object["revision"] as? Int == 3)
        let decoded = try JSONDecoder().decode(StoredPlaceJSON.self, from: try JSONEncoder().encode(stored))
        #expect(decoded == stored && decoded.fields == Self.fields)
    }

    @Test func aPlaceEditIsFlatAndItsListsMayBeAbsent() throws {
        let edit = PlaceEditJSON(Self.fields, photos: [PhotoUploadJSON(data: "AAAA")])
        let object = try Self.object(edit)
        #expect(Set(object.keys) == ["name", "kind", "region", "continent", "labels", "collections", "photos"])
        #expect(try JSONDecoder().decode(PlaceEditJSON.self, from: try JSONEncoder().encode(edit)) == edit)

        let bare = try JSONDecoder().decode(PlaceEditJSON.self, from: Data(#"{"name": "Pond", "kind": "lake"}"#.utf8))
        #expect(bare.fields == PlaceFields(name: "Pond", kind: "lake") && bare.photos == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PlaceEditJSON.self, from: Data(#"{"name": "Pond"}"#.utf8))
        }
    }

    @Test func aCatalogPlaceStillNeedsItsLabelsAndCollections() throws {
        let complete = #"{"id": "pond", "name": "Pond", "kind": "lake", "image": "photos/p.jpg", "labels": [], "collections": []}"#
        let place = try JSONDecoder().decode(PlaceDefinition.self, from: Data(complete.utf8))
        #expect(place.fields == PlaceFields(name: "Pond", kind: "lake") && place.photos == [PhotoDefinition(image: "photos/p.jpg")])
        let missing = #"{"id": "pond", "name": "Pond", "kind": "lake", "image": "photos/p.jpg", "collections": []}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaceDefinition.self, from: Data(missing.utf8)) }
    }
}
