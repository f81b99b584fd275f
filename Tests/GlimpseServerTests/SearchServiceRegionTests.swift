import GlimpseImage
import GlimpseServer
import GlimpseTestSupport
import GlimpseWire
import Testing

/// A service that does not search regions itself: it answers every picture with one result whose region
/// is the middle quarter of what it was given, and records the size of that picture.
private final class CroppingOnlyService: SearchService {
    let placeCount = 1, collectionCount = 0
    var decodingOptions: DecodingOptions { DecodingOptions() }

    func search(image: PixelBuffer, labels: [String], limit: Int) async throws -> QueryResponseJSON {
        let evidence = EvidenceJSON(
            matchedPlace: "p", matchScore: 1, inliers: 10, votingLabels: [], labelFit: 0,
            region: RegionJSON(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
        let result = SearchResultJSON(
            type: "place", entity: EntityJSON(type: "place", id: "p", displayRepresentation: .init(title: "P"),
                               properties: [:]),
            score: 1, reason: "\(image.width)x\(image.height)", evidence: evidence)
        return QueryResponseJSON(
            results: [result], labels: [], labelSource: "none", ignoredLabels: [], next: nil, snapshot: "s", offset: 0,
            total: 1)
    }

    func nextPage(cursor: String, limit: Int?) async throws -> QueryResponseJSON { throw CancellationError() }
    func entity(type: String, id: String) async throws -> EntityJSON? { nil }
    func entities(matching text: String, limit: Int) async throws -> [EntityJSON] { [] }
    func entities(type: String, query: PropertyQueryJSON) async throws -> [EntityJSON] { [] }
}

@Suite struct SearchServiceRegionTests {
    /// A service that only searches whole pictures still answers a `box=` search in the whole picture's
    /// coordinates, as the catalog service does: one convention for regions everywhere.
    @Test func defaultRegionSearchAnswersInTheWholePicturesCoordinates() async throws {
        let picture = try TestImages.image(width: 200, height: 100) { x, y in (UInt8(x), UInt8(y), 0) }
        let region = try ImageRegion(x: 0.5, y: 0.25, width: 0.5, height: 0.5)
        let page = try await CroppingOnlyService().search(image: picture, labels: [], limit: 5, region: region)
        #expect(page.results.first?.reason == "100x50")
        #expect(page.results.first?.evidence.region == RegionJSON(x: 0.625, y: 0.375, width: 0.25, height: 0.25))
        let whole = try await CroppingOnlyService().search(image: picture, labels: [], limit: 5, region: nil)
        #expect(whole.results.first?.evidence.region == RegionJSON(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
    }
}
