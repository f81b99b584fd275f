// A small app written the way an iOS app writes its App Intents layer: a nursery that sells plants and
// groups them into beds. Nothing here knows it runs on Linux; the file imports what an iOS file imports.
import AppIntents
import VisualIntelligence
import GlimpseImage  // the model reads the picture; the intents layer does not

/// The app's model: what entities shadow and queries search.
final class Nursery: Sendable {
    struct Plant: Sendable {
        let id: String
        let name: String
        let family: String
        let price: Double
        let stock: Int
        let tags: [String]
        let bed: String?
        let thumbnail: Data
    }

    let plants: [Plant] = [
        Plant(id: "fern", name: "Boston Fern", family: "Nephrolepidaceae", price: 12.5, stock: 4, tags: ["shade", "leaf"],
              bed: "shade-bed", thumbnail: Data([0x89, 0x50, 0x4E, 0x47])),
        Plant(id: "sage", name: "Garden Sage", family: "Lamiaceae", price: 4.25, stock: 30, tags: ["herb", "sun"],
              bed: "herb-bed", thumbnail: Data([0xFF, 0xD8])),
        Plant(id: "mint", name: "Mint", family: "Lamiaceae", price: 3.0, stock: 0, tags: ["herb", "shade"],
              bed: "herb-bed", thumbnail: Data([0xFF, 0xD8])),
        Plant(id: "hosta", name: "Hosta", family: "Asparagaceae", price: 9.75, stock: 12, tags: ["shade", "leaf"],
              bed: nil, thumbnail: Data()),
    ]

    /// Plants whose tags include one of `labels`, most matching tags first.
    func search(labels: [String]) -> [Plant] {
        plants.map { plant in (plant, plant.tags.filter(labels.contains).count) }
            .filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }.map(\.0)
    }

    /// Plants for a picture: the brighter the picture, the sunnier the plants.
    func search(matching pixelBuffer: CVReadOnlyPixelBuffer) -> [Plant] {
        let sunny = pixelBuffer.width * pixelBuffer.height > 0 && pixelBuffer.pixelFormat == .rgba8
        return search(labels: sunny ? ["sun"] : ["shade"])
    }
}

struct PlantEntity: IndexedEntity {
    static let defaultQuery = PlantQuery()

    static var typeDisplayRepresentation: TypeDisplayRepresentation {
        TypeDisplayRepresentation(
            name: LocalizedStringResource("Plant", table: "AppIntents", comment: "The type name of a plant"),
            numericFormat: "\(placeholder: .int) plants"
        )
    }

    var id: String

    @Property(title: "Name", indexingKey: .title)
    var name: String

    @Property(title: "Family")
    var family: String

    @Property(title: "Price")
    var price: Double

    @Property(title: "In stock")
    var stock: Int

    @Property(title: "Tags")
    var tags: [String]

    @Property(title: "Bed")
    var bed: String?

    @ComputedProperty(indexingKey: .description)
    var summary: String { "\(name), a \(family.lowercased()) plant" }

    var thumbnailRepresentationData: Data

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(
            title: "\(name)",
            subtitle: "$\(String(format: "%.2f", price))",
            image: .init(data: thumbnailRepresentationData)
        )
    }

    init(from plant: Nursery.Plant) {
        id = plant.id
        thumbnailRepresentationData = plant.thumbnail
        self.name = plant.name
        self.family = plant.family
        self.price = plant.price
        self.stock = plant.stock
        self.tags = plant.tags
        self.bed = plant.bed
    }
}

struct BedEntity: AppEntity {
    static let defaultQuery = BedQuery()
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Bed"

    var id: String
    @Property(title: "Name") var name: String

    init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", image: .init(systemName: "leaf"))
    }
}

@UnionValue
enum GardenSearchResult {
    case plant(PlantEntity)
    case bed(BedEntity)
}

/// 1. EntityQuery: by identifier, with suggestions.
struct BedQuery: EntityQuery {
    static let beds = [BedEntity(id: "herb-bed", name: "Herb bed"), BedEntity(id: "shade-bed", name: "Shade bed")]

    func entities(for identifiers: [String]) async throws -> [BedEntity] {
        Self.beds.filter { identifiers.contains($0.id) }
    }

    func suggestedEntities() async throws -> [BedEntity] { Self.beds }
}

/// What the plant query's comparators map to: a test on a plant, and how it reads.
struct PlantFilter: Sendable, CustomStringConvertible {
    let description: String
    let test: @Sendable (Nursery.Plant) -> Bool
}

/// 2–3 and the property query: by identifier, by text, all of them, and by property with sorting.
struct PlantQuery: EntityStringQuery, EnumerableEntityQuery, EntityPropertyQuery {
    @Dependency var nursery: Nursery

    func entities(for identifiers: [String]) async throws -> [PlantEntity] {
        nursery.plants.filter { identifiers.contains($0.id) }.map { PlantEntity(from: $0) }
    }

    func entities(matching string: String) async throws -> [PlantEntity] {
        nursery.plants.filter { $0.name.localizedCaseInsensitiveContains(string) }.map { PlantEntity(from: $0) }
    }

    func allEntities() async throws -> [PlantEntity] {
        nursery.plants.map { PlantEntity(from: $0) }
    }

    static let properties = QueryProperties {
        Property(\PlantEntity.$name) {
            EqualToComparator { name in PlantFilter(description: "name == \(name)") { $0.name == name } }
            ContainsComparator { part in PlantFilter(description: "name contains \(part)") { $0.name.localizedCaseInsensitiveContains(part) } }
            HasPrefixComparator { start in PlantFilter(description: "name hasPrefix \(start)") { $0.name.hasPrefix(start) } }
            HasSuffixComparator { end in PlantFilter(description: "name hasSuffix \(end)") { $0.name.hasSuffix(end) } }
            NotEqualToComparator { name in PlantFilter(description: "name != \(name)") { $0.name != name } }
        }
        Property(\PlantEntity.$price) {
            LessThanComparator { price in PlantFilter(description: "price < \(price)") { $0.price < price } }
            LessThanOrEqualToComparator { price in PlantFilter(description: "price <= \(price)") { $0.price <= price } }
            GreaterThanComparator { price in PlantFilter(description: "price > \(price)") { $0.price > price } }
            GreaterThanOrEqualToComparator { price in PlantFilter(description: "price >= \(price)") { $0.price >= price } }
            IsBetweenComparator { lower, upper in
                PlantFilter(description: "price between \(lower) and \(upper)") { (lower...upper).contains($0.price) }
            }
        }
        Property(\PlantEntity.$family) {
            ContainedInCollectionComparator { families in PlantFilter(description: "family in \(families)") { families.contains($0.family) } }
            NotContainedInCollectionComparator { families in PlantFilter(description: "family not in \(families)") { !families.contains($0.family) } }
        }
        Property(\PlantEntity.$tags) {
            ContainsComparator { tag in PlantFilter(description: "tags contains \(tag)") { $0.tags.contains(tag) } }
        }
    }

    static let sortingOptions = SortingOptions {
        SortableBy(\PlantEntity.$name)
        SortableBy(\PlantEntity.$price)
    }

    func entities(
        matching comparators: [PlantFilter], mode: ComparatorMode, sortedBy: [Sort], limit: Int?
    ) async throws -> [PlantEntity] {
        let kept = nursery.plants.filter { plant in
            mode == .and ? comparators.allSatisfy { $0.test(plant) } : comparators.contains { $0.test(plant) }
        }
        var found = kept.map { PlantEntity(from: $0) }
        for sort in sortedBy.reversed() {
            switch sort.by {
            case \PlantEntity.$name: found.sort { sort.order == .ascending ? $0.name < $1.name : $0.name > $1.name }
            case \PlantEntity.$price: found.sort { sort.order == .ascending ? $0.price < $1.price : $0.price > $1.price }
            default: break
            }
        }
        return Array(found.prefix(limit ?? found.count))
    }
}

/// 4. UniqueAppEntityQuery.
struct NurserySettingsEntity: UniqueAppEntity {
    static let defaultQuery = NurserySettingsQuery()
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Settings"
    var displayRepresentation: DisplayRepresentation { "Nursery Settings" }
    var id: String { "nursery-settings" }
}

struct NurserySettingsQuery: UniqueAppEntityQuery {
    func entity() async throws -> NurserySettingsEntity {
        NurserySettingsEntity()
    }
}

enum PotSize: String, AppEnum {
    case small, medium, large

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Pot Size"
    static let caseDisplayRepresentations: [PotSize: DisplayRepresentation] = [
        .small: "Small",
        .medium: DisplayRepresentation(title: "Medium", subtitle: "12 cm"),
        .large: "Large",
    ]
}

struct GardenValueQuery: IntentValueQuery {
    @Dependency var nursery: Nursery

    func values(for input: SemanticContentDescriptor) async throws -> [GardenSearchResult] {
        guard let pixelBuffer: CVReadOnlyPixelBuffer = input.pixelBuffer else {
            return nursery.search(labels: input.labels).map { .plant(PlantEntity(from: $0)) }
        }
        let plants = nursery.search(matching: pixelBuffer).prefix(100)
        let beds = Set(plants.compactMap(\.bed)).sorted()
        return plants.map { .plant(PlantEntity(from: $0)) }
            + BedQuery.beds.filter { beds.contains($0.id) }.map { .bed($0) }
    }
}

struct PlantNameQuery: IntentValueQuery {
    typealias Input = String
    typealias Result = PlantEntity

    func values(for input: String) async throws -> [PlantEntity] {
        try await PlantQuery().entities(matching: input)
    }
}

struct OpenPlantIntent: OpenIntent {
    static let title: LocalizedStringResource = "Open Plant"

    @Parameter(title: "Plant", requestValueDialog: "Which plant?")
    var target: PlantEntity
}

struct OpenBedIntent: OpenIntent {
    static let title: LocalizedStringResource = "Open Bed"

    @Parameter(title: "Bed", requestValueDialog: IntentDialog("Which bed?"))
    var target: BedEntity

    func perform() async throws -> some IntentResult {
        .result(dialog: "Opening \(target.name).")
    }
}

struct OrderPlantIntent: AppIntent {
    static let title: LocalizedStringResource = "Order Plant"
    static let description = IntentDescription("Orders a plant in a pot.")

    @Parameter(title: "Plant") var plant: PlantEntity
    @Parameter(title: "Quantity", default: 1) var quantity: Int
    @Parameter(title: "Pot", default: .medium) var pot: PotSize
    @Parameter(title: "Note") var note: String?
    @Parameter(title: "Height (cm)", controlStyle: .slider, inclusiveRange: (10, 120)) var height: Int?

    @Dependency var nursery: Nursery

    func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        let total = Double(quantity) * plant.price
        return .result(value: quantity, dialog: "Ordered \(quantity) \(plant.name) in a \(pot.rawValue) pot for $\(String(format: "%.2f", total)).")
    }
}

struct WaterIntent: AppIntent {
    static let title: LocalizedStringResource = "Water the Garden"

    func perform() async throws -> some IntentResult {
        return .result()
    }
}
