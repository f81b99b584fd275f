import GlimpseFiles
import GlimpseStore
import GlimpseVision

// The engine's edge of the catalog store: stores keep features in their stored coding
// (`EncodedFeatures`, without importing the matcher); the engine reads them here.

extension StoredPhoto {
    /// The photo's stored features, read; `nil` when it carries none.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` naming the photo when the stored bytes are damaged.
    func decodedFeatures() throws(StoreError) -> ImageFeatures? {
        guard let features else { return nil }
        let path = "features of photo \(sha256)"
        do throws(VisionError) {
            return try features.decoded(path: path)
        } catch {
            throw .corrupt(path: path, reason: error.description)
        }
    }
}

extension ReferencePhoto {
    /// The matcher's reference for a catalog photo given as place id and absolute path
    /// (``CatalogTransfer/importFolder(_:into:replace:featuresKey:features:)`` lists them so).
    init(_ photo: (placeID: String, path: String)) {
        self.init(id: photo.placeID, path: photo.path)
    }
}
