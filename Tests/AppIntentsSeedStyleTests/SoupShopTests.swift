import AppIntents
import Testing

@Suite struct SoupShopTests {
    @Test func intentRunsWithItsParameters() async throws {
        let intent = OrderSoupIntent()
        intent.soup = try #require(try await SoupStringQuery().entities(matching: "miso").first)
        #expect(intent.quantity == 1 && intent.size == .medium && intent.count == nil)
        let result = try await intent.perform()
        #expect(result.dialog?.description == "Ordered 1 Miso.")
        #expect(OrderSoupIntent.title.defaultValue == "Order Soup")
        let summary = try #require(OrderSoupIntent.parameterSummary as? OrderSoupIntent.Summary)
        #expect(summary.format.template == "Order ${0}")
        #expect(summary.format.parameters == [\OrderSoupIntent.$soup])
        #expect(summary.otherParameters == [\OrderSoupIntent.$quantity])
        #expect(SoupStore.shared.orders.contains { $0 == ("miso", 1) })
    }

    @Test func entitiesQueriesAndEnums() async throws {
        let tomato = try #require(try await SoupEntity.defaultQuery.suggestedEntities().first)
        #expect(tomato.displayRepresentation.subtitle?.defaultValue == "$4.50")
        #expect(SoupEntity.typeDisplayRepresentation.name.defaultValue == "Soup")
        #expect(SoupSize.large.displayRepresentation.title.defaultValue == "Large")
        let toggle = ToggleFavoriteIntent()
        toggle.itemID = "x"
        #expect(try await toggle.perform().dialog == nil)
    }
}
