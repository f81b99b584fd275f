import Foundation
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseStorePostgres
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseVision
import GlimpseWire
import Testing

/// The store backends every edit test runs on.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }
}

/// Small synthetic photos and stores for the store tests.
enum StoreFixtures {
    /// Features that are cheap to make and compare: `n` keypoints, one feature print when `prints`.
    static func features(_ n: Int, seed: Float = 1) -> ImageFeatures {
        let keypoints = (0..<n).map { i in
            Keypoint(x: Float(i) * seed, y: Float(i) + 0.5, scale: 1, angle: 0.25, response: Float(n - i), level: 0)
        }
        return ImageFeatures(width: 64, height: 48, keypoints: keypoints,
                             descriptorWords: (0..<(4 * n)).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 })
    }

    static let key = "test-key"

    /// A photo whose bytes are `tag` repeated (not a real image: the store keeps bytes as they are).
    static func photo(_ tag: String, name: String? = nil) -> NewPhoto {
        NewPhoto(bytes: Array(repeating: Array(tag.utf8), count: 50).flatMap { $0 }, name: name ?? "photos/\(tag).jpg",
                 credit: PhotoCredit(author: "A. \(tag)", license: "CC0", source: "test"),
                 features: EncodedFeatures(features(3)), featuresKey: key)
    }

    static func place(_ id: String, labels: [String] = [], collections: [String] = []) -> PlaceDefinition {
        PlaceDefinition(id: id, name: "Place \(id)", kind: "landmark", region: "Testland", labels: labels,
                        collections: collections, photos: [])
    }

    /// A new SQLite store in a new temporary folder.
    static func sqliteStore() throws -> (TemporaryDirectory, SQLiteCatalogStore) {
        let folder = try TemporaryDirectory()
        return (folder, try SQLiteCatalogStore.open(path: folder.file("catalog.sqlite"), create: true))
    }

    /// A new, empty store on `backend`, and what must live as long as it (its folder).
    static func store(_ backend: Backend) async throws -> (any Sendable, any CatalogStore) {
        switch backend {
        case .sqlite: return try sqliteStore()
        case .postgres: return ((), try await PostgresFixtures.store())
        }
    }

    /// A store with labels `water`, `stone`, a collection `old` and places `a` (listing `old`) and `b`.
    static func seeded(_ backend: Backend) async throws -> (any Sendable, any CatalogStore) {
        let (keep, store) = try await store(backend)
        try await seed(store)
        return (keep, store)
    }

    /// ``seeded(_:)`` on SQLite.
    static func seededSQLite() async throws -> (TemporaryDirectory, SQLiteCatalogStore) {
        let (folder, store) = try sqliteStore()
        try await seed(store)
        return (folder, store)
    }

    private static func seed(_ store: some CatalogStore) async throws {
        _ = try await store.apply(.setLabels(["water", "stone"], precondition: .none))
        _ = try await store.apply(.putCollection(
            CollectionDefinition(id: "old", name: "Old", summary: "Old places."), members: nil, precondition: .none))
        _ = try await store.apply(.putPlace(place("a", labels: ["stone"], collections: ["old"]),
                                            photos: [photo("a1")], precondition: .none))
        _ = try await store.apply(.putPlace(place("b", labels: ["water"]), photos: [photo("b1")], precondition: .none))
    }
}
