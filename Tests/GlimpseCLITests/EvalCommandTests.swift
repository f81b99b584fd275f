import Foundation
import GlimpseTestSupport
import Testing

/// `glimpse eval` end to end: a small manifest of catalog photos and photos of no place, evaluated, and
/// the hidden checks of distractors and of the print index run over it.
@Suite("glimpse eval")
struct EvalCommandTests {
    /// A manifest in a fresh folder: the first three catalog places' photos (as they are) and, when the
    /// shared labelled photos are beside the repository, three of them as photos of no place.
    static func manifest() throws -> (folder: TemporaryDirectory, path: String, places: Int, noPlace: Int) {
        let folder = try TemporaryDirectory()
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.catalogJSON)))
        let places = ((catalog as? [String: Any])?["places"] as? [[String: Any]] ?? []).prefix(3)
        var entries: [[String: Any]] = places.map { place in
            ["query": Repository.images + "/" + (place["image"] as? String ?? ""), "place_id": place["id"] ?? NSNull()]
        }
        let labelled = (try? FileManager.default.contentsOfDirectory(atPath: Repository.labelledPhotos)) ?? []
        let strangers = labelled.filter { $0.hasSuffix(".jpg") }.sorted().prefix(3)
        entries += strangers.map { ["query": Repository.labelledPhotos + "/" + $0, "place_id": NSNull()] }
        let path = try folder.write("queries.json", Array(try JSONSerialization.data(withJSONObject: entries)))
        return (folder, path, places.count, strangers.count)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func catalogPhotosAreFoundAndPhotosOfNoPlaceAreNot() async throws {
        let m = try Self.manifest()
        let run = try await glimpse(["eval", "--queries", m.path, "--json"])
        #expect(run.status == 0, "\(run.err)")
        let report = try Self.json(run.out)
        #expect(report["queries"] as? Int == m.places + m.noPlace)
        #expect(report["recall_at_1"] as? Double == 1)
        #expect(report["false_match_rate"] as? Double == 0)
    }

    @Test func theCatalogsPrintsKeptAsCodesAnswerAsTheirFloatsDo() async throws {
        let m = try Self.manifest()
        let floats = try await glimpse(["eval", "--queries", m.path, "--json"])
        let codes = try await glimpse(["eval", "--queries", m.path, "--print-code-line", "1", "--json"])
        #expect(floats.status == 0 && codes.status == 0, "\(floats.err)\(codes.err)")
        let (a, b) = (try Self.json(floats.out), try Self.json(codes.out))
        #expect(b["recall_at_1"] as? Double == a["recall_at_1"] as? Double && b["recall_at_1"] as? Double == 1)
        #expect(b["false_match_rate"] as? Double == 0)
        // Codes hold a view in 172 bytes instead of 5,120.
        #expect((b["index_memory_bytes"] as? Int ?? .max) < (a["index_memory_bytes"] as? Int ?? 0))
    }

    @Test func theDistractorCheckNeedsPhotosOfNoPlaceAndReportsItsLine() async throws {
        let m = try Self.manifest()
        let run = try await glimpse(["eval", "--queries", m.path, "--check-distractors", "--json"])
        if m.noPlace == 0 {
            #expect(run.status != 0 && run.err.contains("no photo of no catalog place"), "\(run.err)")
            return
        }
        #expect(run.status == 0, "\(run.err)")
        let check = try Self.json(run.out)
        #expect(check["probes"] as? Int == m.noPlace && check["samples"] as? Int == 10)
        let gap = try #require(check["quantile_gap"] as? Double), d = try #require(check["kolmogorov_smirnov"] as? Double)
        #expect(check["passes"] as? Bool == (gap <= 0.03 && d <= 0.15))
        // Without a pool the distractors come from the catalog, and there is no separate pool to compare.
        #expect(check["real_pool"] == nil && check["generator_gap"] == nil)
    }

    @Test func theDistractorCheckWithAPoolAlsoComparesThePoolsOwnPhotos() async throws {
        let m = try Self.manifest()
        guard m.noPlace >= 3 else { return }  // the shared labelled photos are not beside the repository
        // The pool is the probes themselves: each probe's best real pool photo is itself (its print made
        // from the extraction's copy of the picture, so a little under 1).
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: m.path))) as? [[String: Any]])
        let pool = try m.folder.write("pool.json", Array(try JSONSerialization.data(withJSONObject: entries.filter { $0["place_id"] is NSNull })))
        let run = try await glimpse(["eval", "--queries", m.path, "--check-distractors", "--distractor-pool", pool, "--json"])
        #expect(run.status == 0, "\(run.err)")
        let check = try Self.json(run.out)
        let real = try #require(check["real_pool"] as? [String: Double])
        #expect((real["p10"] ?? 0) > 0.9 && (real["p90"] ?? 2) <= 1.001, "\(real)")
        // The generator's gap is the distractors' row against the real pool photos' row.
        let made = try #require(check["distractors"] as? [String: Double])
        let gap = try #require(check["generator_gap"] as? Double)
        let expected = ["p10", "p50", "p90"].map { abs((made[$0] ?? 0) - (real[$0] ?? 0)) }.max() ?? -1
        #expect(abs(gap - expected) < 1e-9, "\(made) \(real)")
        #expect((check["generator_kolmogorov_smirnov"] as? Double ?? 0) > 0)
        let text = try await glimpse(["eval", "--queries", m.path, "--check-distractors", "--distractor-pool", pool])
        #expect(text.out.contains("real pool photos") && text.out.contains("distractors against the real pool photos"), "\(text.out)")
    }

    @Test func syntheticReferencesAreMadeFromThePoolWhenOneIsGiven() async throws {
        let m = try Self.manifest()
        guard m.noPlace >= 3 else { return }  // the shared labelled photos are not beside the repository
        let catalogOnly = try await glimpse(["eval", "--queries", m.path, "--synthetic-references", "20", "--json"])
        // The pool: the manifest's photos of no place.
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: m.path))) as? [[String: Any]])
        let pool = try m.folder.write("pool.json", Array(try JSONSerialization.data(withJSONObject: entries.filter { $0["place_id"] is NSNull })))
        let pooled = try await glimpse(["eval", "--queries", m.path, "--synthetic-references", "20",
                                  "--distractor-pool", pool, "--json"])
        for run in [catalogOnly, pooled] {
            #expect(run.status == 0, "\(run.err)")
            let report = try Self.json(run.out)
            #expect(report["synthetic_references"] as? Int == 20 && report["recall_at_1"] as? Double == 1)
            #expect(report["false_match_rate"] as? Double == 0)
        }
        let (a, b) = (try Self.json(catalogOnly.out), try Self.json(pooled.out))
        #expect(a["synthetic_from"] as? String == "catalog")
        #expect(b["synthetic_from"] as? String == "pool of \(m.noPlace) photos")
        #expect(b["references"] as? Int == a["references"] as? Int)
        // A distractor mixes two photos at a third's layout: a pool of two is refused, saying why.
        let small = try m.folder.write("small.json", Array(try JSONSerialization.data(
            withJSONObject: Array(entries.filter { $0["place_id"] is NSNull }.prefix(2)))))
        let refused = try await glimpse(["eval", "--queries", m.path, "--synthetic-references", "20", "--distractor-pool", small])
        #expect(refused.status != 0 && refused.err.contains("distractor pool"), "\(refused.err)")
    }

    @Test func aSavedMatcherIndexIsLoadedByTheNextRun() async throws {
        let m = try Self.manifest()
        let index = m.folder.file("matcher.index")
        let arguments = ["eval", "--queries", m.path, "--synthetic-references", "20", "--matcher-index", index, "--json"]
        let built = try await glimpse(arguments)
        #expect(built.status == 0, "\(built.err)")
        #expect(built.err.contains("building the matcher: shortlist index 1/1")
                && built.err.contains("building the matcher: saving the matcher index 1/1"), "\(built.err)")
        let loaded = try await glimpse(arguments)
        #expect(loaded.status == 0, "\(loaded.err)")
        #expect(loaded.err.contains("loading the matcher index 1/1") && !loaded.err.contains("shortlist index"), "\(loaded.err)")
        let (a, b) = (try Self.json(built.out), try Self.json(loaded.out))
        #expect(b["reference_source"] as? String == "index" && a["reference_source"] as? String != "index")
        for field in ["references", "recall_at_1", "false_match_rate"] {
            #expect("\(a[field] ?? "")" == "\(b[field] ?? "")", "\(field)")
        }
        // A damaged or stale index is rebuilt: CatalogMatcherIndexTests.
    }

    @Test func badCheckSettingsAreRefusedBeforeAnythingLoads() async throws {
        let m = try Self.manifest()
        let noLine = try await glimpse(["eval", "--queries", m.path, "--print-code-line", "0"])
        #expect(noLine.status != 0 && noLine.err.contains("printCodeLine must be at least 1"), "\(noLine.err)")
        let tooManyLists = try await glimpse(["eval", "--queries", m.path, "--print-code-probe", "300"])
        #expect(tooManyLists.status != 0 && tooManyLists.err.contains("printCodeProbe must be in 1...256"), "\(tooManyLists.err)")
        let noTables = try await glimpse(["eval", "--queries", m.path, "--lsh-tables", "0"])
        #expect(noTables.status != 0 && noTables.err.contains("--lsh-tables must be 1 to 32, got 0"), "\(noTables.err)")
        let negativeCap = try await glimpse(["eval", "--queries", m.path, "--lsh-bucket-cap=-1"])
        #expect(negativeCap.status != 0 && negativeCap.err.contains("lshBucketCap must be at least 0"), "\(negativeCap.err)")
    }
}
