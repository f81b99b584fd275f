import CatalogFuzzSupport
import Foundation
import FuzzSupport
import GlimpseCatalog
import GlimpseImage
import GlimpseIntents
import GlimpseWire

/// Accepts the places it is told to, so searches leave match evidence in their cursors.
struct ScriptedMatcher: PlaceMatching {
    let candidates: [PlaceMatchCandidate]

    func matchPlaces(in image: PixelBuffer, limit: Int) async throws -> PlaceMatchReport {
        PlaceMatchReport(candidates: Array(candidates.prefix(limit)))
    }
}

extension SeedWriter {
    /// Cursors of label and picture searches over the bundled catalog, signed with the targets' key:
    /// as text (first byte even) and as the bodies the target signs itself (first byte odd). The first
    /// byte's upper bits pick the page size (index 1: 1, 2: 3).
    func cursors() throws {
        let catalog = try Catalog.load(directory: Repository.images, checkPhotos: false)
        let store = SnapshotStore(capacity: 1, cursorKey: fuzzCursorKey)
        let snapshot = store.publish(catalog)
        let places = catalog.places
        guard places.count >= 3 else { throw SeedError(description: "the bundled catalog has too few places") }
        let matcher = ScriptedMatcher(candidates: [
            PlaceMatchCandidate(placeID: places[0].id, score: 0.93, accepted: true, inliers: 120),
            PlaceMatchCandidate(placeID: places[2].id, score: 0.41, accepted: false, inliers: 9),
            PlaceMatchCandidate(placeID: places[1].id, score: 0.12, accepted: false),
        ])
        let picture = try Self.photo(Self.photos[0], side: 16)
        let searches: [(String, SemanticContentDescriptor, (any PlaceMatching)?)] = [
            ("labels", SemanticContentDescriptor(labels: Array(catalog.labels.prefix(3))), nil),
            ("labels-one", SemanticContentDescriptor(labels: [places[1].labels.first ?? "sky", "unknown"]), nil),
            ("picture", SemanticContentDescriptor(pixelBuffer: picture), matcher),
        ]
        var files: [(String, [UInt8])] = []
        for (name, input, matcher) in searches {
            let query = VisualSearchQuery(snapshot: snapshot, store: store, matcher: matcher)
            for (limitIndex, limit) in [(1, 1), (2, 3)] {
                let page = try runBlocking { () -> Result<VisualSearchPage, any Error> in
                    do { return .success(try await query.search(input, limit: limit)) } catch { return .failure(error) }
                }.get()
                guard let cursor = page.nextCursor else { continue }
                let mode = UInt8(limitIndex << 1)
                files.append(("\(name)-limit\(limit)-text", [mode] + Array(cursor.utf8)))
                guard let body = Self.cursorBody(cursor) else { throw SeedError(description: "cursor \(cursor) is not base64url") }
                files.append(("\(name)-limit\(limit)-body", [mode | 1] + body))
            }
        }
        files.append(("garbage-text", [0] + Array("not a cursor!".utf8)))
        try write("cursor", files)
    }

    /// The bytes of a cursor without its 16-byte signature.
    static func cursorBody(_ cursor: String) -> [UInt8]? {
        var text = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text), data.count > 16 else { return nil }
        return Array(data.dropLast(16))
    }

    /// The first places of the bundled catalog with their collections and labels, and small
    /// hand-written catalogs (minimal, with every optional field, and a few that are refused).
    func catalogs() throws {
        var files: [(String, [UInt8])] = []
        for count in [3, 8] {
            files.append(("bundled-first-\(count).json", try BundledCatalog.json(firstPlaces: count)))
        }
        let minimal = #"{"labels":["sky"],"collections":[],"places":[{"id":"a","name":"A","image":"a.jpg","labels":["sky"],"collections":[],"kind":"scene"}]}"#
        let full = #"""
            {"labels": ["sky", "water", "tower"],
             "collections": [{"id": "c1", "name": "Towers", "summary": "Tall things."},
                             {"id": "c2", "name": "Élan", "summary": ""}],
             "places": [
              {"id": "p1", "name": "Tour Eiffel", "image": "photos/p1.jpg", "labels": ["tower", "sky"],
               "collections": ["c1", "c2"], "kind": "landmark", "region": "Paris", "continent": "Europe",
               "credit": {"author": "A. N. Other", "license": "CC BY 4.0", "source": "https://example.org/p1"}},
              {"id": "p2", "name": "Lac", "image": "../p2.png", "labels": ["water"], "collections": ["c2"],
               "kind": "lake", "region": "", "continent": null}]}
            """#
        let refused = [
            ("duplicate-id.json", #"{"labels":[],"collections":[],"places":[{"id":"a","name":"A","image":"a","labels":[],"collections":[],"kind":"k"},{"id":"a","name":"B","image":"b","labels":[],"collections":[],"kind":"k"}]}"#),
            ("unknown-label.json", #"{"labels":["sky"],"collections":[],"places":[{"id":"a","name":"A","image":"a","labels":["sea"],"collections":[],"kind":"k"}]}"#),
            ("dangling-collection.json", #"{"labels":[],"collections":[],"places":[{"id":"a","name":"A","image":"a","labels":[],"collections":["x"],"kind":"k"}]}"#),
            ("not-an-object.json", "[1, 2.5e300, \"\\ud83d\\ude00\", null, true]"),
        ]
        files += [("minimal.json", Array(minimal.utf8)), ("every-field.json", Array(full.utf8))]
        files += refused.map { ($0.0, Array($0.1.utf8)) }
        try write("catalog", files)
    }
}

extension SeedWriter {
    /// Bodies of POST /v1/entities/{type}/query, written by the wire type's encoder: every comparator, both
    /// modes and sort orders, and properties of both entity types (each body is also searched as text).
    func entityQueries() throws {
        let queries: [(String, PropertyQueryJSON)] = [
            ("kind-and-continent", PropertyQueryJSON(comparators: [
                ComparatorJSON(property: "kind", comparator: "equalTo", value: "landmark"),
                ComparatorJSON(property: "continent", comparator: "notEqualTo", value: "Asia"),
            ], sort: [SortJSON(property: "name")], limit: 5)),
            ("any-prefix-suffix", PropertyQueryJSON(comparators: [
                ComparatorJSON(property: "name", comparator: "hasPrefix", value: "Sun"),
                ComparatorJSON(property: "name", comparator: "hasSuffix", value: "lake"),
                ComparatorJSON(property: "labels", comparator: "contains", value: "water"),
            ], mode: "any", sort: [SortJSON(property: "name", order: "descending")])),
            ("counts", PropertyQueryJSON(comparators: [
                ComparatorJSON(property: "labelCount", comparator: "isBetween", value: 2, upperValue: 4),
                ComparatorJSON(property: "labelCount", comparator: "greaterThan", value: 1),
                ComparatorJSON(property: "region", comparator: "isNil"),
            ], limit: 3)),
            ("collections", PropertyQueryJSON(comparators: [
                ComparatorJSON(property: "placeCount", comparator: "greaterThanOrEqualTo", value: 2),
                ComparatorJSON(property: "summary", comparator: "contains", value: "water"),
                ComparatorJSON(property: "places", comparator: "contains", value: "eiffel-tower"),
                ComparatorJSON(property: "placeCount", comparator: "lessThanOrEqualTo", value: 2.5),
            ], mode: "or", sort: [SortJSON(property: "placeCount", order: "ascending")])),
            ("empty", PropertyQueryJSON(comparators: [])),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var files = try queries.map { ($0.0 + ".json", Array(try encoder.encode($0.1))) }
        files.append(("text-search", Array("tour eiffel".utf8)))
        try write("entity-query", files)
    }
}
