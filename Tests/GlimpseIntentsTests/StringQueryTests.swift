import GlimpseIntents
import Testing

@Suite("String queries and text parsing")
struct StringQueryTests {
    private func search(_ text: String) async throws -> [String] {
        try await TrailQuery().entities(matching: text).map(\.id)
    }

    @Test func accentsAndCaseAreIgnored() async throws {
        #expect(try await search("emile") == ["e"])
        #expect(try await search("ÉMOSSON") == ["b"])
        #expect(try await search("Lac d’emosson") == ["b"])
    }

    @Test func wordPrefixesMatchAndEveryWordMustHit() async throws {
        // Both are prefix hits on the first word: equal scores keep catalog order.
        #expect(try await search("sun") == ["a", "c"])
        #expect(try await search("sun rid") == ["a"])
        #expect(try await search("ridge sun") == ["a"])
        // A prefix must start a word: "unset" is inside "sunset" but starts no word.
        #expect(try await search("unset") == [])
    }

    @Test func wholeWordHitsRankAbovePrefixHits() async throws {
        #expect(try await search("sunset") == ["c"])
        let ranked = TextSearch("walk").rank(["Walkers Rest", "Forest Walk"]) { [TextSearchField($0, weight: 1)] }
        #expect(ranked.map(\.element) == ["Forest Walk", "Walkers Rest"])
        // Earlier words score a little higher when both are whole-word hits.
        let early = TextSearch("lake").rank(["Blue Lake", "Lake Blue"]) { [TextSearchField($0, weight: 1)] }
        #expect(early.map(\.element) == ["Lake Blue", "Blue Lake"])
    }

    @Test func noHitAndEmptyQueryReturnNothing() async throws {
        #expect(try await search("volcano") == [])
        #expect(try await search("") == [])
        #expect(try await search("  ,. ") == [])
    }

    @Test func foldingHelpers() {
        #expect(TextFolding.fold("Crème Brûlée") == "creme brulee")
        #expect(TextFolding.words("Lac d'Émosson — 2nd") == ["lac", "d", "emosson", "2nd"])
    }

    @Test func comparisonsParseFromText() throws {
        let properties = TrailQuery.properties
        #expect(try properties.comparison(parsing: "name == Sunrise Ridge")
            == EntityQueryComparison("name", .equalTo(.string("Sunrise Ridge"))))
        #expect(try properties.comparison(parsing: "name = 'Lac d’Émosson'")
            == EntityQueryComparison("name", .equalTo(.string("Lac d’Émosson"))))
        #expect(try properties.comparison(parsing: "  name hasPrefix Sun ")
            == EntityQueryComparison("name", .hasPrefix(.string("Sun"))))
        #expect(try properties.comparison(parsing: "length between 3 and 7")
            == EntityQueryComparison("length", .isBetween(.int(3), .int(7))))
        #expect(try properties.comparison(parsing: "name between \"a and b\" and m")
            == EntityQueryComparison("name", .isBetween(.string("a and b"), .string("m"))))
        #expect(try properties.comparison(parsing: "rating >= 4") == EntityQueryComparison("rating", .greaterThanOrEqualTo(.double(4))))
        #expect(try properties.comparison(parsing: "open != false") == EntityQueryComparison("open", .notEqualTo(.bool(false))))
        #expect(try properties.comparison(parsing: "region isNil") == EntityQueryComparison("region", .isNil))
        #expect(try properties.comparison(parsing: "tags contains lake") == EntityQueryComparison("tags", .contains(.string("lake"))))
    }

    @Test func badComparisonTextIsAClearError() throws {
        let properties = TrailQuery.properties
        #expect(throws: EntityQueryError.self) { try properties.comparison(parsing: "name") }
        #expect(throws: EntityQueryError.self) { try properties.comparison(parsing: "name ~= x") }
        #expect(throws: EntityQueryError.wrongValueType(property: "length", expected: .int, actual: "'long'")) {
            try properties.comparison(parsing: "length > long")
        }
        #expect(throws: EntityQueryError.self) { try properties.comparison(parsing: "length between 3") }
        #expect(throws: EntityQueryError.self) { try properties.comparison(parsing: "region isNil yes") }
        #expect(throws: EntityQueryError.unsupportedComparator(property: "open", comparator: .contains,
                                                               supported: [.equalTo, .notEqualTo, .isNil])) {
            try properties.comparison(parsing: "open contains true")
        }
        let error = #expect(throws: EntityQueryError.self) { try properties.comparison(parsing: "colour == red") }
        #expect(error?.description.contains("name, region, length") == true)
    }

    @Test func displayRepresentations() {
        let trail = Trail.all[0]
        #expect(trail.displayRepresentation.title.defaultValue == "Sunrise Ridge")
        #expect(trail.displayRepresentation.subtitle?.defaultValue == "Alps")
        #expect(Trail.typeDisplayRepresentation.formatted(count: 3) == "3 trails")
        #expect(TypeDisplayRepresentation(name: "Place").formatted(count: 2) == "2 × Place")
        #expect(trail.entityIdentifierString == "a")
    }
}
