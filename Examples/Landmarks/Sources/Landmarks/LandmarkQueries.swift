// The queries: by identifier and name for each entity, and the one visual intelligence calls.
import AppIntents
import VisualIntelligence

struct LandmarkEntityQuery: EntityStringQuery {
    @Dependency var modelData: ModelData

    func entities(for identifiers: [String]) async throws -> [LandmarkEntity] {
        identifiers.compactMap { modelData.landmark(id: $0) }
    }

    func entities(matching string: String) async throws -> [LandmarkEntity] {
        modelData.landmarks.filter { $0.name.localizedCaseInsensitiveContains(string) }
    }

    func suggestedEntities() async throws -> [LandmarkEntity] {
        Array(modelData.landmarks.prefix(5))
    }
}

struct CollectionEntityQuery: EnumerableEntityQuery {
    @Dependency var modelData: ModelData

    func entities(for identifiers: [String]) async throws -> [CollectionEntity] {
        modelData.collections.filter { identifiers.contains($0.id) }
    }

    func allEntities() async throws -> [CollectionEntity] {
        modelData.collections
    }
}

struct LandmarkIntentValueQuery: IntentValueQuery {
    @Dependency var modelData: ModelData

    func values(for input: SemanticContentDescriptor) async throws -> [VisualSearchResult] {
        guard let pixelBuffer: CVReadOnlyPixelBuffer = input.pixelBuffer else {
            return []
        }
        // Landmarks first, then the collections they belong to; at most 20 results.
        let results = try await modelData.search(matching: pixelBuffer)
        return Array(results.prefix(20))
    }
}
