import Foundation
public import GlimpseWire
import NIOCore
import NIOHTTP1

/// The catalog-edit routes (docs/api.md, "Editing the catalog"), as `glimpse catalog --socket` uses them.
///
/// Each edit takes an optional precondition: `ifMatch` is a revision the entity must still have (or
/// `"*"`: it must exist), `ifNoneMatch: "*"` asks that it does not exist yet. A failed precondition is
/// ``GlimpseClientError/server(status:code:message:)`` with status 412. An edit the daemon stored but
/// does not serve yet (`202 Accepted`) returns its result with ``EditResultJSON/pending`` saying why:
/// it is durable, and sending it again would repeat it. A `503 store_unavailable` changed nothing.
extension GlimpseConnection {
    /// A precondition on an edit, sent as `If-Match` / `If-None-Match`.
    public enum EditPrecondition: Sendable, Equatable {
        /// No precondition: the edit applies whatever is stored.
        case none
        /// `If-Match: *`: the entity must exist.
        case exists
        /// `If-None-Match: *`: the entity must not exist yet.
        case absent
        /// `If-Match: "N"`: the entity must still be at revision `N`.
        case revision(Int64)

        var headers: [(String, String)] {
            switch self {
            case .none: []
            case .exists: [("If-Match", "*")]
            case .absent: [("If-None-Match", "*")]
            case .revision(let revision): [("If-Match", "\"\(revision)\"")]
            }
        }
    }

    /// `GET /v1/catalog`: where the daemon's catalog lives and which state it serves.
    public func catalogInfo() async throws -> CatalogInfoJSON {
        try await send(method: .GET, target: "/v1/catalog").decode(CatalogInfoJSON.self)
    }

    /// `GET /v1/places/{id}`: the place as stored, with its revision.
    public func storedPlace(id: String) async throws -> StoredPlaceJSON {
        try await send(method: .GET, target: "/v1/places/" + Self.pathSegment(id)).decode(StoredPlaceJSON.self)
    }

    /// `GET /v1/collections/{id}`: the collection as stored, with its revision.
    public func storedCollection(id: String) async throws -> StoredCollectionJSON {
        try await send(method: .GET, target: "/v1/collections/" + Self.pathSegment(id))
            .decode(StoredCollectionJSON.self)
    }

    /// `PUT /v1/places/{id}`: creates or replaces a place (and, with `photos`, its photos).
    public func putPlace(
        id: String, _ place: PlaceEditJSON, precondition: EditPrecondition = .none
    ) async throws -> EditResultJSON {
        try await sendJSON(.PUT, "/v1/places/" + Self.pathSegment(id), place, precondition: precondition)
    }

    /// `DELETE /v1/places/{id}`.
    public func deletePlace(id: String, precondition: EditPrecondition = .none) async throws -> EditResultJSON {
        try await send(method: .DELETE, target: "/v1/places/" + Self.pathSegment(id), headers: precondition.headers)
            .decode(EditResultJSON.self)
    }

    /// `POST /v1/places/{id}/photos`: adds a photo (its JPEG or PNG bytes) to a place.
    public func addPhoto(
        placeID: String, image: [UInt8], name: String? = nil, credit: PhotoCredit? = nil,
        precondition: EditPrecondition = .none
    ) async throws -> EditResultJSON {
        var items: [String] = []
        if let name { items.append("name=" + Self.pathSegment(name)) }
        if let credit {
            items += [
                "credit_author=" + Self.pathSegment(credit.author), "credit_license=" + Self.pathSegment(credit.license),
                "credit_source=" + Self.pathSegment(credit.source),
            ]
        }
        let target = "/v1/places/" + Self.pathSegment(placeID) + "/photos"
            + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        return try await send(
            method: .POST, target: target,
            headers: [("Content-Type", "application/octet-stream")] + precondition.headers, body: ByteBuffer(bytes: image)
        ).decode(EditResultJSON.self)
    }

    /// `DELETE /v1/places/{id}/photos/{photo}`: removes one of a place's photos by its id (SHA-256).
    public func removePhoto(
        placeID: String, photoID: String, precondition: EditPrecondition = .none
    ) async throws -> EditResultJSON {
        try await send(
            method: .DELETE, target: "/v1/places/" + Self.pathSegment(placeID) + "/photos/" + Self.pathSegment(photoID),
            headers: precondition.headers
        ).decode(EditResultJSON.self)
    }

    /// `PUT /v1/collections/{id}`: creates or replaces a collection.
    public func putCollection(
        id: String, _ collection: CollectionEditJSON, precondition: EditPrecondition = .none
    ) async throws -> EditResultJSON {
        try await sendJSON(.PUT, "/v1/collections/" + Self.pathSegment(id), collection, precondition: precondition)
    }

    /// `DELETE /v1/collections/{id}`.
    public func deleteCollection(id: String, precondition: EditPrecondition = .none) async throws -> EditResultJSON {
        try await send(
            method: .DELETE, target: "/v1/collections/" + Self.pathSegment(id), headers: precondition.headers
        ).decode(EditResultJSON.self)
    }

    /// `PUT /v1/labels`: replaces the label vocabulary.
    public func putLabels(_ labels: [String], precondition: EditPrecondition = .none) async throws -> EditResultJSON {
        try await sendJSON(.PUT, "/v1/labels", LabelsJSON(labels: labels), precondition: precondition)
    }

    private func sendJSON<Body: Encodable>(
        _ method: HTTPMethod, _ target: String, _ body: Body, precondition: EditPrecondition
    ) async throws -> EditResultJSON {
        let bytes = try JSONEncoder().encode(body)
        return try await send(
            method: method, target: target, headers: [("Content-Type", "application/json")] + precondition.headers,
            body: ByteBuffer(bytes: bytes)
        ).decode(EditResultJSON.self)
    }

    /// `text` percent-encoded for one path segment or query value.
    static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
