import Foundation
import GlimpseIntents
import Testing
@testable import GlimpseCatalog

@Suite("Place and collection queries on the sample catalog")
struct CatalogQueryTests {
    private let places = PlaceQuery(catalog: Fixtures.catalog)
    private let collections = CollectionQuery(catalog: Fixtures.catalog)

    @Test func entitiesForIdentifiersKeepOrderAndSkipUnknown() async throws {
        let found = try await places.entities(for: ["eiffel-tower", "nope", "chichen-itza"])
        #expect(found.map(\.id) == ["eiffel-tower", "chichen-itza"])
        #expect(try await collections.entities(for: ["towers", "x"]).map(\.id) == ["towers"])
    }

    @Test func stringSearchIgnoresAccentsAndCase() async throws {
        #expect(try await places.entities(matching: "CHATEAU chamb").first?.id == "chateau-de-chambord")
        #expect(try await places.entities(matching: "chichen itza").first?.id == "chichen-itza")
        #expect(try await places.entities(matching: "Cité").first?.id == "cite-de-carcassonne")
        #expect(try await places.entities(matching: "eif").map(\.id) == ["eiffel-tower"])
        #expect(try await places.entities(matching: "zzzz").isEmpty)
        #expect(try await collections.entities(matching: "land eur").map(\.id) == ["landmarks-europe"])
    }

    @Test func nameHitsOutrankLabelHits() async throws {
        // "tower" is in the Eiffel Tower's name and in other places' labels.
        let hits = PlaceQuery.search("tower", in: Fixtures.catalog)
        #expect(hits.first?.element.id == "eiffel-tower")
        #expect(hits.count > 1)
        #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test func propertyQueryMatchesAnIndependentFilterOfTheJSON() async throws {
        let json = try Fixtures.sampleJSON()
        let raw = try #require(json["places"] as? [[String: Any]])
        let lakes = raw.filter { $0["kind"] as? String == "lake" }.compactMap { $0["id"] as? String }
        let kind = try PlaceQuery.queryableProperties.comparison(parsing: "kind == lake")
        #expect(try await places.entities(matching: [kind], mode: .and, sortedBy: [], limit: nil).map(\.id) == lakes)

        let europe = raw.filter { $0["continent"] as? String == "Europe" }
        let castles = europe.filter { ($0["labels"] as? [String])?.contains("castle") == true }
        let comparisons = try ["continent == europe", "labels contains castle"].map(PlaceQuery.queryableProperties.comparison(parsing:))
        #expect(try await places.entities(matching: comparisons, mode: .and, sortedBy: [], limit: nil).count
            == castles.count)
        let either = raw.filter {
            $0["continent"] as? String == "Europe" || ($0["labels"] as? [String])?.contains("castle") == true
        }
        #expect(try await places.entities(matching: comparisons, mode: .or, sortedBy: [], limit: nil).count
            == either.count)

        let noContinent = raw.filter { ($0["continent"] as? String ?? "").isEmpty }.count
        let isNil = try PlaceQuery.queryableProperties.comparison(parsing: "continent isNil")
        #expect(try await places.entities(matching: [isNil], mode: .and, sortedBy: [], limit: nil).count == noContinent)
    }

    @Test func sortAndLimitOnTheCatalog() async throws {
        let sorted = try await places.entities(
            matching: [], mode: .and,
            sortedBy: [EntityQuerySort(by: \PlaceEntity.$continent, order: .descending), .init(by: \PlaceEntity.$name)],
            limit: 5)
        // Oracle: non-nil continents descending, then names ascending; nil continents last.
        let withContinent = Fixtures.catalog.places.compactMap { place in place.continent.map { (place, $0) } }
        let expected = withContinent.sorted { a, b in
            a.1 != b.1 ? a.1 > b.1 : TextFolding.fold(a.0.name) < TextFolding.fold(b.0.name)
        }.prefix(5).map(\.0.id)
        #expect(sorted.map(\.id) == expected)
        #expect(sorted.first?.continent == "South America")
        let big = try CollectionQuery.queryableProperties.apply(
            to: Fixtures.catalog.collections,
            matching: [try CollectionQuery.queryableProperties.comparison(parsing: "placeCount >= 10")], mode: .and,
            sortedBy: [PropertySort(by: "placeCount", order: .descending)], limit: nil)
        #expect(big.allSatisfy { $0.places.count >= 10 })
        #expect(zip(big, big.dropFirst()).allSatisfy { $0.places.count >= $1.places.count })
    }

    @Test func displayRepresentationsFollowTheLandmarkExample() throws {
        let eiffel = try #require(Fixtures.catalog.place(id: "eiffel-tower"))
        #expect(eiffel.displayRepresentation.title.defaultValue == "Eiffel Tower")
        #expect(eiffel.displayRepresentation.subtitle?.defaultValue == "France, Europe")
        #expect(eiffel.displayRepresentation.image == .init(filePath: eiffel.photoPath))
        let lake = try #require(Fixtures.catalog.place(id: "wooden-jetty-calm-lake"))
        #expect(lake.displayRepresentation.subtitle?.defaultValue == "lake")
        let towers = try #require(Fixtures.catalog.collection(id: "towers"))
        #expect(towers.displayRepresentation.subtitle?.defaultValue == towers.summary)
        #expect(VisualSearchResult.collection(towers).typeDisplayRepresentation.name.defaultValue == "Collection")
        #expect(VisualSearchResult.place(eiffel).entityIdentifierString == "eiffel-tower")
    }
}
