import GlimpseIntents
import Testing

@Suite("Sorting and limits")
struct SortLimitTests {
    @Test func singleKeySortsAscendingAndDescendingWithNilLast() async throws {
        #expect(try await ids([], sortedBy: [PropertySort(by: "length")]) == ["d", "b", "a", "e", "c"])
        #expect(try await ids([], sortedBy: [PropertySort(by: "length", order: .descending)])
            == ["a", "e", "b", "d", "c"])
        #expect(try await ids([], sortedBy: [PropertySort(by: "name")]) == ["e", "d", "b", "a", "c"])
    }

    @Test func multiKeySortIsStable() async throws {
        // a and e tie on length 12; rating breaks the tie.
        #expect(try await ids([], sortedBy: [PropertySort(by: "length", order: .descending),
                                             PropertySort(by: "rating")]) == ["e", "a", "b", "d", "c"])
        // a and b tie on rating 4.5; with no second key they keep input order, in both directions.
        #expect(try await ids([], sortedBy: [PropertySort(by: "rating", order: .descending)])
            == ["a", "b", "c", "e", "d"])
        #expect(try await ids([], sortedBy: [PropertySort(by: "rating")]) == ["e", "c", "a", "b", "d"])
        // Region: Alps (a, e) tie and keep order; "" sorts first; nil last.
        #expect(try await ids([], sortedBy: [PropertySort(by: "region"), PropertySort(by: "open")])
            == ["d", "e", "a", "b", "c"])
    }

    @Test func sortKeysParseFromText() {
        #expect(PropertySort(parsing: "-continent") == PropertySort(by: "continent", order: .descending))
        #expect(PropertySort(parsing: "+name") == PropertySort(by: "name"))
        #expect(PropertySort(parsing: "name") == PropertySort(by: "name", order: .ascending))
    }

    @Test func unsortablePropertiesAreRejected() async throws {
        await #expect(throws: EntityQueryError.unsortableProperty(
            name: "tags", sortable: ["name", "region", "length", "rating", "open"])) {
            try await ids([], sortedBy: [PropertySort(by: "tags")])
        }
        await #expect(throws: EntityQueryError.self) { try await ids([], sortedBy: [PropertySort(by: "nope")]) }
    }

    @Test(arguments: [(0, 0), (1, 1), (3, 3), (5, 5), (50, 5)])
    func limits(limit: Int, expected: Int) async throws {
        let sorted = [PropertySort(by: "name")]
        let all = try await ids([], sortedBy: sorted)
        let limited = try await ids([], sortedBy: sorted, limit: limit)
        #expect(limited.count == expected)
        #expect(limited == Array(all.prefix(limit)))
    }

    @Test func negativeLimitIsAnError() async throws {
        await #expect(throws: EntityQueryError.invalidLimit(-1)) { try await ids([], limit: -1) }
    }
}
