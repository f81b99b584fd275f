import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseIntents
import GlimpseTestSupport
import GlimpseVision
import Testing

/// The engine on its own, without a store: it loads a catalog folder, finds each place from another
/// view of its photo, takes a changed catalog without a reload, and draws why it answered.
@Suite(.serialized) struct EngineTests {
    /// A catalog folder holding the first `places` bundled places (their photos linked, not copied).
    static func catalogFolder(in directory: TemporaryDirectory, places: Int) throws -> String {
        let folder = directory.file("catalog")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writeCatalog(folder, places: places)
        try FileManager.default.createSymbolicLink(atPath: folder + "/photos", withDestinationPath: Repository.photos)
        return folder
    }

    /// Rewrites `folder`'s catalog.json with the first `places` bundled places.
    static func writeCatalog(_ folder: String, places: Int) throws {
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.catalogJSON)))
                as? [String: Any])
        json["places"] = Array(try #require(json["places"] as? [Any]).prefix(places))
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: folder + "/catalog.json"))
    }

    /// Keypoints only (no models), so that debug builds stay quick.
    static func configuration(_ folder: String) -> EngineConfiguration {
        var configuration = EngineConfiguration(catalogDirectory: folder)
        configuration.featurePrintModel = .off
        configuration.labelModel = .off
        configuration.compactionQuietPeriod = nil
        return configuration
    }

    /// The best place for a smaller, cropped view of `place`'s photo, or nil.
    static func topPlace(_ engine: Engine, viewOf place: PlaceEntity) async throws -> String? {
        let view = try LiveCatalogTests.distorted(try engine.decode(contentsOfFile: place.photoPath))
        let page = try await engine.search(SemanticContentDescriptor(pixelBuffer: view), limit: 3)
        for item in page.items { if case .place(let found) = item.result { return found.id } }
        return nil
    }

    @Test func loadFindsEachPlaceFromAnotherViewOfItsPhoto() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let engine = try await Engine.load(Self.configuration(try Self.catalogFolder(in: directory, places: 4)))
        #expect(engine.catalog.places.count == 4)
        let matcher = try #require(engine.current.matcher)
        #expect(matcher.referenceCount == 4)
        #expect(engine.featurePrinter == nil && engine.labeler == nil)
        for place in engine.catalog.places {
            #expect(try await Self.topPlace(engine, viewOf: place) == place.id)
        }
    }

    @Test func labelsAloneAreAnsweredWithoutAPicture() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.configuration(try Self.catalogFolder(in: directory, places: 4))
        configuration.matchesPictures = false
        let engine = try await Engine.load(configuration)
        #expect(engine.current.matcher == nil)
        let label = try #require(engine.catalog.places.first?.labels.first)
        let page = try await engine.search(SemanticContentDescriptor(labels: [label]), limit: 10)
        #expect(!page.items.isEmpty)
        #expect(page.ignoredLabels.isEmpty)
        // A label outside the catalog's vocabulary is set aside, and nothing fits it.
        let unknown = try await engine.search(SemanticContentDescriptor(labels: ["no-such-label"]), limit: 10)
        #expect(unknown.ignoredLabels == ["no-such-label"])
        #expect(unknown.items.isEmpty)
    }

    @Test func loadRefusesAMissingCatalogAndAMissingNamedModel() async throws {
        let missing = "/nonexistent/glimpse-catalog"
        do {
            _ = try await Engine.load(Self.configuration(missing))
            Issue.record("a missing catalog folder loaded")
        } catch {
            guard case .catalog(.unreadable(let path, _)) = error else {
                Issue.record("expected an unreadable catalog, got \(error)")
                return
            }
            #expect(path.hasPrefix(missing))
            #expect(error.isMissingFile)
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Self.configuration(try Self.catalogFolder(in: directory, places: 1))
        configuration.labelModel = ModelChoice(path: directory.file("none.glimpsemodel"))
        await #expect(throws: EngineError.labelModelMissing(path: directory.file("none.glimpsemodel"))) {
            _ = try await Engine.load(configuration)
        }
    }

    @Test func updateAddsAndRemovesAPlaceWithoutAReload() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try Self.catalogFolder(in: directory, places: 4)
        let engine = try await Engine.load(Self.configuration(folder))
        let first = engine.current

        try Self.writeCatalog(folder, places: 5)
        let grown = try Catalog.load(directory: folder)
        let added = try #require(grown.places.last)
        #expect(try await Self.topPlace(engine, viewOf: added) != added.id)
        let next = try engine.update(to: grown)
        #expect(next.snapshot.id != first.snapshot.id)
        #expect(engine.current.snapshot.id == next.snapshot.id)
        #expect(next.matcher?.referenceCount == 5)
        #expect(try await Self.topPlace(engine, viewOf: added) == added.id)
        // The four places it had are still found, and the generation taken before is unchanged.
        #expect(try await Self.topPlace(engine, viewOf: grown.places[0]) == grown.places[0].id)
        #expect(first.catalog.places.count == 4 && first.matcher?.referenceCount == 4)

        try Self.writeCatalog(folder, places: 4)
        try engine.update(to: try Catalog.load(directory: folder))
        #expect(engine.current.matcher?.referenceCount == 4)
        #expect(try await Self.topPlace(engine, viewOf: added) != added.id)
    }

    @Test func explainDrawsThePictureBesideThePlaceItFound() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let engine = try await Engine.load(Self.configuration(try Self.catalogFolder(in: directory, places: 4)))
        let place = try #require(engine.catalog.places.first)
        let view = try LiveCatalogTests.distorted(try engine.decode(contentsOfFile: place.photoPath))
        // The picture alone is drawn 600 pixels high at its aspect ratio; a place found adds its photo
        // on the right, so the drawing is wider than the picture's panel.
        let panel = Int((Double(view.width) * 600 / Double(view.height)).rounded())
        let drawn = try engine.explain(view)
        #expect(drawn.height == 600)
        #expect(drawn.width > panel + 12, "\(drawn.width) × \(drawn.height) for a \(panel)-pixel panel")
        // A blank picture matches nothing: the panel alone.
        let blank = try PixelBuffer(width: 300, height: 200, pixelFormat: .rgb8,
                                    bytes: [UInt8](repeating: 128, count: 300 * 200 * 3))
        let alone = try engine.explain(blank)
        #expect(alone.width == 900 && alone.height == 600)

        var labelsOnly = Self.configuration(directory.file("catalog"))
        labelsOnly.matchesPictures = false
        let withoutMatcher = try await Engine.load(labelsOnly)
        #expect(throws: ExplainError.noMatcher) { try withoutMatcher.explain(view) }
    }
}
