import Foundation
import GlimpseFiles
import GlimpseTestSupport
import Testing

/// `glimpse catalog calibration`: the print line of a catalog folder and its closest look-alikes.
@Suite("glimpse catalog calibration")
struct CatalogCalibrationCommandTests {
    /// A four-place catalog: one photo under two place ids (look-alikes as close as they come), and two
    /// places of their own.
    static func twinCatalog(in folder: TemporaryDirectory) throws -> String {
        let photos = ["040-eiffel-tower.jpg", "050-colosseum.jpg", "003-misty-lake-at-blue-hour.jpg"]
        for name in photos {
            try folder.write("in/photos/\(name)", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repository.photos + "/" + name))))
        }
        let json = """
            {"labels": ["tower"], "collections": [],
             "places": [
              {"id": "tower", "name": "Tower", "kind": "landmark", "image": "photos/\(photos[0])", "labels": [], "collections": []},
              {"id": "tower-twin", "name": "Tower twin", "kind": "landmark", "image": "photos/\(photos[0])", "labels": [],
               "collections": []},
              {"id": "arena", "name": "Arena", "kind": "landmark", "image": "photos/\(photos[1])", "labels": [], "collections": []},
              {"id": "lake", "name": "Lake", "kind": "lake", "image": "photos/\(photos[2])", "labels": [], "collections": []}]}
            """
        try folder.write("in/catalog.json", Array(json.utf8))
        return folder.file("in")
    }

    @Test func theReportNamesTheTwinsAndTheLineTheyNeed() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let catalog = try Self.twinCatalog(in: folder)
        let run = try await glimpse(["catalog", "calibration", "--catalog", catalog, "--no-feature-cache", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let line = try #require(report["line"] as? Double)
        #expect(report["places"] as? Int == 4 && report["catalog_views"] as? Int == 28)
        // The twins' views reach each other at a similarity of 1: the same photo twice, not two look-alike
        // objects, so they raise each other's line but not the catalog's.
        #expect(line < 2)
        #expect(report["nulls"] as? Int == 630 && report["nulls_left_out"] as? Int == 0)
        // The twins reach each other with the same photo: each needs more than that on its print alone.
        let listed = try #require(report["look_alikes"] as? [[String: Any]])
        let twins = listed.filter { ($0["place"] as? String)?.hasPrefix("tower") == true }
        #expect(twins.count == 2 && twins.allSatisfy { $0["raised"] as? Bool == true }, "\(listed)")
        for twin in twins {
            let evidence = try #require(twin["evidence"] as? Double)
            #expect(evidence > line && evidence > 3 && (twin["line"] as? Double ?? 0) > evidence)
        }
        #expect(Set(twins.compactMap { $0["look_alike"] as? String }) == ["tower", "tower-twin"])
        #expect(report["raised_lines"] as? Int == 2)
        // The text form says the same.
        let text = try await glimpse(["catalog", "calibration", "--catalog", catalog, "--no-feature-cache"])
        #expect(text.status == 0 && text.out.contains("2 places have a raised line") && text.out.contains("(raised)"), "\(text)")
    }

    @Test func aCatalogWithoutNullPrintsHasNoLineAndSaysWhy() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let catalog = try Self.twinCatalog(in: folder)
        let run = try await glimpse(["catalog", "calibration", "--catalog", catalog, "--no-feature-cache", "--no-featureprint"])
        #expect(run.status == 1 && run.err.contains("null prints"), "\(run)")
    }
}
