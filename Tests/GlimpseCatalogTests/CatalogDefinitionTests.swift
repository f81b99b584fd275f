import Foundation
import GlimpseBasics
import GlimpseWire
import Testing
@testable import GlimpseCatalog

/// The exchange form of a catalog: `catalog.json` with several photos per place, and edits applied to it.
@Suite struct CatalogDefinitionTests {
    @Test func theSampleCatalogRoundTripsThroughItsDefinition() throws {
        let definition = Fixtures.catalog.definition
        #expect(definition.places.count == 91 && definition.places.allSatisfy { $0.photos.count == 1 })
        let encoded = try JSONEncoder().encode(definition)
        #expect(try JSONDecoder().decode(CatalogDefinition.self, from: encoded) == definition)
        // One photo is written as "image" and "credit", as catalogs always had it, with no "views".
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"image\"") && !text.contains("\"views\""))
    }

    @Test func aPlaceMayListFurtherPhotosAsViews() throws {
        var json = try Fixtures.sampleJSON()
        var places = try #require(json["places"] as? [[String: Any]])
        let second = try #require(places[1]["image"] as? String)
        places[0]["views"] = [["image": second, "credit": ["author": "A", "license": "CC0-1.0", "source": "S"]]]
        json["places"] = places
        let folder = try Fixtures.writeCatalog(json)
        let catalog = try Catalog.load(directory: folder.path)
        let place = try #require(catalog.places.first)
        #expect(place.photos.count == 2)
        #expect(place.photos[1].path.hasSuffix(second))
        #expect(place.photos[1].credit.author == "A")
        #expect(place.photoPath == place.photos[0].path)
        let encoded = try JSONEncoder().encode(catalog.definition)
        #expect(try JSONDecoder().decode(CatalogDefinition.self, from: encoded) == catalog.definition)

        // A view whose file is missing is refused like a missing first photo.
        places[0]["views"] = [["image": "photos/no-such-view.jpg"]]
        json["places"] = places
        let broken = try Fixtures.writeCatalog(json)
        let error = #expect(throws: CatalogError.self) { try Catalog.load(directory: broken.path) }
        guard case .missingPhoto(let id, let path)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(id == place.id && path.hasSuffix("photos/no-such-view.jpg"))
    }

    @Test func changesKeepTheOrderDeleteAndAppend() throws {
        let definition = Fixtures.catalog.definition
        var renamed = definition.places[2]
        renamed.name = "Renamed"
        var added = definition.places[0]
        added.id = "zz-new-place"
        let changes = CatalogDefinitionChanges(
            places: [renamed.id: renamed, definition.places[5].id: nil, added.id: added],
            collections: [definition.collections[0].id: nil], labels: definition.labels + ["extra"])
        let next = definition.applying(changes)
        #expect(next.places.count == definition.places.count)
        #expect(next.places[2].name == "Renamed")
        #expect(next.places.last?.id == "zz-new-place")
        #expect(!next.places.contains { $0.id == definition.places[5].id })
        #expect(next.places[..<5].map(\.id) == definition.places[..<5].map(\.id))
        #expect(next.collections.map(\.id) == definition.collections.dropFirst().map(\.id))
        #expect(next.labels.last == "extra")
        #expect(definition.applying(CatalogDefinitionChanges()) == definition)
    }

    @Test func aCatalogBuiltFromADefinitionTakesItsIdentityAndPhotoPaths() throws {
        let definition = Fixtures.catalog.definition
        let catalog = try Catalog(
            definition: definition, directory: "/store/photos", identity: Array("store:7".utf8), checkPhotos: false
        ) { place, _ in "/store/photos/\(place.id).jpg" }
        #expect(catalog.places.count == 91)
        #expect(catalog.places[0].photoPath == "/store/photos/\(definition.places[0].id).jpg")
        #expect(CatalogSnapshot(catalog).id != CatalogSnapshot(Fixtures.catalog).id)
        let again = try Catalog(
            definition: definition, directory: "/elsewhere", identity: Array("store:7".utf8), checkPhotos: false
        ) { place, index in place.photos[index].image }
        #expect(CatalogSnapshot(again).id == CatalogSnapshot(catalog).id)
    }

    /// Random place edits applied one after another to a catalog, each checked against validating the
    /// whole edited definition from scratch.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func applyingPlaceChangesMatchesAWholeValidation(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let base = Fixtures.catalog.definition
        let path: (PlaceDefinition, Int) -> String = { place, index in "/photos/\(place.id)-\(index).jpg" }
        var catalog = try Catalog(
            definition: base, directory: "/photos", identity: [0], checkPhotos: false, photoPath: path)
        for step in 1...40 {
            var changes = CatalogDefinitionChanges()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let current = catalog.definition.places
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where current.count > 1:
                    changes.places[current[Int.random(in: 0..<current.count, using: &random)].id] = .some(nil)
                case 1:
                    var added = base.places[Int.random(in: 0..<base.places.count, using: &random)]
                    added.id = "new-\(step)-\(Int.random(in: 0..<1000, using: &random))"
                    changes.places[added.id] = added
                default:
                    var changed = current[Int.random(in: 0..<current.count, using: &random)]
                    changed.name += " again"
                    changed.collections = base.collections.filter { _ in Bool.random(using: &random) }.map(\.id)
                    changed.photos.append(changed.photos[0])
                    changes.places[changed.id] = changed
                }
            }
            let identity = Array("step \(step)".utf8)
            let incremental = try catalog.applying(changes, identity: identity, photoPath: path)
            let whole = try Catalog(
                definition: catalog.definition.applying(changes), directory: "/photos", identity: identity,
                checkPhotos: false, photoPath: path)
            #expect(incremental.definition == whole.definition)
            #expect(incremental.places == whole.places)
            #expect(incremental.collections == whole.collections)
            #expect(incremental.places.indices.allSatisfy { incremental.placeOffset(id: incremental.places[$0].id) == $0 })
            #expect(incremental.place(id: changes.places.keys.first ?? "") == whole.place(id: changes.places.keys.first ?? ""))
            #expect(CatalogSnapshot(incremental).id == CatalogSnapshot(whole).id)
            catalog = incremental
        }
    }

    @Test func applyingRefusesWhatAWholeValidationRefuses() throws {
        let catalog = Fixtures.catalog
        var place = catalog.definition.places[0]
        place.labels = ["no-such-label"]
        #expect(throws: CatalogError.unknownLabel(placeID: place.id, label: "no-such-label")) {
            try catalog.applying(CatalogDefinitionChanges(places: [place.id: place]), identity: []) { $0.photos[$1].image }
        }
        place = catalog.definition.places[1]
        place.collections = ["no-such-collection"]
        #expect(throws: CatalogError.danglingCollection(placeID: place.id, collectionID: "no-such-collection")) {
            try catalog.applying(CatalogDefinitionChanges(places: [place.id: place]), identity: []) { $0.photos[$1].image }
        }
        // A vocabulary change validates every place: dropping a label in use is refused.
        let used = try #require(catalog.places.first { !$0.labels.isEmpty }?.labels.first)
        let fewer = catalog.labels.filter { $0 != used }
        #expect(throws: CatalogError.self) {
            try catalog.applying(CatalogDefinitionChanges(labels: fewer), identity: []) { $0.photos[$1].image }
        }
    }
}
