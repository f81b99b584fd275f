import GlimpseCatalog
package import GlimpseWire

/// The checks every store backend runs inside its write transaction, against the state it read there.
package enum EditRules {
    /// Throws ``StoreError/preconditionFailed(type:id:current:)`` unless `precondition` holds at `current`.
    package static func check(
        _ precondition: Precondition, type: String, id: String, current: Int64?
    ) throws(StoreError) {
        guard precondition.holds(current: current) else { throw .preconditionFailed(type: type, id: id, current: current) }
    }

    /// A photo name must be a safe relative path inside a catalog folder, since export writes the photo
    /// there: not empty, not absolute, no `.`, `..` or empty components, no backslash, no component that
    /// starts with `~` or `-` or starts or ends with a space, and no control or bidirectional formatting
    /// character (``CatalogText``).
    package static func checkPhotoName(_ name: String, placeID: String) throws(StoreError) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let safe = !name.isEmpty && !name.hasPrefix("/") && name.utf8.count <= 1024 && name != Catalog.fileName
            && !name.contains("\\") && !name.unicodeScalars.contains { CatalogText.isRefused($0) }
            && !parts.contains { part in
                part.isEmpty || part == "." || part == ".." || part.hasPrefix("~") || part.hasPrefix("-")
                    || part.first?.isWhitespace == true || part.last?.isWhitespace == true || part.utf8.count > 255
            }
        guard safe else {
            let shown = name.unicodeScalars.contains { CatalogText.isRefused($0) } ? "(with unprintable characters)" : "'\(name.prefix(128))'"
            throw .invalid(reason: "place '\(placeID)' has photo name \(shown); name it by a relative path "
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

    /// Validates a put place against the stored state: `photos` are the photos it will have (the new
    /// ones, or the stored ones when the edit gives none), `isNew` whether the place does not exist yet,
    /// `vocabulary` the stored labels and `collections` the stored collections the place lists.
    package static func checkPutPlace(
        _ place: PlaceDefinition, isNew: Bool, photos: [PhotoRow], vocabulary: [String], collections: [CollectionDefinition]
    ) throws(StoreError) {
        guard !photos.isEmpty else {
            throw .invalid(reason: isNew
                ? "new place '\(place.id)' has no photo; give it at least one (--photo)"
                : "place '\(place.id)' would have no photo left; delete the place instead")
        }
        if Set(photos.map(\.sha256)).count != photos.count {
            throw .invalid(reason: "place '\(place.id)' lists the same photo twice; list each once")
        }
        var checked = place
        checked.photos = photos.map { PhotoDefinition(image: $0.name, credit: $0.credit) }
        try checkPlace(checked, vocabulary: vocabulary, collections: collections)
    }

    /// Validates adding `photo` to place `placeID`, whose stored photos are `existing`.
    ///
    /// - Returns: `false` when the place already has these bytes (the edit changes nothing).
    package static func checkAddPhoto(_ photo: NewPhoto, placeID: String, existing: [PhotoRow]) throws(StoreError) -> Bool {
        if existing.contains(where: { $0.sha256 == photo.sha256 }) { return false }
        try checkPhotoName(photo.name, placeID: placeID)
        if existing.contains(where: { $0.name == photo.name }) {
            throw .conflict(reason: "place '\(placeID)' already has a photo named \(photo.name); "
                + "give the new photo another name")
        }
        return true
    }

    /// Validates removing the photo `sha256` from place `placeID`, whose stored photos are `existing`.
    package static func checkRemovePhoto(sha256: String, placeID: String, existing: [PhotoRow]) throws(StoreError) {
        guard existing.contains(where: { $0.sha256 == sha256 }) else {
            throw .notFound(type: "photo of place '\(placeID)'", id: sha256)
        }
        guard existing.count > 1 else {
            throw .conflict(reason: "photo \(sha256) is the last photo of place '\(placeID)'; "
                + "add another first, or delete the place (glimpse catalog delete-place \(placeID))")
        }
    }

    /// The refusal of a photo name that place `holder` already uses for other bytes (export writes one
    /// file per name).
    package static func nameTaken(_ name: String, holder: String) -> StoreError {
        .conflict(reason: "photo name \(name) already names another photo, of place '\(holder)'; give this photo another name")
    }

    /// The places a put collection adds itself to and removes itself from: `members` are the edit's
    /// (`nil`: membership unchanged), `listing` the places that list it now, in order, `missing` the
    /// first member that does not exist.
    package static func membershipChanges(
        members: [String]?, listing: [String], missing: String?
    ) throws(StoreError) -> (adding: [String], removing: [String]) {
        guard let members else { return ([], []) }
        if let missing {
            throw .conflict(reason: "member place '\(missing)' does not exist; create it first or leave it out")
        }
        let wanted = Set(members)
        let current = Set(listing)
        var seen = Set<String>()
        return (members.filter { !current.contains($0) && seen.insert($0).inserted }, listing.filter { !wanted.contains($0) })
    }

    /// The labels of `old` that `new` drops.
    package static func droppedLabels(old: [String], new: [String]) -> [String] {
        let kept = Set(new)
        return old.filter { !kept.contains($0) }
    }

    /// Refuses dropping `label` when places use it (`users`, in order).
    package static func checkUnused(label: String, users: [String]) throws(StoreError) {
        if let first = users.first {
            throw .conflict(reason: "label '\(label)' is used by place '\(first)'"
                + (users.count > 1 ? " and \(users.count - 1) more" : "") + "; remove it from them first")
        }
    }

    /// Refuses filling a store that holds something (`places` places, `collections` collections,
    /// `labels` labels) unless `replace`.
    package static func checkEmpty(replace: Bool, places: Int, collections: Int, labels: Int) throws(StoreError) {
        if !replace, places > 0 || collections > 0 || labels > 0 {
            throw .conflict(reason: "the store already holds a catalog (\(places) places); pass --replace to replace it")
        }
    }

    /// Validates a whole catalog and its photos for ``CatalogEdit/replaceCatalog(_:photos:replace:)``:
    /// the catalog, every place's photos (at least one, none twice, names inside the catalog folder),
    /// and one name per photo across the catalog.
    package static func checkCatalog(_ definition: CatalogDefinition, photos: [[NewPhoto]]) throws(StoreError) {
        try checkCatalogDefinition(definition, photos: photos)
        var names: [String: String] = [:]
        for (place, placePhotos) in zip(definition.places, photos) {
            if Set(placePhotos.map(\.sha256)).count != placePhotos.count {
                throw .invalid(reason: "place '\(place.id)' lists the same photo twice; list each once")
            }
            for photo in placePhotos where names.updateValue(photo.sha256, forKey: photo.name).map({ $0 != photo.sha256 }) == true {
                throw .conflict(reason: "photo name \(photo.name) names two different photos; give each its own name")
            }
        }
    }

    private static func checkCatalogDefinition(_ definition: CatalogDefinition, photos: [[NewPhoto]]) throws(StoreError) {
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
