import AppIntentsCore
import GlimpseIntents
import Testing
import VisualIntelligence
@testable import GlimpseCatalog

/// The catalog's entities, union result and property queries written with AppIntents: the builders
/// produce the named comparisons the engine runs, and the two ways of asking give the same answers.
@Suite("The catalog's App Intents declarations")
struct CatalogIntentsTests {
    private let places = PlaceQuery(catalog: Fixtures.catalog)

    /// A value of the comparator's operand type, for calling its mapping closure.
    private func sample(for comparator: EntityQueryComparator<EntityQueryComparison>) -> EntityQueryComparison? {
        switch comparator.kind {
        case .isBetween:
            return comparator.valueType == String?.self ? comparator(String?("A"), String?("M")) : comparator("A", "M")
        default:
            return comparator.valueType == String?.self ? comparator(String?("Europe")) : comparator("Europe")
        }
    }

    @Test func everyPlaceComparatorMapsToAComparisonTheEngineAccepts() throws {
        let names: [PartialKeyPath<PlaceEntity>: String] = [
            \PlaceEntity.$name: "name", \PlaceEntity.$kind: "kind", \PlaceEntity.$region: "region",
            \PlaceEntity.$continent: "continent", \PlaceEntity.$labels: "labels",
            \PlaceEntity.$collections: "collections",
        ]
        #expect(PlaceQuery.properties.properties.count == names.count)
        var mapped = 0
        for property in PlaceQuery.properties.properties {
            let name = try #require(names[property.keyPath])
            for comparator in property.comparators {
                let comparison = try #require(sample(for: comparator), "\(name) \(comparator.kind)")
                #expect(comparison.property == name)
                #expect(comparison.comparator.kind.rawValue == comparator.kind.rawValue)
                try PlaceQuery.queryableProperties.validate(comparison)
                mapped += 1
            }
        }
        #expect(mapped == 18)
    }

    @Test func everyCollectionComparatorMapsToAComparisonTheEngineAccepts() throws {
        for property in CollectionQuery.properties.properties {
            for comparator in property.comparators {
                let comparison = try #require(sample(for: comparator))
                #expect(comparison.comparator.kind.rawValue == comparator.kind.rawValue)
                try CollectionQuery.queryableProperties.validate(comparison)
            }
        }
        #expect(CollectionQuery.sortingOptions.contains(\CollectionEntity.$name))
    }

    @Test func builtAndParsedComparisonsSelectTheSamePlaces() async throws {
        let kind = try #require(PlaceQuery.properties[\PlaceEntity.$kind]?.comparator(.equalTo)?("landmark"))
        let europe = try #require(PlaceQuery.properties[\PlaceEntity.$continent]?.comparator(.equalTo)?(String?("Europe")))
        let built = try await places.entities(
            matching: [kind, europe], mode: .and, sortedBy: [EntityQuerySort(by: \PlaceEntity.$name, order: .descending)],
            limit: 4)
        let parsed = try PlaceQuery.queryableProperties.apply(
            to: Fixtures.catalog.places,
            matching: try ["kind == landmark", "continent == Europe"].map(PlaceQuery.queryableProperties.comparison(parsing:)),
            mode: .and, sortedBy: [PropertySort(by: "name", order: .descending)], limit: 4)
        #expect(built.map(\.id) == parsed.map(\.id))
        #expect(built.count == 4)
        #expect(built.allSatisfy { $0.kind == "landmark" && $0.continent == "Europe" })
        let unsortable = await #expect(throws: EntityQueryError.self) {
            try await places.entities(matching: [], mode: .and, sortedBy: [EntityQuerySort(by: \PlaceEntity.$labels)],
                                      limit: nil)
        }
        #expect(unsortable != nil)
    }

    @Test func defaultQueryReadsTheRegisteredCatalog() async throws {
        AppDependencyManager.shared.add(dependency: Fixtures.catalog)
        let found = try await PlaceEntity.defaultQuery.entities(for: ["eiffel-tower", "nowhere"])
        #expect(found.map(\.id) == ["eiffel-tower"])
        #expect(try await CollectionEntity.defaultQuery.entities(for: ["towers"]).map(\.id) == ["towers"])
    }

    @Test func unionResultExposesEachCase() throws {
        #expect(VisualSearchResult.memberTypes.count == 2)
        #expect(ObjectIdentifier(VisualSearchResult.memberTypes[0]) == ObjectIdentifier(PlaceEntity.self))
        #expect(ObjectIdentifier(VisualSearchResult.memberTypes[1]) == ObjectIdentifier(CollectionEntity.self))
        let eiffel = try #require(Fixtures.catalog.place(id: "eiffel-tower"))
        let result = VisualSearchResult.place(eiffel)
        #expect(result.entityIdentifierString == "eiffel-tower")
        #expect(String(localized: result.displayRepresentation.title) == "Eiffel Tower")
        #expect(result.typeDisplayRepresentation.formatted(count: 2) == "2 places")
        #expect(eiffel.$name.title?.defaultValue == "Name")
        #expect(eiffel.$region.indexingKey == .country)
    }

    @Test func visualSearchIsAnIntentValueQueryOverTheDescriptor() async throws {
        let store = SnapshotStore()
        let values = try await Self.values(
            of: VisualSearchQuery(snapshot: store.publish(Fixtures.catalog), store: store),
            for: SemanticContentDescriptor(labels: ["tower"]))
        #expect(!values.isEmpty)
        #expect(values.allSatisfy { if case .collection = $0 { true } else { false } })
    }

    /// Runs any value query over a descriptor, as the system does.
    private static func values<Query: IntentValueQuery>(
        of query: Query, for input: SemanticContentDescriptor
    ) async throws -> [Query.Result] where Query.Input == SemanticContentDescriptor {
        try await query.values(for: input)
    }
}
