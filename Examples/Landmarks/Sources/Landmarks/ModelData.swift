// The app's model: on iOS it would search with Core ML or a server; here Glimpse's engine matches the
// picture against the catalog of places (Images/catalog.json) and the model keeps the landmarks.
import AppIntents
import GlimpseCatalog
import GlimpseEngine
import VisualIntelligence

/// What the app knows: its landmarks and collections, and the engine that recognises them in pictures.
final class ModelData: Sendable {
    let landmarks: [LandmarkEntity]
    let collections: [CollectionEntity]
    private let engine: Engine

    /// Loads the catalog in `catalogDirectory` (its `catalog.json`, the photos, and the models in
    /// `Models/` beside it) and keeps its landmarks.
    init(catalogDirectory: String) async throws {
        engine = try await Engine.load(EngineConfiguration(catalogDirectory: catalogDirectory))
        let catalog = engine.catalog
        let places = catalog.places.filter { $0.kind == "landmark" }
        landmarks = places.map { place in
            LandmarkEntity(id: place.id, name: place.name, continent: place.continent ?? "",
                           country: place.region ?? "", photo: URL(filePath: place.photoPath))
        }
        let landmarkIDs = Set(places.map(\.id))
        collections = catalog.collections.compactMap { collection in
            let members = collection.places.filter(landmarkIDs.contains)
            return members.isEmpty ? nil : CollectionEntity(id: collection.id, name: collection.name, landmarkIDs: members)
        }
    }

    func landmark(id: String) -> LandmarkEntity? { landmarks.first { $0.id == id } }

    /// Decodes a picture file the way the engine's matcher expects it.
    func picture(atPath path: String) throws -> CVReadOnlyPixelBuffer {
        try engine.decode(contentsOfFile: path)
    }

    /// The landmarks the picture shows, best first, each followed by its collections.
    func search(matching pixelBuffer: CVReadOnlyPixelBuffer) async throws -> [VisualSearchResult] {
        let page = try await engine.search(SemanticContentDescriptor(pixelBuffer: pixelBuffer), limit: 20)
        return page.items.compactMap { item in
            switch item.result {
            case .place(let place):
                landmark(id: place.id).map(VisualSearchResult.landmark)
            case .collection(let collection):
                collections.first { $0.id == collection.id }.map(VisualSearchResult.collection)
            }
        }
    }
}
