import Foundation
import GlimpseTestSupport
import Testing

/// `glimpse bench --scale --index visual` on a three-place catalog, with its synthetic references made
/// from the catalog's descriptors and from a pool of real photos of no catalog place.
@Suite("glimpse bench --scale")
struct BenchScaleTests {
    @Test func visualScaleRunsWithSyntheticReferencesFromEitherSource() async throws {
        let labelled = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.labelledPhotos)) ?? [])
            .filter { $0.hasSuffix(".jpg") }.sorted().prefix(3)
        guard labelled.count == 3 else { return }  // the shared labelled photos are not beside the repository
        let folder = try TemporaryDirectory()
        // The first three places, without their collections.
        var catalog = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: Repository.catalogJSON))) as? [String: Any])
        let places = (catalog["places"] as? [[String: Any]] ?? []).prefix(3).map { place -> [String: Any] in
            var place = place
            place["collections"] = [String]()
            return place
        }
        catalog["places"] = Array(places)
        catalog["collections"] = [[String: Any]]()
        _ = try folder.write("catalog.json", Array(try JSONSerialization.data(withJSONObject: catalog)))
        try FileManager.default.createSymbolicLink(atPath: folder.file("photos"), withDestinationPath: Repository.photos)
        let pool = try folder.write("pool.json", Array(try JSONSerialization.data(
            withJSONObject: labelled.map { ["query": Repository.labelledPhotos + "/" + $0, "place_id": NSNull()] })))
        let common = ["bench", "--scale", "--index", "visual", "--sizes", "10", "--catalog", folder.path,
                      "--featureprint-model", Repository.featurePrintModel, "--json"]
        for extra in [[], ["--distractor-pool", pool]] {
            let run = try await glimpse(common + extra)
            #expect(run.status == 0, "\(run.err)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let rows = report["scale"] as? [[String: Any]] ?? []
            #expect(rows.count == 1 && rows.first?["references"] as? Int == 10)
            #expect(rows.first?["recall"] as? Double == 1, "\(rows)")
            let notes = (report["notes"] as? [String] ?? []).joined(separator: " ")
            #expect(notes.contains(extra.isEmpty ? "made from the catalog's descriptors" : "made from 3 photos of no catalog place"), "\(notes)")
        }
    }
}
