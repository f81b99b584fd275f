import Foundation
import Testing
@testable import GlimpseCatalog

@Suite("Catalog loading and validation")
struct CatalogLoadingTests {
    @Test func sampleCatalogLoads() throws {
        let catalog = try Catalog.load(directory: Fixtures.imagesDirectory)
        #expect(catalog.places.count == 91)
        #expect(catalog.collections.count == 23)
        #expect(catalog.labels.count == 40)
        let place = try #require(catalog.place(id: "rowing-boats-lakeshore-sunset"))
        #expect(place.collections == ["waterside", "mountains", "golden-hour"])
        #expect(place.photoPath.hasPrefix("/"))
        #expect(FileManager.default.fileExists(atPath: place.photoPath))
        #expect(place.continent == nil)
        let waterside = try #require(catalog.collection(id: "waterside"))
        #expect(waterside.places.contains(place.id))
        #expect(waterside.places.first == "wooden-jetty-calm-lake")
    }

    @Test func everyCollectionMemberListsTheCollection() throws {
        let catalog = Fixtures.catalog
        for collection in catalog.collections {
            for id in collection.places {
                #expect(catalog.place(id: id)?.collections.contains(collection.id) == true)
            }
        }
        let memberships = catalog.places.reduce(0) { $0 + $1.collections.count }
        #expect(catalog.collections.reduce(0) { $0 + $1.places.count } == memberships)
    }

    @Test func duplicatePlaceID() throws {
        var json = try Fixtures.sampleJSON()
        var places = try #require(json["places"] as? [[String: Any]])
        places[5]["id"] = places[2]["id"]
        json["places"] = places
        let folder = try Fixtures.writeCatalog(json)
        let id = try #require(places[2]["id"] as? String)
        #expect(throws: CatalogError.duplicateID(kind: "place", id: id)) {
            try Catalog.load(directory: folder.path)
        }
    }

    @Test func duplicateCollectionID() throws {
        var json = try Fixtures.sampleJSON()
        var collections = try #require(json["collections"] as? [[String: Any]])
        collections.append(["id": "skies", "name": "Skies again", "summary": ""])
        json["collections"] = collections
        let folder = try Fixtures.writeCatalog(json)
        #expect(throws: CatalogError.duplicateID(kind: "collection", id: "skies")) {
            try Catalog.load(directory: folder.path)
        }
    }

    @Test func danglingCollectionReference() throws {
        var json = try Fixtures.sampleJSON()
        var places = try #require(json["places"] as? [[String: Any]])
        places[3]["collections"] = ["waterside", "no-such-collection"]
        json["places"] = places
        let folder = try Fixtures.writeCatalog(json)
        let id = try #require(places[3]["id"] as? String)
        let error = #expect(throws: CatalogError.self) { try Catalog.load(directory: folder.path) }
        #expect(error == .danglingCollection(placeID: id, collectionID: "no-such-collection"))
        #expect(error?.description.contains(id) == true)
    }

    @Test func missingPhoto() throws {
        var json = try Fixtures.sampleJSON()
        var places = try #require(json["places"] as? [[String: Any]])
        places[7]["image"] = "photos/does-not-exist.jpg"
        json["places"] = places
        let folder = try Fixtures.writeCatalog(json)
        let id = try #require(places[7]["id"] as? String)
        let expectedPath = folder.appendingPathComponent("photos/does-not-exist.jpg").standardizedFileURL.path
        #expect(throws: CatalogError.missingPhoto(placeID: id, path: expectedPath)) {
            try Catalog.load(directory: folder.path)
        }
        // Skipping the photo check accepts the same file.
        #expect(try Catalog.load(directory: folder.path, checkPhotos: false).places.count == 91)
    }

    @Test func labelOutsideTheVocabulary() throws {
        var json = try Fixtures.sampleJSON()
        var places = try #require(json["places"] as? [[String: Any]])
        places[0]["labels"] = ["water", "Lake"]
        json["places"] = places
        let folder = try Fixtures.writeCatalog(json)
        #expect(throws: CatalogError.unknownLabel(placeID: "wooden-jetty-calm-lake", label: "Lake")) {
            try Catalog.load(directory: folder.path)
        }
    }

    @Test func duplicateVocabularyLabel() throws {
        var json = try Fixtures.sampleJSON()
        var labels = try #require(json["labels"] as? [String])
        labels.append("sky")
        json["labels"] = labels
        let folder = try Fixtures.writeCatalog(json)
        #expect(throws: CatalogError.duplicateLabel(label: "sky")) { try Catalog.load(directory: folder.path) }
    }

    @Test func missingFieldAndMalformedJSON() throws {
        var json = try Fixtures.sampleJSON()
        var places = try #require(json["places"] as? [[String: Any]])
        places[1].removeValue(forKey: "kind")
        json["places"] = places
        let folder = try Fixtures.writeCatalog(json)
        let error = #expect(throws: CatalogError.self) { try Catalog.load(directory: folder.path) }
        guard case let .malformed(_, reason)? = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("kind"))
        #expect(reason.contains("places[1]"))

        places[1]["kind"] = "still-life"
        places[1]["name"] = ""
        json["places"] = places
        let second = try Fixtures.writeCatalog(json)
        #expect(throws: CatalogError.missingField(kind: "place", id: "colorful-plastic-cups", field: "name")) {
            try Catalog.load(directory: second.path)
        }
    }

    @Test func missingCatalogFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        let error = #expect(throws: CatalogError.self) { try Catalog.load(directory: folder.path) }
        guard case .unreadable? = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
    }
}
