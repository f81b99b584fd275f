import Foundation
import GlimpseFiles
import GlimpseTestSupport
import Testing

/// `glimpse catalog` on a store file: import, show, check, an edit, the writer's lock, export.
@Suite("glimpse catalog")
struct CatalogCommandTests {
    /// A two-place catalog folder made from bundled photos.
    static func smallCatalog(in folder: TemporaryDirectory) throws -> String {
        let photos = ["084-scarlet-macaw-on-a-perch.jpg", "003-misty-lake-at-blue-hour.jpg"]
        for name in photos {
            try folder.write("in/photos/\(name)", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repository.photos + "/" + name))))
        }
        let json = """
            {"labels": ["water", "bird"], "collections": [{"id": "wild", "name": "Wild", "summary": "Wild things."}],
             "places": [
              {"id": "macaw", "name": "Macaw", "kind": "animal", "image": "photos/\(photos[0])", "labels": ["bird"],
               "collections": ["wild"]},
              {"id": "lake", "name": "Lake", "kind": "lake", "image": "photos/\(photos[1])", "labels": ["water"],
               "collections": []}]}
            """
        try folder.write("in/catalog.json", Array(json.utf8))
        return folder.file("in")
    }

    @Test func importEditCheckExportAndTheLock() async throws {
        let folder = try TemporaryDirectory()
        let input = try Self.smallCatalog(in: folder)
        let store = folder.file("store/catalog.sqlite")
        let common = ["--store", store, "--no-featureprint"]

        let imported = try await glimpse(["catalog", "import", input, "--no-feature-cache"] + common)
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.out.contains("imported 2 places, 2 photos"))

        let shown = try await glimpse(["catalog", "show", "--store", store])
        #expect(shown.status == 0 && shown.out.contains("sequence: 1") && shown.out.contains("places: 2"), "\(shown)")

        let added = try await glimpse(["catalog", "add-photo", "lake", input + "/photos/084-scarlet-macaw-on-a-perch.jpg",
                                 "--name", "photos/lake-2.jpg", "--if-match", "1"] + common)
        #expect(added.status == 0 && added.out.contains("place lake: revision 2, 2 photos"), "\(added)")
        let stale = try await glimpse(["catalog", "delete-place", "lake", "--if-match", "1"] + common)
        #expect(stale.status == 1 && stale.err.contains("revision 2"), "\(stale)")

        let checked = try await glimpse(["catalog", "check", "--store", store, "--no-featureprint"])
        #expect(checked.status == 0, "\(checked.err)")

        // While another process (this one) holds the writer's lock, an edit fails at once. The lock is
        // taken before the edit starts, so nothing depends on how fast the machine is.
        do {
            let held = try FileLock.acquire(store + ".lock")
            let busy = try await glimpse(["catalog", "delete-place", "lake"] + common)
            #expect(busy.status == 75 && busy.err.contains("in use by a running daemon") && busy.err.contains("--socket"), "\(busy)")
            withExtendedLifetime(held) {}
        }

        let out = folder.file("out")
        let exported = try await glimpse(["catalog", "export", out, "--store", store])
        #expect(exported.status == 0, "\(exported.err)")
        let macaw = try Data(contentsOf: URL(fileURLWithPath: out + "/photos/084-scarlet-macaw-on-a-perch.jpg"))
        #expect(macaw == (try Data(contentsOf: URL(fileURLWithPath: input + "/photos/084-scarlet-macaw-on-a-perch.jpg"))))
        #expect(FileManager.default.fileExists(atPath: out + "/photos/lake-2.jpg"))
    }

    /// Photos stored with prints, checked where no feature-print model is found: one problem naming the
    /// missing model, not a line per photo blaming other settings.
    @Test func checkingWithoutAModelSaysNoModelWasFound() async throws {
        let folder = try TemporaryDirectory()
        let input = try Self.smallCatalog(in: folder)
        let store = folder.file("store/catalog.sqlite")
        let imported = try await glimpse(
            ["catalog", "import", input, "--no-feature-cache", "--store", store,
             "--featureprint-model", Repository.root + "/Models/featureprint-int8.glimpsemodel"])
        #expect(imported.status == 0, "\(imported.err)")
        var environment = ProcessInfo.processInfo.environment
        environment["GLIMPSE_FEATUREPRINT_MODEL"] = nil
        let checked = try await runProcess(
            try glimpseExecutable(), ["catalog", "check", "--store", store, "--catalog", folder.file("elsewhere")],
            in: folder.path, environment: environment)
        #expect(checked.status == 1, "\(checked)")
        let problems = checked.err.split(separator: "\n").filter { $0.hasPrefix("problem:") }
        #expect(problems.count == 1, "\(checked.err)")
        #expect(checked.err.contains("2 photos have features made with") && checked.err.contains("no feature-print model was found"))
        #expect(checked.err.contains("--featureprint-model"))
    }
}
