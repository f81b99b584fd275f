import Foundation
import GlimpseWire
import HTTPTypes
import Hummingbird
import NIOCore

/// The catalog-edit routes (docs/api.md, "Editing the catalog"). Writes are allowed only to the peers
/// the ``EditPolicy`` names and never on a read-only daemon; each write is admitted by the query gate
/// before its body is read (its body counts against the memory budget) and runs on the query threads.
extension APIRoutes {
    /// Adds the catalog routes to `router`.
    func registerCatalogEdits(on router: Router<GlimpseRequestContext>) {
        router.get("/v1/catalog") { _, _ in try await self.catalogInfo() }
        router.get("/v1/places/:id") { _, context in try await self.storedPlace(context: context) }
        router.put("/v1/places/:id") { request, context in try await self.putPlace(request, context: context) }
        router.delete("/v1/places/:id") { request, context in
            try await self.edit(request, context: context, kind: "delete_place", bodyLimit: 0) { editor, id, condition, _ in
                try await editor.deletePlace(id: id, condition: condition)
            }
        }
        router.post("/v1/places/:id/photos") { request, context in try await self.addPhoto(request, context: context) }
        router.delete("/v1/places/:id/photos/:photo") { request, context in
            let photo = try context.parameters.require("photo")
            return try await self.edit(request, context: context, kind: "remove_photo", bodyLimit: 0) { editor, id, condition, _ in
                try await editor.removePhoto(placeID: id, photoID: photo, condition: condition)
            }
        }
        router.get("/v1/collections/:id") { _, context in try await self.storedCollection(context: context) }
        router.put("/v1/collections/:id") { request, context in
            try await self.edit(request, context: context, kind: "put_collection", bodyLimit: 1 << 20) {
                editor, id, condition, body in
                let collection = try Self.decodeJSON(CollectionEditJSON.self, from: body, what: "collection")
                return try await editor.putCollection(id: id, collection, condition: condition)
            }
        }
        router.delete("/v1/collections/:id") { request, context in
            try await self.edit(request, context: context, kind: "delete_collection", bodyLimit: 0) {
                editor, id, condition, _ in try await editor.deleteCollection(id: id, condition: condition)
            }
        }
        router.get("/v1/labels") { _, _ in try await self.labelVocabulary() }
        router.put("/v1/labels") { request, context in
            try await self.edit(request, context: context, kind: "put_labels", bodyLimit: 1 << 20, id: nil) {
                editor, _, condition, body in
                let labels = try Self.decodeJSON(LabelsJSON.self, from: body, what: "label vocabulary")
                return try await editor.putLabels(labels.labels, condition: condition)
            }
        }
    }

    // MARK: - Reading

    private func requireEditor() throws -> any CatalogEditService {
        guard let editor else {
            throw APIError(
                .notFound, code: "no_catalog_store",
                message: "this daemon serves a catalog folder, which has no stored revisions and cannot be edited; "
                    + "serve a catalog store (glimpse serve --store FILE) to edit it")
        }
        return editor
    }

    private func catalogInfo() async throws -> Response {
        guard let editor else {
            var info = CatalogInfoJSON(
                store: "folder", storeID: nil, sequence: 0, snapshot: service.snapshotID, places: service.placeCount,
                collections: service.collectionCount, photos: service.photoCount, readOnly: true)
            info.printLine = service.printLine
            return try json(info)
        }
        var info = await editor.info()
        info.readOnly = info.readOnly || editPolicy.readOnly
        info.printLine = service.printLine
        return try json(info)
    }

    private func storedPlace(context: GlimpseRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let place = try await requireEditor().place(id: id) else {
            throw APIError.notFound("no_such_entity", "there is no place with id \(id)")
        }
        return try json(place, eTag: place.revision)
    }

    private func storedCollection(context: GlimpseRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let collection = try await requireEditor().collection(id: id) else {
            throw APIError.notFound("no_such_entity", "there is no collection with id \(id)")
        }
        return try json(collection, eTag: collection.revision)
    }

    private func labelVocabulary() async throws -> Response {
        let labels = try await requireEditor().labels()
        return try json(labels, eTag: labels.revision)
    }

    // MARK: - Writing

    private func putPlace(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        try await edit(request, context: context, kind: "put_place", bodyLimit: limits.maxBodyBytes) {
            editor, id, condition, body in
            let place = try Self.decodeJSON(PlaceEditJSON.self, from: body, what: "place")
            let photos = try place.photos.map { uploads in
                try uploads.enumerated().map { index, upload in
                    guard let bytes = Data(base64Encoded: upload.data) else {
                        throw APIError.badRequest(
                            "bad_photo_data", "photos[\(index)].data is not base64; encode the photo's bytes (RFC 4648)")
                    }
                    return PhotoUpload(bytes: Array(bytes), name: upload.name, credit: upload.credit)
                }
            }
            return try await editor.putPlace(id: id, place, photos: photos, condition: condition)
        }
    }

    private func addPhoto(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        try checkImageContentType(request)
        let name = try QueryParameter.single("name", of: request)
        let author = try QueryParameter.single("credit_author", of: request)
        let license = try QueryParameter.single("credit_license", of: request)
        let source = try QueryParameter.single("credit_source", of: request)
        let credit = author == nil && license == nil && source == nil
            ? nil : PhotoCredit(author: author ?? "", license: license ?? "", source: source ?? "")
        return try await edit(request, context: context, kind: "add_photo", bodyLimit: limits.maxBodyBytes, bodyKind: .image) {
            editor, id, condition, body in
            guard !body.isEmpty else {
                throw APIError.badRequest("empty_body", "the request body is empty; send the bytes of a JPEG or PNG photo")
            }
            return try await editor.addPhoto(
                placeID: id, PhotoUpload(bytes: body, name: name, credit: credit), condition: condition)
        }
    }

    /// One write: checks who asks and whether the daemon takes edits, parses the precondition, admits the
    /// request through the query gate before reading its body (at most `bodyLimit` bytes of `bodyKind`, which
    /// says what to send instead of a body over the limit), then runs
    /// `perform` on the query threads and answers its outcome (`201` when it created the entity, else
    /// `200`, with the entity's revision as `ETag`; `202` when the edit is stored but not served yet).
    func edit(
        _ request: Request, context: GlimpseRequestContext, kind: String, bodyLimit: Int,
        bodyKind: APIError.BodyAdvice = .json, id requiresID: Bool? = true,
        _ perform: @escaping @Sendable (any CatalogEditService, String, EditCondition, [UInt8]) async throws -> EditOutcome
    ) async throws -> Response {
        let start = ContinuousClock.now
        let metrics = self.metrics
        do {
            let editor = try requireEditor()
            try await authorizeEdit(request, context: context)
            let id = requiresID == nil ? "" : try context.parameters.require("id")
            let condition = try Self.editCondition(request)
            let declared = try declaredLength(request)
            if bodyLimit == 0, (declared ?? 0) > 0 {
                throw APIError.badRequest("unexpected_body", "this request takes no body")
            }
            if let declared, declared > bodyLimit {
                throw APIError.bodyTooLarge(limit: bodyLimit, declared: declared, advice: bodyKind)
            }
            let admission = try gate.admit(bytes: bodyLimit == 0 ? 0 : declared ?? bodyLimit)
            defer { admission.release() }
            let body = request.body
            let outcome = try await admission.cancellingOnStop {
                let bytes = bodyLimit == 0 ? [] : try await Self.readBody(body, declared: declared, limit: bodyLimit, advice: bodyKind)
                admission.reduceReservation(to: bytes.count)
                return try await admission.run { try await perform(editor, id, condition, bytes) }
            }
            metrics.recordEdit(
                kind: kind, outcome: !outcome.served ? "stored_not_served" : outcome.result.changed ? "applied" : "unchanged")
            if outcome.result.changed {
                let info = await editor.info()
                metrics.setCatalog(
                    places: info.places, collections: info.collections, photos: info.photos, sequence: info.sequence)
            }
            var response = try json(outcome.result, eTag: outcome.revision)
            if !outcome.served {
                // Stored, not served yet: sending it again would repeat it.
                response.status = .accepted
            } else if outcome.created {
                response.status = .created
            }
            if let visible = outcome.commitToVisible {
                metrics.recordEditTimes(visible: visible, total: ContinuousClock.now - start)
            }
            return response
        } catch {
            metrics.recordEdit(kind: kind, outcome: APIMiddleware.apiError(for: error).code)
            throw error
        }
    }

    /// Refuses a write on a read-only daemon, from a peer the edit policy does not name (Unix socket), or
    /// without the admin token (TCP).
    private func authorizeEdit(_ request: Request, context: GlimpseRequestContext) async throws {
        if editPolicy.readOnly {
            throw APIError(
                .forbidden, code: "read_only",
                message: "this daemon is read-only (--read-only); send edits to a daemon that takes them")
        }
        if case .http(let http) = listener {
            try Self.authorizeBearer(request, token: http.adminToken)
            return
        }
        let peer = await PeerCredentials.of(context.channel)
        guard editPolicy.admins.allows(peer) else {
            throw APIError(
                .forbidden, code: "not_an_admin",
                message: "\(peer.map { "the peer \($0)" } ?? "a peer with unknown credentials") may not edit the "
                    + "catalog; start the daemon with --admin-uid or --admin-gid naming it")
        }
    }

    /// Refuses an edit over TCP: always without a configured token (`403 edits_need_token`); with one,
    /// when the request carries none (`401 unauthorized`, with `WWW-Authenticate`) or another
    /// (`403 bad_token`).
    static func authorizeBearer(_ request: Request, token: AdminToken?) throws {
        guard let token else {
            throw APIError(
                .forbidden, code: "edits_need_token",
                message: "the HTTP listener is read-only: edit over the Unix socket, or start the daemon with "
                    + "--admin-token-file and send Authorization: Bearer TOKEN")
        }
        guard let header = request.headers[.authorization] else {
            throw APIError(
                .unauthorized, code: "unauthorized",
                message: "an edit over HTTP needs Authorization: Bearer TOKEN, with the daemon's admin token",
                headers: [.wwwAuthenticate: "Bearer realm=\"glimpse\""])
        }
        guard token.authorizes(header: header) else {
            throw APIError(.forbidden, code: "bad_token", message: "the bearer token is not the daemon's admin token")
        }
    }

    /// The request's `If-Match` / `If-None-Match` precondition.
    static func editCondition(_ request: Request) throws -> EditCondition {
        if let match = request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces) {
            if match == "*" { return .exists }
            var tag = Substring(match)
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            guard tag.count >= 3, tag.first == "\"", tag.last == "\"", let revision = Int64(tag.dropFirst().dropLast()),
                  revision >= 0
            else {
                throw APIError.badRequest(
                    "bad_precondition", "If-Match is \(match); send the entity's ETag (a quoted revision such as \"3\") or *")
            }
            return .revision(revision)
        }
        if let noneMatch = request.headers[.ifNoneMatch]?.trimmingCharacters(in: .whitespaces) {
            guard noneMatch == "*" else {
                throw APIError.badRequest(
                    "bad_precondition", "If-None-Match on an edit takes only *, meaning: only if it does not exist yet")
            }
            return .absent
        }
        return .none
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, from body: [UInt8], what: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as BoundedList {
            // Well-formed JSON whose list the catalog's rule refuses: the answer the rule gives after decoding.
            throw APIError(.unprocessableContent, code: "invalid_edit", message: "the \(what) is refused: \(error.sentence)")
        } catch {
            throw APIError.badRequest("bad_json", "the body is not a valid \(what) (docs/api.md): \(DecodingProblem.sentence(for: error))")
        }
    }

    /// `value` as JSON with `ETag: "revision"` when a revision is given.
    func json(_ value: some Encodable, eTag revision: Int64?) throws -> Response {
        var response = try json(value)
        if let revision { response.headers[.eTag] = "\"\(revision)\"" }
        return response
    }
}
