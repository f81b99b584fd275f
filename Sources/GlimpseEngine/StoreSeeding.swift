import GlimpseCatalog
import GlimpseFiles
public import GlimpseStore
import GlimpseVision
import Foundation

/// How a store starts from a catalog folder: the folder is the exchange format, the store the live
/// catalog. `glimpse serve --catalog DIR` seeds its store from DIR this way.
public enum StoreSeeding {
    /// What seeding did.
    public enum Outcome: Sendable, Equatable {
        /// The store was empty and now holds the folder's catalog.
        case imported(sequence: Int64)
        /// The store held the folder's earlier contents, unedited since; it now holds the folder's current ones.
        case reimported(sequence: Int64)
        /// The store already holds the folder's catalog; nothing was written.
        case upToDate
        /// The store was edited since it was seeded (or is not the folder's own and holds a catalog); it is
        /// served as it is (the folder is not read again).
        case storeEdited(sequence: Int64)
    }

    /// Makes `store` hold the catalog of `directory` unless it was edited since it was last seeded:
    /// an empty store imports the folder; with `refresh`, a store whose last change is an import and whose
    /// catalog differs from the folder's (fields, credits, photo names and sizes) imports it again,
    /// replacing what it held; an edited store is left alone. (`refresh` is for the store kept for the
    /// folder; a store named by the user is only ever filled when empty.)
    ///
    /// Photo features come from the feature cache `featureCache` when it is valid, else are extracted on
    /// all cores with `models`.
    ///
    /// - Throws: `StoreError` when the folder is not a valid catalog or the store cannot be written.
    public static func seed(
        _ store: any CatalogStore, from directory: String, refresh: Bool, models: EngineModels, featureCache: String?
    ) async throws(StoreError) -> Outcome {
        let stored = try await store.read(featuresKey: nil)
        if !stored.places.isEmpty || !stored.collections.isEmpty || stored.sequence > 0 {
            guard refresh else { return .storeEdited(sequence: stored.sequence) }
            let lastChange = try await store.changes(after: max(0, stored.sequence - 1)).last
            guard lastChange?.kind == "replaceCatalog" else { return .storeEdited(sequence: stored.sequence) }
            let folder: Catalog
            do throws(CatalogError) { folder = try Catalog.load(directory: directory) } catch {
                throw .invalidCatalog(error)
            }
            if holdsSame(stored, as: folder) { return .upToDate }
            let applied = try await importFolder(directory, into: store, replace: true, models: models, featureCache: featureCache)
            return .reimported(sequence: applied.sequence)
        }
        let applied = try await importFolder(directory, into: store, replace: false, models: models, featureCache: featureCache)
        return .imported(sequence: applied.sequence)
    }

    /// Imports the catalog folder `directory` into `store` in one transaction (see
    /// `CatalogTransfer.importFolder(_:into:replace:featuresKey:features:)`), features from the
    /// feature cache when valid, else extracted on all cores with `models`.
    public static func importFolder(
        _ directory: String, into store: any CatalogStore, replace: Bool, models: EngineModels, featureCache: String?
    ) async throws(StoreError) -> AppliedEdit {
        let vision = models.vision, printer = models.featurePrinter
        return try await CatalogTransfer.importFolder(
            directory, into: store, replace: replace, featuresKey: models.featuresKey
        ) { (photos) throws(VisionError) in
            try ReferenceLoader.load(
                photos: photos.map(ReferencePhoto.init), configuration: vision, cachePath: featureCache, cacheIsOptional: true,
                threads: ProcessInfo.processInfo.activeProcessorCount, printer: printer
            ).references.map { EncodedFeatures($0.features) }
        }
    }

    /// Whether `stored` holds what the folder catalog `folder` holds: the same definition (fields,
    /// credits, photo names) and photo files of the stored sizes.
    static func holdsSame(_ stored: StoredCatalog, as folder: Catalog) -> Bool {
        guard stored.definition == folder.definition, stored.places.count == folder.places.count else { return false }
        for (place, entity) in zip(stored.places, folder.places) {
            guard place.photos.count == entity.photos.count else { return false }
            for (photo, file) in zip(place.photos, entity.photos) {
                var info = stat()
                guard stat(file.path, &info) == 0, Int(info.st_size) == photo.byteCount else { return false }
            }
        }
        return true
    }
}
