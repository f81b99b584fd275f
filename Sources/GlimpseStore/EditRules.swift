public import GlimpseCatalog

/// The checks every store backend runs inside its write transaction, against the state it read there.
package enum EditRules {
    /// Throws ``StoreError/preconditionFailed(type:id:current:)`` unless `precondition` holds at `current`.
    package static func check(
        _ precondition: Precondition, type: String, id: String, current: Int64?
    ) throws(StoreError) {
        guard precondition.holds(current: current) else { throw .preconditionFailed(type: type, id: id, current: current) }
    }

    /// A photo name must be a relative path inside a catalog folder: not empty, not absolute, no `.`,
    /// `..` or empty components (export writes the photo there).
    package static func checkPhotoName(_ name: String, placeID: String) throws(StoreError) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              name.utf8.count <= 1024, name != Catalog.fileName
        else {
            throw .invalid(reason: "place '\(placeID)' has photo name '\(name)'; name it by a relative path "
                + "inside the catalog folder, such as photos/\(placeID).jpg")
        }
    }

    /// Validates one place as ``Catalog`` validates a catalog: id and name set, at least one photo,
    /// labels in `vocabulary`, every listed collection among `collections` (those of the store that the
    /// place lists). Costs the size of the vocabulary and of the place, not of the catalog.
    package static func checkPlace(
        _ place: PlaceDefinition, vocabulary: [String], collections: [CollectionDefinition]
    ) throws(StoreError) {
        for photo in place.photos { try checkPhotoName(photo.image, placeID: place.id) }
        if Set(place.collections).count != place.collections.count {
            throw .invalid(reason: "place '\(place.id)' lists a collection twice; list each once")
        }
        if Set(place.photos.map(\.image)).count != place.photos.count {
            throw .invalid(reason: "place '\(place.id)' names two photos alike; give each photo its own name")
        }
        let single = CatalogDefinition(labels: vocabulary, places: [place], collections: collections)
        do throws(CatalogError) {
            _ = try Catalog(definition: single, directory: "", identity: [], checkPhotos: false) { place, index in place.photos[index].image }
        } catch {
            throw .invalidCatalog(error)
        }
    }

    /// Validates a collection's fields.
    package static func checkCollection(_ collection: CollectionDefinition) throws(StoreError) {
        let single = CatalogDefinition(labels: [], places: [], collections: [collection])
        do throws(CatalogError) {
            _ = try Catalog(definition: single, directory: "", identity: [], checkPhotos: false) { place, index in place.photos[index].image }
        } catch {
            throw .invalidCatalog(error)
        }
    }

    /// Validates a label vocabulary: no empty or repeated label.
    package static func checkLabels(_ labels: [String]) throws(StoreError) {
        if labels.contains("") { throw .invalid(reason: "the label vocabulary holds an empty label; remove it") }
        let single = CatalogDefinition(labels: labels, places: [], collections: [])
        do throws(CatalogError) {
            _ = try Catalog(definition: single, directory: "", identity: [], checkPhotos: false) { place, index in place.photos[index].image }
        } catch {
            throw .invalidCatalog(error)
        }
    }

    /// Validates a whole catalog and its photos for ``CatalogEdit/replaceCatalog(_:photos:replace:)``.
    package static func checkCatalog(_ definition: CatalogDefinition, photos: [[NewPhoto]]) throws(StoreError) {
        guard photos.count == definition.places.count else {
            throw .invalid(reason: "\(definition.places.count) places but photos for \(photos.count)")
        }
        do throws(CatalogError) {
            _ = try Catalog(definition: definition, directory: "", identity: [], checkPhotos: false) { place, index in place.photos[index].image }
        } catch {
            throw .invalidCatalog(error)
        }
        for (place, placePhotos) in zip(definition.places, photos) {
            guard !placePhotos.isEmpty else {
                throw .invalid(reason: "place '\(place.id)' has no photo; give every place at least one")
            }
            for photo in placePhotos { try checkPhotoName(photo.name, placeID: place.id) }
        }
    }
}
