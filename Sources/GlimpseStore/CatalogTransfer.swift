import GlimpseCatalog
public import GlimpseFiles
import Foundation
import GlimpseWire

/// Moves whole catalogs between a catalog folder (`catalog.json` and its photos) and a store.
public enum CatalogTransfer {
    /// Imports the catalog folder `directory` (validated by ``Catalog/load(directory:checkPhotos:)``) in
    /// one transaction: into an empty store, or replacing everything with `replace`.
    ///
    /// - Parameters:
    ///   - features: the features of the catalog's photos in their stored coding, given the photos in
    ///     catalog order (each place's photos in order) as place id and absolute path, as GlimpseVision's
    ///     `ReferenceLoader.load(photos:configuration:cachePath:cacheIsOptional:threads:printer:)` takes
    ///     them; it must return one entry per photo, in the same order. Its error's description becomes
    ///     the reason of ``StoreError/invalid(reason:)``.
    ///   - featuresKey: the key those features were made under.
    /// - Throws: ``StoreError/invalidCatalog(_:)`` when the folder does not validate,
    ///   ``StoreError/conflict(reason:)`` when the store is not empty and `replace` is false.
    @discardableResult
    public static func importFolder<Failure: Error>(
        _ directory: String, into store: some CatalogStore, replace: Bool = false, featuresKey: String,
        features: ([(placeID: String, path: String)]) throws(Failure) -> [EncodedFeatures]
    ) async throws(StoreError) -> AppliedEdit {
        let catalog: Catalog
        do throws(CatalogError) {
            catalog = try Catalog.load(directory: directory)
        } catch {
            throw .invalidCatalog(error)
        }
        let references = catalog.places.flatMap { place in place.photos.map { (placeID: place.id, path: $0.path) } }
        let extracted: [EncodedFeatures]
        do throws(Failure) {
            extracted = try features(references)
        } catch {
            throw .invalid(reason: String(describing: error))
        }
        guard extracted.count == references.count else {
            throw .invalid(reason: "\(references.count) photos but features for \(extracted.count)")
        }
        var next = 0
        var photos: [[NewPhoto]] = []
        photos.reserveCapacity(catalog.definition.places.count)
        for (place, entity) in zip(catalog.definition.places, catalog.places) {
            var placePhotos: [NewPhoto] = []
            for (photo, file) in zip(place.photos, entity.photos) {
                let bytes: [UInt8]
                do throws(FileError) {
                    bytes = try AtomicFile.readAll(file.path)
                } catch {
                    throw .io(path: file.path, reason: error.reason)
                }
                placePhotos.append(NewPhoto(
                    bytes: bytes, name: photo.image, credit: photo.credit, features: extracted[next],
                    featuresKey: featuresKey))
                next += 1
            }
            photos.append(placePhotos)
        }
        return try await store.apply(.replaceCatalog(catalog.definition, photos: photos, replace: replace))
    }

    /// Writes the store's catalog to `directory`: `catalog.json` (pretty, sorted keys) and every photo,
    /// byte for byte, under its stored name.
    ///
    /// The catalog is read first and the photos after it, so a daemon editing the same store meanwhile
    /// can remove a photo between the two. Then the export starts again from a fresh read (at most
    /// `attempts` reads in all), and photo files an earlier attempt wrote that the final catalog no longer
    /// names are removed: the folder ends as one state of the store, never a mix.
    ///
    /// - Returns: the number of places and photo files written.
    /// - Throws: ``StoreError/notFound(type:id:)`` for a photo still missing after `attempts` reads (the
    ///   store is being edited faster than it can be exported: try again when it is quieter), or another
    ///   ``StoreError`` of the store or the folder.
    @discardableResult
    public static func export(
        from store: some CatalogStore, to directory: String, attempts: Int = 3
    ) async throws(StoreError) -> (places: Int, photos: Int) {
        var ours = Set<String>()  // photo files this export has written, in any attempt
        var attempt = 1
        while true {
            let stored = try await store.read(featuresKey: nil)
            var written = Set<String>()
            do throws(StoreError) {
                for place in stored.places {
                    for photo in place.photos where written.insert(photo.name).inserted {
                        let bytes = try await store.photoBytes(sha256: photo.sha256)
                        try write(bytes, to: directory + "/" + photo.name)
                        ours.insert(photo.name)
                    }
                }
            } catch .notFound where attempt < attempts {
                attempt += 1  // removed by an edit after the read: read the catalog again
                continue
            }
            for name in ours.subtracting(written) { try remove(directory + "/" + name) }
            try writeDefinition(stored.definition, to: directory)
            return (stored.places.count, written.count)
        }
    }

    private static func writeDefinition(_ definition: CatalogDefinition, to directory: String) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(definition)
        } catch {
            throw .io(path: directory, reason: "cannot encode the catalog: \(error)")
        }
        try write(Array(json) + [0x0A], to: directory + "/" + Catalog.fileName)
    }

    private static func remove(_ path: String) throws(StoreError) {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch CocoaError.fileNoSuchFile {
            return
        } catch {
            throw .io(path: path, reason: "cannot remove a photo an earlier read named: \(error.localizedDescription)")
        }
    }

    private static func write(_ bytes: [UInt8], to path: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw .io(path: path, reason: "cannot create its folder: \(error.localizedDescription)")
        }
        do throws(FileError) {
            try AtomicFile.replace(path, with: bytes)
        } catch {
            throw .io(path: path, reason: error.reason)
        }
    }
}
