import Foundation
import GlimpseCatalog
public import GlimpseEngine
public import GlimpseImage
import GlimpseStore
public import GlimpseWire
import HTTPTypes

/// The daemon's ``CatalogEditService``: edits from the wire to a ``LiveCatalog``.
///
/// Photos are decoded (with the daemon's limits) and their features extracted here, on the query
/// thread the route runs on and before the edit queue, so a slow photo never holds up other edits;
/// only the store's commit and the engine's update run one edit at a time.
public struct LiveCatalogEditService: CatalogEditService {
    /// The catalog edited.
    public let live: LiveCatalog
    /// What the store is (`sqlite`, `postgres`), for `GET /v1/catalog`.
    public let storeKind: String
    /// The decoding limits photos are held to (the daemon's pixel and byte limits).
    public let limits: DecodingLimits

    /// Edits `live`, decoding photos within `limits`.
    public init(live: LiveCatalog, storeKind: String, limits: DecodingLimits) {
        self.live = live
        self.storeKind = storeKind
        self.limits = limits
    }

    /// The longest id accepted.
    static let maxIDLength = 128

    // MARK: - Reading

    /// Where the catalog lives and which state is served (``CatalogEditService/info()``).
    public func info() async -> CatalogInfoJSON {
        let generation = live.engine.current
        let catalog = generation.catalog
        return CatalogInfoJSON(
            store: storeKind, storeID: live.storeID, sequence: await live.sequence, snapshot: generation.snapshot.id,
            places: catalog.places.count, collections: catalog.collections.count,
            photos: catalog.places.reduce(0) { $0 + $1.photos.count }, readOnly: false,
            storeProblem: await live.healthProblem)
    }

    /// Why edits cannot be stored now, or `nil` (``CatalogEditService/storeProblem()``).
    public func storeProblem() async -> String? {
        await live.healthProblem
    }

    /// The picture of a place or collection whose picture is a stored photo, read from the store (see
    /// ``LiveCatalog/storedPhotoBytes(atPath:)``); `nil` when it has none.
    public func entityImage(type: String, id: String) async throws -> EntityImage? {
        guard let path = try CatalogSearchService.picturePath(in: live.engine.catalog, type: type, id: id),
              let bytes = try await live.storedPhotoBytes(atPath: path)
        else { return nil }
        return EntityImage(bytes: bytes)
    }

    /// The place as stored, or `nil`.
    public func place(id: String) async throws -> StoredPlaceJSON? {
        await live.place(id: id).map(Self.json)
    }

    /// The collection as stored, or `nil`.
    public func collection(id: String) async throws -> StoredCollectionJSON? {
        guard let stored = await live.collection(id: id) else { return nil }
        return json(stored)
    }

    /// The label vocabulary and its revision.
    public func labels() async throws -> LabelsJSON {
        let (labels, revision) = await live.labels
        return LabelsJSON(labels: labels, revision: revision)
    }

    // MARK: - Editing

    /// Creates or replaces a place: decodes and extracts the uploaded photos, then applies the edit.
    public func putPlace(
        id: String, _ place: PlaceEditJSON, photos: [PhotoUpload]?, condition: EditCondition
    ) async throws -> EditOutcome {
        try Self.checkID(id, kind: "place")
        let definition = PlaceDefinition(id: id, fields: place.fields, photos: [])
        // Cheap refusals first, before any photo is decoded.
        do throws(CatalogError) { try CatalogText.checkPlace(definition, offset: 0) } catch { throw StoreError.invalidCatalog(error) }
        if let photos { try Self.checkUploads(photos, placeID: id) }
        let made = try photos?.enumerated().map { index, upload in
            try newPhoto(upload, placeID: id, what: "photos[\(index)]")
        }
        return try await apply(.putPlace(definition, photos: made, precondition: condition.store), place: id)
    }

    /// Deletes a place.
    public func deletePlace(id: String, condition: EditCondition) async throws -> EditOutcome {
        try await apply(.deletePlace(id: id, precondition: condition.store), place: id)
    }

    /// Adds a photo to a place, decoded and extracted first.
    public func addPhoto(placeID: String, _ photo: PhotoUpload, condition: EditCondition) async throws -> EditOutcome {
        let made = try newPhoto(photo, placeID: placeID, what: "the photo")
        return try await apply(.addPhoto(placeID: placeID, photo: made, precondition: condition.store), place: placeID)
    }

    /// Removes one of a place's photos by its SHA-256.
    public func removePhoto(placeID: String, photoID: String, condition: EditCondition) async throws -> EditOutcome {
        try await apply(.removePhoto(placeID: placeID, sha256: photoID, precondition: condition.store), place: placeID)
    }

    /// Creates or replaces a collection.
    public func putCollection(
        id: String, _ collection: CollectionEditJSON, condition: EditCondition
    ) async throws -> EditOutcome {
        try Self.checkID(id, kind: "collection")
        let definition = CollectionDefinition(id: id, name: collection.name, summary: collection.summary)
        return try await apply(
            .putCollection(definition, members: collection.places, precondition: condition.store), collection: id)
    }

    /// Deletes a collection.
    public func deleteCollection(id: String, condition: EditCondition) async throws -> EditOutcome {
        try await apply(.deleteCollection(id: id, precondition: condition.store), collection: id)
    }

    /// Replaces the label vocabulary.
    public func putLabels(_ labels: [String], condition: EditCondition) async throws -> EditOutcome {
        try await apply(.setLabels(labels, precondition: condition.store))
    }

    // MARK: - Parts

    /// Applies `edit` and answers with the place or collection it names as stored afterwards.
    private func apply(_ edit: CatalogEdit, place: String? = nil, collection: String? = nil) async throws -> EditOutcome {
        let existed: Bool
        if let place { existed = await live.place(id: place) != nil } else if let collection {
            existed = await live.collection(id: collection) != nil
        } else {
            existed = true
        }
        let outcome = try await live.apply(edit)
        var result = EditResultJSON(
            sequence: outcome.applied.sequence, snapshot: outcome.snapshotID, changed: outcome.applied.changed,
            pending: outcome.notServed.map { "the edit is stored but not served yet: \($0); this daemon serves it "
                + "once it catches up with the store (do not send it again)" })
        var revision: Int64?
        var exists = existed
        // A stored edit not served yet is answered with the entity as the store holds it now.
        let applied = outcome.applied
        if let place {
            let stored: StoredPlace?
            if outcome.notServed == nil { stored = await live.place(id: place) } else { stored = applied.places[place].flatMap { $0 } }
            result.place = stored.map(Self.json)
            revision = stored?.revision
            exists = stored != nil
        } else if let collection {
            let stored: StoredCollection?
            if outcome.notServed == nil {
                stored = await live.collection(id: collection)
            } else {
                stored = applied.collections[collection].flatMap { $0 }
            }
            result.collection = stored.map(json)
            revision = stored?.revision
            exists = stored != nil
        } else if outcome.notServed != nil, let labels = applied.labels {
            result.labels = labels
            revision = applied.sequence
        } else {
            let (labels, labelsRevision) = await live.labels
            result.labels = labels
            revision = labelsRevision
        }
        return EditOutcome(
            result: result, created: !existed && exists && outcome.applied.changed, revision: revision,
            commitToVisible: outcome.commitToVisible)
    }

    /// Decodes and extracts an uploaded photo, naming it `photos/<place>-<hash>.<jpg|png>` unless named.
    private func newPhoto(_ upload: PhotoUpload, placeID: String, what: String) throws -> NewPhoto {
        do throws(APIError) {
            // As on the query route: a JPEG declaring a side over the limit is 413, before decoding.
            try APIRoutes.checkDeclaredJPEGSize(upload.bytes, limits: limits)
        } catch {
            var refused = error
            refused.message = "\(what): " + refused.message
            throw refused
        }
        do {
            var photo = try live.newPhoto(
                bytes: upload.bytes, name: upload.name ?? "", credit: upload.credit, limits: limits)
            if upload.name == nil || upload.name?.isEmpty == true {
                let ext = ImageDecoder.format(of: upload.bytes) == .png ? "png" : "jpg"
                photo.name = "photos/\(placeID)-\(photo.sha256.prefix(12)).\(ext)"
            }
            return photo
        } catch let error as ImageDecodingError {
            var rejected = APIError.imageRejected(error)
            rejected.message = "\(what): " + rejected.message
            throw rejected
        } catch {
            throw APIError(.unprocessableContent, code: "bad_image", message: "\(what): \(error)")
        }
    }

    /// Refuses more photos than a place may have, and the same bytes twice, before any is decoded.
    static func checkUploads(_ photos: [PhotoUpload], placeID: String) throws {
        if photos.count > CatalogLimits.photosPerPlace {
            throw StoreError.invalid(reason: "place '\(placeID)' would have \(photos.count) photos; "
                + "at most \(CatalogLimits.photosPerPlace) are allowed")
        }
        let bySize = Dictionary(grouping: photos.indices, by: { photos[$0].bytes.count })
        for indices in bySize.values where indices.count > 1 {
            for (offset, first) in indices.enumerated() {
                for second in indices[(offset + 1)...] where photos[first].bytes == photos[second].bytes {
                    throw StoreError.invalid(
                        reason: "place '\(placeID)' lists the same photo twice (photos[\(first)] and photos[\(second)]); list each once")
                }
            }
        }
    }

    /// Refuses an id that is not kebab-case (`a-z`, `0-9`, `-`), empty, or over ``maxIDLength``.
    static func checkID(_ id: String, kind: String) throws {
        let valid = !id.isEmpty && id.utf8.count <= maxIDLength && !id.hasPrefix("-") && !id.hasSuffix("-")
            && id.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2d }
        guard valid else {
            throw APIError(
                .unprocessableContent, code: "invalid_edit",
                message: "\(kind) id '\(id.prefix(64))' is not kebab-case; use a-z, 0-9 and -, at most \(maxIDLength) "
                    + "characters, such as harbour-crane")
        }
    }

    static func json(_ place: StoredPlace) -> StoredPlaceJSON {
        StoredPlaceJSON(
            place.definition,
            photos: place.photos.map { StoredPhotoJSON(id: $0.sha256, name: $0.name, bytes: $0.byteCount, credit: $0.credit) },
            revision: place.revision)
    }

    /// A collection as stored, with the places that list it in the served catalog.
    func json(_ collection: StoredCollection) -> StoredCollectionJSON {
        let d = collection.definition
        return StoredCollectionJSON(
            id: d.id, name: d.name, summary: d.summary,
            places: live.engine.catalog.collection(id: d.id)?.places ?? [], revision: collection.revision)
    }
}

extension EditCondition {
    /// The store's form of the precondition.
    var store: Precondition {
        switch self {
        case .none: .none
        case .exists: .mustExist
        case .absent: .mustNotExist
        case .revision(let revision): .revision(revision)
        }
    }
}
