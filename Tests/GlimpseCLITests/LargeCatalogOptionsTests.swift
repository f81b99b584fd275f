import Foundation
import GlimpseTestSupport
import Testing

/// The compact regime from the command line (`--keypoint-slots` and its settings): a catalog folder served
/// with its keypoints on disk answers as it does from memory, and a second start loads the saved index and
/// the slot file instead of building.
@Suite("large-catalog options")
struct LargeCatalogOptionsTests {
    /// The bundled catalog's first place: its id and its photo's path.
    static func firstPlace() throws -> (id: String, photo: String) {
        let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.catalogJSON)))
        let place = try #require(((catalog as? [String: Any])?["places"] as? [[String: Any]])?.first)
        return (try #require(place["id"] as? String), Repository.images + "/" + (try #require(place["image"] as? String)))
    }

    /// The ids of a `query --json` answer's results, in order.
    static func resultIDs(_ text: String) -> [String] {
        let page = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        return (page?["results"] as? [[String: Any]] ?? []).compactMap { ($0["entity"] as? [String: Any])?["id"] as? String }
    }

    @Test func aCatalogWithItsKeypointsOnDiskAnswersAsFromMemoryAndLoadsAtTheNextStart() async throws {
        let place = try Self.firstPlace()
        let folder = try TemporaryDirectory()
        let slots = folder.path + "/keypoints.slots", index = folder.path + "/matcher.index"
        let inMemory = try await glimpse(["query", place.photo, "--limit", "1", "--json"])
        let arguments = ["query", place.photo, "--limit", "1", "--json", "--keypoint-slots", slots, "--matcher-index", index]
        let built = try await glimpse(arguments)
        #expect(inMemory.status == 0 && built.status == 0, "\(inMemory.err)\(built.err)")
        #expect(Self.resultIDs(inMemory.out) == [place.id])
        #expect(Self.resultIDs(built.out) == [place.id], "\(built.out)")
        let written = try [slots, index].map { try FileManager.default.attributesOfItem(atPath: $0) }
        #expect(written.allSatisfy { ($0[.size] as? Int ?? 0) > 0 })
        // The next start maps what the first wrote: neither file is written again, and the answer is the same.
        let loaded = try await glimpse(arguments)
        #expect(loaded.status == 0, "\(loaded.err)")
        #expect(Self.resultIDs(loaded.out) == [place.id])
        let after = try [slots, index].map { try FileManager.default.attributesOfItem(atPath: $0) }
        for (before, now) in zip(written, after) {
            #expect(before[.modificationDate] as? Date == now[.modificationDate] as? Date)
            #expect(before[.systemFileNumber] as? Int == now[.systemFileNumber] as? Int)
        }
    }

    /// A slot path the file cannot be made at is named as such, not as a catalog that cannot be read.
    @Test func aSlotPathThatIsAFolderIsNamedWithWhy() async throws {
        let place = try Self.firstPlace()
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("in-the-way"), withIntermediateDirectories: true)
        let run = try await glimpse(["query", place.photo, "--keypoint-slots", folder.file("in-the-way")])
        #expect(run.status != 0, "\(run.err)")
        #expect(run.err.contains("cannot make the keypoint slot file (--keypoint-slots)"), "\(run.err)")
        #expect(run.err.contains(folder.file("in-the-way")) && run.err.contains("a directory is in the way"), "\(run.err)")
        #expect(!run.err.contains("catalog.json"), "\(run.err)")
    }

    @Test func settingsOutOfRangeAreRefusedBeforeAnythingLoads() async throws {
        let place = try Self.firstPlace()
        let tooMany = try await glimpse(["query", place.photo, "--reference-keypoints", "100", "--indexed-keypoints", "200"])
        #expect(tooMany.status != 0 && tooMany.err.contains("cannot exceed --reference-keypoints"), "\(tooMany.err)")
        let noTables = try await glimpse(["match", "--lsh-tables", "40", Repository.images])
        #expect(noTables.status != 0 && noTables.err.contains("--lsh-tables must be 1 to 32, got 40"), "\(noTables.err)")
        let atScale = try await glimpse(["bench", "--scale", "--keypoint-slots", "/nonexistent/k.slots"])
        #expect(atScale.status != 0 && atScale.err.contains("--scale builds its own references"), "\(atScale.err)")
    }
}
