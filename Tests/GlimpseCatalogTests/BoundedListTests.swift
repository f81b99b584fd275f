import Foundation
import GlimpseWire
import Testing

/// A list longer than its field allows is refused while decoding, before its entries are made: the count
/// in the error is the whole list's, which only counting ahead of decoding can know.
@Suite struct BoundedListTests {
    static func placeEdit(labels: Int) -> Data {
        let list = [String](repeating: #""a""#, count: labels).joined(separator: ",")
        return Data(#"{"name": "Pond", "kind": "lake", "labels": [\#(list)]}"#.utf8)
    }

    @Test func aPlaceEditWithTooManyLabelsIsRefusedBeforeItsLabelsAreDecoded() throws {
        let fits = try JSONDecoder().decode(PlaceEditJSON.self, from: Self.placeEdit(labels: CatalogLimits.labelsPerPlace))
        #expect(fits.fields.labels.count == CatalogLimits.labelsPerPlace)
        do {
            _ = try JSONDecoder().decode(PlaceEditJSON.self, from: Self.placeEdit(labels: 200_000))
            Issue.record("200,000 labels decoded")
        } catch let error as BoundedList {
            #expect(error == BoundedList(field: "labels", count: 200_000, limit: CatalogLimits.labelsPerPlace))
            #expect(DecodingProblem.sentence(for: error) == "'labels' has 200000 entries; send at most 64")
        }
    }

    @Test func photosCollectionsAndTheVocabularyAreBoundedToo() throws {
        let collections = [String](repeating: #""c""#, count: CatalogLimits.collectionsPerPlace + 1).joined(separator: ",")
        #expect(throws: BoundedList(field: "collections", count: 257, limit: 256)) {
            try JSONDecoder().decode(
                PlaceEditJSON.self, from: Data(#"{"name": "P", "kind": "k", "collections": [\#(collections)]}"#.utf8))
        }
        let photos = [String](repeating: #"{"data": "AAAA"}"#, count: 65).joined(separator: ",")
        #expect(throws: BoundedList(field: "photos", count: 65, limit: 64)) {
            try JSONDecoder().decode(PlaceEditJSON.self, from: Data(#"{"name": "P", "kind": "k", "photos": [\#(photos)]}"#.utf8))
        }
        let labels = (0...CatalogLimits.vocabulary).map { "\"l\($0)\"" }.joined(separator: ",")
        #expect(throws: BoundedList(field: "labels", count: 4097, limit: 4096)) {
            try JSONDecoder().decode(LabelsJSON.self, from: Data(#"{"labels": [\#(labels)]}"#.utf8))
        }
        let vocabulary = try JSONDecoder().decode(LabelsJSON.self, from: Data(#"{"labels": ["sky"], "revision": 3}"#.utf8))
        #expect(vocabulary == LabelsJSON(labels: ["sky"], revision: 3))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LabelsJSON.self, from: Data("{}".utf8)) }
        let absent = try JSONDecoder().decode(PlaceEditJSON.self, from: Data(#"{"name": "P", "kind": "k", "labels": null}"#.utf8))
        #expect(absent.fields.labels.isEmpty && absent.photos == nil)
    }
}
