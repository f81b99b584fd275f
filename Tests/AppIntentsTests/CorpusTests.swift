import AppIntents
import GlimpseImage
import Testing
import VisualIntelligence

/// The corpus in CorpusModel.swift compiles against AppIntents and VisualIntelligence as written for iOS;
/// these tests run it and check what each construct gives.
@Suite struct CorpusTests {
    init() {
        AppDependencyManager.shared.add(dependency: Nursery())
    }

    @Test func entityDisplayAndTypeRepresentations() throws {
        let sage = try #require(Nursery().plants.first { $0.id == "sage" })
        let entity = PlantEntity(from: sage)
        #expect(String(localized: entity.displayRepresentation.title) == "Garden Sage")
        #expect(entity.displayRepresentation.subtitle?.defaultValue == "$4.25")
        #expect(entity.displayRepresentation.image?.source == .data([0xFF, 0xD8]))
        #expect(PlantEntity.typeDisplayRepresentation.name.key == "Plant")
        #expect(PlantEntity.typeDisplayRepresentation.name.table == "AppIntents")
        #expect(PlantEntity.typeDisplayRepresentation.name.comment == "The type name of a plant")
        #expect(PlantEntity.typeDisplayRepresentation.numericFormat?.key == "%lld plants")
        #expect(PlantEntity.typeDisplayRepresentation.formatted(count: 3) == "3 plants")
        #expect(entity.summary == "Garden Sage, a lamiaceae plant")
        #expect(entity.$name.title?.defaultValue == "Name")
        #expect(entity.$name.indexingKey == .title)
        #expect(entity.bed == "herb-bed")
        #expect(BedQuery.beds[0].displayRepresentation.image?.source == .named("leaf"))
        #expect(NurserySettingsEntity().displayRepresentation.title.defaultValue == "Nursery Settings")
    }

    @Test func interpolationKeepsKeyAndText() {
        let count = 2
        let resource: LocalizedStringResource = "Ordered \(count) \("Mint") at 50%"
        #expect(resource.key == "Ordered %lld %@ at 50%%")
        #expect(String(localized: resource) == "Ordered 2 Mint at 50%")
    }

    @Test func theFourQueryKinds() async throws {
        let byID = try await BedQuery().entities(for: ["shade-bed", "nowhere"])
        #expect(byID.map(\.id) == ["shade-bed"])
        #expect(try await BedQuery().suggestedEntities().count == 2)
        #expect(try await PlantQuery().entities(matching: "sage").map(\.id) == ["sage"])
        #expect(try await PlantQuery().allEntities().count == 4)
        #expect(try await PlantEntity.defaultQuery.entities(for: ["mint", "fern"]).map(\.id) == ["fern", "mint"])
        #expect(WaterIntent.description.descriptionText.defaultValue.isEmpty)
        #expect(try await NurserySettingsQuery().entity().id == "nursery-settings")
        #expect(try await NurserySettingsQuery().entities(for: ["nursery-settings"]).count == 1)
        #expect(try await NurserySettingsQuery().entities(for: ["other"]).isEmpty)
        #expect(try await PlantNameQuery().values(for: "mint").map(\.id) == ["mint"])
    }

    @Test func propertyQueryBuildersMapValuesAndTheQueryRunsThem() async throws {
        let properties = PlantQuery.properties
        #expect(properties.properties.count == 4)
        let name = try #require(properties[\PlantEntity.$name])
        #expect(name.comparators.map(\.kind) == [.equalTo, .contains, .hasPrefix, .hasSuffix, .notEqualTo])
        let price = try #require(properties[\PlantEntity.$price])
        #expect(price.comparators.map(\.kind)
                == [.lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .isBetween])
        let tags = try #require(properties[\PlantEntity.$tags])
        #expect(tags.comparators.first?.valueType == String.self)
        let family = try #require(properties[\PlantEntity.$family])
        #expect(family.comparators.map(\.kind) == [.containedInCollection, .notContainedInCollection])

        let cheap = try #require(price.comparator(.lessThan)?(5.0))
        let herb = try #require(tags.comparator(.contains)?("herb"))
        let between = try #require(price.comparator(.isBetween)?(4.0, 10.0))
        let notMint = try #require(name.comparator(.notEqualTo)?("Mint"))
        let mint = try #require(family.comparator(.containedInCollection)?(["Lamiaceae"]))
        #expect(cheap.description == "price < 5.0")
        #expect(price.comparator(.lessThan)?("five") == nil)

        let query = PlantQuery()
        let both = try await query.entities(matching: [cheap, herb], mode: .and, sortedBy: [], limit: nil)
        #expect(both.map(\.id) == ["sage", "mint"])
        let either = try await query.entities(
            matching: [between, notMint], mode: .or,
            sortedBy: [EntityQuerySort(by: \PlantEntity.$price, order: .descending)], limit: 3)
        #expect(either.map(\.id) == ["fern", "hosta", "sage"])
        let family2 = try await query.entities(
            matching: [mint], mode: .and, sortedBy: [.init(by: \PlantEntity.$name)], limit: nil)
        #expect(family2.map(\.id) == ["sage", "mint"])
        #expect(PlantQuery.sortingOptions.contains(\PlantEntity.$price))
        #expect(!PlantQuery.sortingOptions.contains(\PlantEntity.$tags))
        #expect(BedQuery.self is any EntityQuery.Type)
    }

    @Test func unionValueExposesEachCase() async throws {
        #expect(GardenSearchResult.memberTypes.count == 2)
        #expect(ObjectIdentifier(GardenSearchResult.memberTypes[0]) == ObjectIdentifier(PlantEntity.self))
        let bed = GardenSearchResult.bed(BedQuery.beds[0])
        #expect(bed.entityIdentifierString == "herb-bed")
        #expect(bed.displayRepresentation.title.defaultValue == "Herb bed")
        #expect(bed.typeDisplayRepresentation.name.defaultValue == "Bed")
        let plant = GardenSearchResult.plant(try #require(try await PlantQuery().entities(for: ["fern"]).first))
        #expect(plant.entityIdentifierString == "fern")
        #expect(plant.typeDisplayRepresentation.name.defaultValue == "Plant")
    }

    @Test func valueQueryTakesADescriptorWithOrWithoutPixels() async throws {
        let labelsOnly = try await GardenValueQuery().values(for: SemanticContentDescriptor(labels: ["herb"]))
        #expect(labelsOnly.map(\.entityIdentifierString) == ["sage", "mint"])
        let picture = try PixelBuffer(width: 2, height: 2, pixelFormat: .rgba8, bytes: [UInt8](repeating: 200, count: 16))
        let pixelBuffer: CVReadOnlyPixelBuffer = picture
        let withPicture = try await GardenValueQuery().values(for: SemanticContentDescriptor(labels: [], pixelBuffer: pixelBuffer))
        #expect(withPicture.map(\.entityIdentifierString) == ["sage", "herb-bed"])
    }

    @Test func intentsWithParametersAndResults() async throws {
        let open = OpenPlantIntent()
        open.target = try #require(try await PlantQuery().entities(for: ["hosta"]).first)
        #expect(open.target.id == "hosta")
        #expect(open.$target.requestValueDialog?.description == "Which plant?")
        _ = try await open.perform()
        #expect(OpenPlantIntent.title.defaultValue == "Open Plant")
        #expect(OpenPlantIntent.openAppWhenRun)

        let openBed = OpenBedIntent()
        openBed.target = BedQuery.beds[1]
        #expect(try await openBed.perform().dialog?.description == "Opening Shade bed.")

        let order = OrderPlantIntent()
        order.plant = try #require(try await PlantQuery().entities(for: ["sage"]).first)
        #expect(order.quantity == 1)
        #expect(order.pot == .medium)
        #expect(order.note == nil)
        #expect(order.$height.controlStyle == .slider)
        #expect(order.$height.inclusiveRange.map { [$0.0, $0.1] } == [10, 120])
        order.quantity = 3
        let result = try await order.perform()
        #expect(result.value == 3)
        #expect(result.dialog?.description == "Ordered 3 Garden Sage in a medium pot for $12.75.")
        #expect(OrderPlantIntent.description.descriptionText.defaultValue == "Orders a plant in a pot.")
        #expect(try await WaterIntent().perform().dialog == nil)
    }

    @Test func appEnumCases() {
        #expect(PotSize.allCases.count == 3)
        #expect(PotSize.medium.displayRepresentation.subtitle?.defaultValue == "12 cm")
        #expect(PotSize.typeDisplayRepresentation.name.defaultValue == "Pot Size")
        #expect(PotSize(rawValue: "large") == .large)
    }

    @Test func dependenciesResolveByTypeAndKey() {
        let manager = AppDependencyManager()
        manager.add(dependency: 42)
        manager.add(key: "other", dependency: 7)
        #expect(Dependency<Int>(manager: manager).wrappedValue == 42)
        #expect(manager.resolve(Int.self, key: "other") == 7)
        #expect(manager.resolve(String.self) == nil)
    }
}
