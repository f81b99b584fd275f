import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseVision
import GlimpseWire

/// What a live catalog reads of a store's photos: which carry features and which must be extracted, the
/// places as served without their features, and a store write's failure as a sentence.
extension LiveCatalog {
    /// The photos of `places` that carry features, by reference key (not yet decoded), and those that carry none.
    static func storedFeatures(of places: [StoredPlace], in folder: PhotoFolder) -> (
        carrying: [String: StoredPhoto], missing: [(key: String, placeID: String, path: String, sha256: String)]
    ) {
        var carrying: [String: StoredPhoto] = [:]
        var missing: [(key: String, placeID: String, path: String, sha256: String)] = []
        for place in places {
            for photo in place.photos {
                let path = folder.file(for: photo)
                let key = Catalog.referenceKey(placeID: place.definition.id, photoPath: path)
                if photo.features != nil { carrying[key] = photo } else { missing.append((key, place.definition.id, path, photo.sha256)) }
            }
        }
        return (carrying, missing)
    }

    /// The features `places` carry, by reference key, and the photos that carry none.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` for stored features that are damaged.
    static func knownFeatures(of places: [StoredPlace], in folder: PhotoFolder) throws(StoreError) -> (
        known: [String: ImageFeatures], missing: [(key: String, placeID: String, path: String, sha256: String)]
    ) {
        let (carrying, missing) = storedFeatures(of: places, in: folder)
        var known: [String: ImageFeatures] = [:]
        known.reserveCapacity(carrying.count)
        for (key, photo) in carrying {
            if let made = try photo.decodedFeatures() { known[key] = made }
        }
        return (known, missing)
    }
}

extension StoredPlace {
    /// The same place without its photos' features (the matcher holds those).
    var withoutFeatures: StoredPlace {
        StoredPlace(
            definition: definition, revision: revision,
            photos: photos.map { photo in
                var bare = photo
                bare.features = nil
                return bare
            })
    }
}

extension LiveCatalog {
    /// What `write` throws, as a sentence naming no path, or `nil` when it succeeds.
    static func problem(writing write: () throws(StoreError) -> Void) -> String? {
        do throws(StoreError) {
            try write()
            return nil
        } catch {
            return error.publicDescription
        }
    }
}
