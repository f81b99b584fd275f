import Foundation
import GlimpseEngine
import GlimpseServer
import GlimpseTestSupport
import Testing

/// Entity pictures are read by the package's one whole-file rule: regular files only.
@Suite("entity picture files", .timeLimit(.minutes(2)))
struct PictureFileTests {
    @Test func aPictureReplacedByAFIFOIsNotServedAndHoldsNoThread() async throws {
        let folder = try TemporaryDirectory()
        let photo = "001-wooden-jetty-on-a-calm-lake.jpg"
        try folder.write("photos/" + photo, try photoBytes(photo))
        try folder.write("catalog.json", Array("""
            {"labels": [], "collections": [], "places": [{"id": "jetty", "name": "Jetty", "kind": "lake",
             "image": "photos/\(photo)", "labels": [], "collections": []}]}
            """.utf8))
        var configuration = EngineConfiguration(catalogDirectory: folder.path)
        configuration.featurePrintModel = .off
        configuration.labelModel = .off
        configuration.featureCache = nil
        let service = CatalogSearchService(engine: try await Engine.load(configuration))
        #expect(try await service.entityImage(type: "place", id: "jetty") != nil)

        // Swapped for a FIFO with no writer: opening it for reading would block forever.
        let path = folder.file("photos/" + photo)
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        #expect(try await service.entityImage(type: "place", id: "jetty") == nil)
    }
}
