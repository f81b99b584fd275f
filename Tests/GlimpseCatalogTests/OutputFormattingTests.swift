import Foundation
import GlimpseIntents
import GlimpseTerminalText
import GlimpseWire
import Testing
@testable import GlimpseCatalog

@Suite("Output formatting shared by the CLI and the daemon")
struct OutputFormattingTests {
    private func page(limit: Int) async throws -> VisualSearchPage {
        let store = SnapshotStore(cursorKey: CursorKey(passphrase: "format"))
        let matcher = FixedMatcher(candidates: [PlaceMatchCandidate(placeID: "eiffel-tower", score: 0.75, accepted: true,
                                                                    inliers: 33)])
        let query = VisualSearchQuery(snapshot: store.publish(Fixtures.catalog), store: store, matcher: matcher)
        return try await query.search(SemanticContentDescriptor(labels: ["tower", "kraken"], pixelBuffer: try tinyPicture()),
                                      limit: limit)
    }

    @Test func responseCarriesThePageAndRoundTripsThroughJSON() async throws {
        let page = try await page(limit: 2)
        let response = QueryResponseJSON(page: page)
        #expect(response.results.map(\.entity.id) == page.items.map(\.result.entityIdentifierString))
        #expect(response.results.first?.type == "place")
        #expect(response.results.first?.entity.displayRepresentation.title == "Eiffel Tower")
        #expect(response.results.first?.entity.displayRepresentation.subtitle == "France, Europe")
        #expect(response.results.first?.evidence.inliers == 33)
        #expect(response.next == page.nextCursor)
        #expect(response.ignoredLabels == ["kraken"])
        #expect(response.total == page.totalCount)
        let decoded = try JSONDecoder().decode(QueryResponseJSON.self, from: Data(response.prettyJSON().utf8))
        #expect(decoded == response)
    }

    @Test func textShowsRanksScoresReasonsAndTheNextCommand() async throws {
        let response = QueryResponseJSON(page: try await page(limit: 2))
        let cursor = try #require(response.next)
        let lines = response.text(moreCommand: "glimpse query --cursor CURSOR").split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("  1. place      eiffel-tower"))
        #expect(lines[0].contains("0.7500  Eiffel Tower — France, Europe"))
        #expect(lines[1].contains("matched eiffel-tower (0.75, 33 inliers)"))
        #expect(lines[2].hasPrefix("  2. collection "))
        #expect(lines.contains("labels (given): tower 1.00; ignored: kraken"))
        #expect(lines.contains("snapshot \(response.snapshot): results 1–2 of \(response.total)"))
        #expect(lines.last == "more: glimpse query --cursor \(cursor)")

        var last = response
        last.next = nil
        #expect(!last.text().contains("more:"))
    }

    @Test func entityListTextAndJSON() throws {
        let catalog = Fixtures.catalog
        let eiffel = try #require(catalog.place(id: "eiffel-tower"))
        let towers = try #require(catalog.collection(id: "towers"))
        var scored = EntityJSON(towers)
        scored.score = 0.8765
        let listing = EntityListJSON(entities: [EntityJSON(eiffel), scored])
        let lines = listing.text().split(separator: "\n").map(String.init)
        #expect(lines == [
            "place      eiffel-tower  Eiffel Tower — France, Europe",
            "collection towers        0.88  Towers and Minarets — \(towers.summary)",
            "2 entities",
        ])
        let decoded = try JSONDecoder().decode(EntityListJSON.self, from: Data(listing.prettyJSON().utf8))
        #expect(decoded == listing)
        #expect(decoded.entities[0].properties["labels"] == .array(eiffel.labels.map(JSONValue.string)))
        #expect(decoded.entities[1].properties["places"] == .array(towers.places.map(JSONValue.string)))
        #expect(decoded.entities[1].score == 0.8765)
    }
}
