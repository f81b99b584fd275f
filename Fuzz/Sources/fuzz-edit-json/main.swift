// Feeds the JSON bodies of the daemon's catalog edit routes to a real SQLite store, decoded as the routes
// decode them: a place (PUT /v1/places/{id}, PlaceEditJSON), a collection (PUT /v1/collections/{id},
// CollectionEditJSON) and a label vocabulary (PUT /v1/labels, LabelsJSON). The id is taken from the input's
// first byte (16 places and 16 collections at most); a place's photos are one small fixed photo under the
// names the input gives. Checked after every edit the store accepts: the stored catalog reads back and
// validates as a daemon's start loads it (a store must never hold what it cannot load again: the NUL that
// SQLite cut short did exactly that), and every refusal says what is wrong.
import Foundation
import FuzzSupport
import GlimpseCatalog
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseVision
import GlimpseWire

/// The store every input edits, in a fresh temporary folder.
let store: SQLiteCatalogStore = {
    let folder = NSTemporaryDirectory() + "/glimpse-fuzz-edit-\(getpid())"
    try? FileManager.default.removeItem(atPath: folder)
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try SQLiteCatalogStore.open(path: folder + "/catalog.sqlite", create: true)
        _ = runBlocking { try? await store.apply(.setLabels(["sky", "water", "stone"], precondition: .none)) }
        return store
    } catch {
        fatalError("cannot create the fuzz store: \(error)")
    }
}()

/// Features small enough to store quickly; the store keeps them as they are.
let features = EncodedFeatures(ImageFeatures(width: 8, height: 8, keypoints: [], descriptorWords: []))

/// The photo every place edit carries, under the names the input gives.
let photoBytes: [UInt8] = Array("not decoded by the store".utf8)

/// The first refusal of `edit` by the store, or `nil` when it applied; stops the run when an accepted
/// edit leaves a catalog that does not load.
func apply(_ edit: CatalogEdit) {
    let refusal: StoreError? = runBlocking {
        do throws(StoreError) {
            _ = try await store.apply(edit)
            return nil
        } catch {
            return error
        }
    }
    if let refusal {
        FuzzCheck.require(!refusal.description.isEmpty && !refusal.publicDescription.isEmpty, "a refusal that says nothing")
        return
    }
    let reloaded: String? = runBlocking {
        do {
            _ = try await store.read(featuresKey: nil).catalog(photoFolder: "/nonexistent")
            return nil
        } catch {
            return "\(error)"
        }
    }
    FuzzCheck.require(reloaded == nil, "an accepted edit left a catalog that does not load: \(reloaded ?? "")")
}

FuzzTarget.run { bytes in
    guard let first = bytes.first else { return }
    let body = Data(bytes.dropFirst())
    let id = "entity-\(first % 16)"
    let decoder = JSONDecoder()
    if let place = try? decoder.decode(PlaceEditJSON.self, from: body) {
        let photos = (place.photos ?? []).prefix(4).enumerated().map { index, upload in
            NewPhoto(bytes: photoBytes + [UInt8(index)], name: upload.name ?? "photos/\(id)-\(index).jpg",
                     credit: upload.credit, features: features, featuresKey: "fuzz")
        }
        apply(.putPlace(PlaceDefinition(id: id, fields: place.fields, photos: []),
                        photos: place.photos == nil ? nil : Array(photos), precondition: .none))
    }
    if let collection = try? decoder.decode(CollectionEditJSON.self, from: body) {
        apply(.putCollection(CollectionDefinition(id: id, name: collection.name, summary: collection.summary),
                             members: collection.places, precondition: .none))
    }
    if let labels = try? decoder.decode(LabelsJSON.self, from: body) {
        apply(.setLabels(labels.labels, precondition: .none))
    }
}
