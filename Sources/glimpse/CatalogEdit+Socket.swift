import Foundation
import GlimpseCatalog
import GlimpseClient
import GlimpseStore
import GlimpseWire

/// A `glimpse catalog` edit sent to a running daemon (`--socket`) instead of the store file: the same
/// edit, in the daemon's wire form (docs/api.md, "Editing the catalog"). The daemon decodes the photos
/// and extracts their features itself.
enum SocketEdit {
    /// Sends `edit` to the daemon on `socket` and returns one line saying what it did.
    static func send(_ edit: CatalogEdit, socket: String) async throws -> String {
        let client = GlimpseClient(socketPath: socket)
        let result = try await client.withConnection { connection -> EditResultJSON in
            switch edit {
            case let .putPlace(place, photos, precondition):
                return try await connection.putPlace(
                    id: place.id,
                    PlaceEditJSON(
                        place.fields,
                        photos: photos?.map {
                            PhotoUploadJSON(data: Data($0.bytes).base64EncodedString(), name: $0.name, credit: $0.credit)
                        }),
                    precondition: wire(precondition))
            case let .deletePlace(id, precondition):
                return try await connection.deletePlace(id: id, precondition: wire(precondition))
            case let .addPhoto(placeID, photo, precondition):
                return try await connection.addPhoto(
                    placeID: placeID, image: photo.bytes, name: photo.name, credit: photo.credit,
                    precondition: wire(precondition))
            case let .removePhoto(placeID, sha256, precondition):
                return try await connection.removePhoto(placeID: placeID, photoID: sha256, precondition: wire(precondition))
            case let .putCollection(collection, members, precondition):
                return try await connection.putCollection(
                    id: collection.id, CollectionEditJSON(name: collection.name, summary: collection.summary, places: members),
                    precondition: wire(precondition))
            case let .deleteCollection(id, precondition):
                return try await connection.deleteCollection(id: id, precondition: wire(precondition))
            case let .setLabels(labels, precondition):
                return try await connection.putLabels(labels, precondition: wire(precondition))
            case .replaceCatalog:
                throw GlimpseClientError.server(
                    status: 400, code: "not_over_the_socket",
                    message: "a whole catalog is imported into the store file (glimpse catalog import), not through a daemon")
            }
        }
        guard result.changed else { return "unchanged (sequence \(result.sequence))" }
        var line = "sequence \(result.sequence), snapshot \(result.snapshot)"
        if let place = result.place { line += "; place \(place.id): revision \(place.revision), \(place.photos.count) photos" }
        if let collection = result.collection { line += "; collection \(collection.id): revision \(collection.revision)" }
        if let labels = result.labels { line += "; labels: \(labels.count)" }
        // 202: stored, served once the daemon catches up; sending it again would repeat it.
        if let pending = result.pending { line += "; stored, not served yet: \(pending)" }
        return line
    }

    private static func wire(_ precondition: Precondition) -> GlimpseConnection.EditPrecondition {
        switch precondition {
        case .none: .none
        case .mustExist: .exists
        case .mustNotExist: .absent
        case .revision(let revision): .revision(revision)
        }
    }
}
