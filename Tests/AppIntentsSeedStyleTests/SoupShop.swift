// Intents and entities in the form the App Intents notes show them: mutable `static var` declarations,
// which Swift 6 rejects as shared mutable state, so this target builds in the Swift 5 language mode,
// as an app target that has not moved to Swift 6 does.
import AppIntents

final class SoupStore: @unchecked Sendable {
    struct Soup { let id: String; let name: String; let price: Double }
    static let shared = SoupStore()
    let soups = [Soup(id: "tomato", name: "Tomato", price: 4.5), Soup(id: "miso", name: "Miso", price: 5.25)]
    private(set) var orders: [(String, Int)] = []
    var featured: [Soup] { [soups[0]] }
    func search(_ text: String) -> [Soup] { soups.filter { $0.name.localizedCaseInsensitiveContains(text) } }
    func place(soup: String, quantity: Int) { orders.append((soup, quantity)) }
}

struct SoupEntity: AppEntity {
    static let defaultQuery = SoupEntityQuery()
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Soup"

    var id: String
    @Property(title: "Name") var name: String
    @Property(title: "Price") var price: Double

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: "$\(String(format: "%.2f", price))")
    }

    init(from soup: SoupStore.Soup) {
        self.id = soup.id; self.name = soup.name; self.price = soup.price
    }
}

struct SoupEntityQuery: EntityQuery {
    func entities(for identifiers: [String]) async throws -> [SoupEntity] {
        SoupStore.shared.soups.filter { identifiers.contains($0.id) }.map { SoupEntity(from: $0) }
    }

    func suggestedEntities() async throws -> [SoupEntity] {
        SoupStore.shared.featured.map { SoupEntity(from: $0) }
    }
}

struct SoupStringQuery: EntityStringQuery {
    func entities(matching string: String) async throws -> [SoupEntity] {
        SoupStore.shared.search(string).map { SoupEntity(from: $0) }
    }

    func entities(for identifiers: [String]) async throws -> [SoupEntity] {
        SoupStore.shared.soups.filter { identifiers.contains($0.id) }.map { SoupEntity(from: $0) }
    }
}

enum SoupSize: String, AppEnum {
    case small, medium, large

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Size"
    static var caseDisplayRepresentations: [SoupSize: DisplayRepresentation] = [
        .small: "Small",
        .medium: "Medium",
        .large: "Large"
    ]
}

struct OrderSoupIntent: AppIntent {
    static var title: LocalizedStringResource = "Order Soup"
    static var description = IntentDescription("Place a soup order.")

    @Parameter(title: "Soup") var soup: SoupEntity
    @Parameter(title: "Quantity", default: 1) var quantity: Int
    @Parameter(title: "Size", default: .medium) var size: SoupSize
    @Parameter(title: "Count") var count: Int?

    static var parameterSummary: some ParameterSummary {
        Summary("Order \(\.$soup)") { \.$quantity }
    }

    func perform() async throws -> some IntentResult {
        SoupStore.shared.place(soup: soup.id, quantity: quantity)
        return .result(dialog: "Ordered \(quantity) \(soup.name).")
    }
}

struct ToggleFavoriteIntent: AppIntent {
    static var title: LocalizedStringResource = "Toggle Favorite"
    @Parameter(title: "Item ID") var itemID: String

    func perform() async throws -> some IntentResult {
        return .result()
    }
}
