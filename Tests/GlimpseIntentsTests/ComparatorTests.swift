import GlimpseIntents
import Testing

@Suite("Comparators: every comparator on every type, with nil and empty values")
struct ComparatorTests {
    private typealias C = EntityQueryComparison

    @Test func stringComparatorsFoldCaseAndDiacritics() async throws {
        #expect(try await ids([C("name", .equalTo(.string("LAC D'EMOSSON")))]) == ["b"])
        #expect(try await ids([C("name", .notEqualTo(.string("sunset loop")))]) == ["a", "b", "d", "e"])
        #expect(try await ids([C("name", .contains(.string("SUN")))]) == ["a", "c"])
        #expect(try await ids([C("name", .hasPrefix(.string("emile")))]) == ["e"])
        #expect(try await ids([C("name", .hasSuffix(.string("Walk")))]) == ["d"])
        #expect(try await ids([C("name", .lessThan(.string("F")))]) == ["e"])
        #expect(try await ids([C("name", .lessThanOrEqualTo(.string("forest walk")))]) == ["d", "e"])
        #expect(try await ids([C("name", .greaterThan(.string("sunrise ridge")))]) == ["c"])
        #expect(try await ids([C("name", .greaterThanOrEqualTo(.string("Sunrise Ridge")))]) == ["a", "c"])
        #expect(try await ids([C("name", .isBetween(.string("f"), .string("m")))]) == ["b", "d"])
    }

    @Test func emptyStringOperandMatchesEveryNonNilString() async throws {
        #expect(try await ids([C("name", .contains(.string("")))]) == ["a", "b", "c", "d", "e"])
        #expect(try await ids([C("name", .hasPrefix(.string("")))]) == ["a", "b", "c", "d", "e"])
        #expect(try await ids([C("region", .hasSuffix(.string("")))]) == ["a", "b", "d", "e"])
        // The empty region is a value, not nil.
        #expect(try await ids([C("region", .equalTo(.string("")))]) == ["d"])
    }

    @Test func nilValuesSatisfyOnlyIsNilAndNotEqual() async throws {
        #expect(try await ids([C("region", .isNil)]) == ["c"])
        #expect(try await ids([C("region", .notEqualTo(.string("Alps")))]) == ["b", "c", "d"])
        #expect(try await ids([C("region", .contains(.string("")))]) == ["a", "b", "d", "e"])
        #expect(try await ids([C("length", .isNil)]) == ["c"])
        #expect(try await ids([C("length", .lessThan(.int(100)))]) == ["a", "b", "d", "e"])
        #expect(try await ids([C("rating", .isNil)]) == ["d"])
        #expect(try await ids([C("open", .isNil)]) == ["c"])
        #expect(try await ids([C("open", .notEqualTo(.bool(true)))]) == ["b", "c", "e"])
        #expect(try await ids([C("tags", .isNil)]) == ["d"])
    }

    @Test func intComparators() async throws {
        #expect(try await ids([C("length", .equalTo(.int(12)))]) == ["a", "e"])
        #expect(try await ids([C("length", .notEqualTo(.int(12)))]) == ["b", "c", "d"])
        #expect(try await ids([C("length", .lessThan(.int(7)))]) == ["d"])
        #expect(try await ids([C("length", .lessThanOrEqualTo(.int(7)))]) == ["b", "d"])
        #expect(try await ids([C("length", .greaterThan(.int(7)))]) == ["a", "e"])
        #expect(try await ids([C("length", .greaterThanOrEqualTo(.int(7)))]) == ["a", "b", "e"])
        #expect(try await ids([C("length", .isBetween(.int(3), .int(7)))]) == ["b", "d"])
        #expect(try await ids([C("length", .isBetween(.int(7), .int(7)))]) == ["b"])
    }

    @Test func doubleComparatorsAcceptIntOperands() async throws {
        #expect(try await ids([C("rating", .equalTo(.double(4.5)))]) == ["a", "b"])
        #expect(try await ids([C("rating", .equalTo(.int(2)))]) == ["e"])
        #expect(try await ids([C("rating", .notEqualTo(.double(4.5)))]) == ["c", "d", "e"])
        #expect(try await ids([C("rating", .lessThan(.double(3)))]) == ["e"])
        #expect(try await ids([C("rating", .lessThanOrEqualTo(.int(3)))]) == ["c", "e"])
        #expect(try await ids([C("rating", .greaterThan(.double(3)))]) == ["a", "b"])
        #expect(try await ids([C("rating", .greaterThanOrEqualTo(.double(3)))]) == ["a", "b", "c"])
        #expect(try await ids([C("rating", .isBetween(.double(2.5), .int(4)))]) == ["c"])
    }

    @Test func boolComparators() async throws {
        #expect(try await ids([C("open", .equalTo(.bool(true)))]) == ["a", "d"])
        #expect(try await ids([C("open", .equalTo(.bool(false)))]) == ["b", "e"])
        #expect(try await ids([C("open", .notEqualTo(.bool(false)))]) == ["a", "c", "d"])
    }

    @Test func listContainsIsFoldedMembershipAndEmptyListHasNothing() async throws {
        #expect(try await ids([C("tags", .contains(.string("lake")))]) == ["b", "e"])
        #expect(try await ids([C("tags", .contains(.string("ridg")))]) == [])
        #expect(try await ids([C("tags", .contains(.string("")))]) == [])
    }

    @Test func comparatorModeAllAndAny() async throws {
        let comparisons = [C("region", .equalTo(.string("alps"))), C("open", .equalTo(.bool(true)))]
        #expect(try await ids(comparisons, mode: .and) == ["a"])
        #expect(try await ids(comparisons, mode: .or) == ["a", "d", "e"])
        #expect(try await ids([], mode: .and) == ["a", "b", "c", "d", "e"])
        #expect(try await ids([], mode: .or) == ["a", "b", "c", "d", "e"])
        // A comparison nobody satisfies empties `.and` but not `.or`.
        let impossible = C("length", .greaterThan(.int(1000)))
        #expect(try await ids(comparisons + [impossible], mode: .and) == [])
        #expect(try await ids(comparisons + [impossible], mode: .or) == ["a", "d", "e"])
    }

    @Test func rejectsUnknownPropertyUnsupportedComparatorAndWrongType() async throws {
        await #expect(throws: EntityQueryError.unknownProperty(
            name: "height", known: ["name", "region", "length", "rating", "open", "tags"])) {
            try await ids([C("height", .equalTo(.int(1)))])
        }
        await #expect(throws: EntityQueryError.unsupportedComparator(
            property: "open", comparator: .lessThan, supported: [.equalTo, .notEqualTo, .isNil])) {
            try await ids([C("open", .lessThan(.bool(true)))])
        }
        // `name` is not optional, so it does not declare isNil.
        await #expect(throws: EntityQueryError.self) { try await ids([C("name", .isNil)]) }
        await #expect(throws: EntityQueryError.wrongValueType(property: "length", expected: .int, actual: "a double (2.5)")) {
            try await ids([C("length", .equalTo(.double(2.5)))])
        }
        await #expect(throws: EntityQueryError.wrongValueType(property: "name", expected: .string, actual: "nil")) {
            try await ids([C("name", .equalTo(.null))])
        }
        await #expect(throws: EntityQueryError.wrongValueType(property: "tags", expected: .string, actual: "a int (3)")) {
            try await ids([C("tags", .contains(.int(3)))])
        }
        await #expect(throws: EntityQueryError.emptyRange(property: "length", lower: .int(9), upper: .int(2))) {
            try await ids([C("length", .isBetween(.int(9), .int(2)))])
        }
    }
}
