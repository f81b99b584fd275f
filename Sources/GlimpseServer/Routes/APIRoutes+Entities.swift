import Foundation
import GlimpseWire
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat

/// The entity routes: text search (`GET /v1/entities?q=`), one entity, its picture, and property
/// queries (`POST /v1/entities/{type}/query`).
extension APIRoutes {
    /// `GET /v1/entities?q=`: places and collections whose text matches.
    func search(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        guard let text = try QueryParameter.single("q", of: request), !text.isEmpty else {
            throw APIError.badRequest("missing_q", "pass the text to look for as ?q=")
        }
        let limit = try limitParameter(request)
        let service = self.service
        let entities = try await runQuery(on: context) { try await service.entities(matching: text, limit: limit) }
        return try json(EntityListJSON(entities: entities))
    }

    /// `GET /v1/entities/{type}/{id}`: one place or collection.
    func entity(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        let type = try context.parameters.require("type")
        let id = try context.parameters.require("id")
        let service = self.service
        let found = try await runQuery(on: context) { try await service.entity(type: type, id: id) }
        guard let found else {
            throw APIError.notFound("no_such_entity", "there is no \(type) with id \(id)")
        }
        return try json(found)
    }

    /// `GET /v1/entities/{type}/{id}/image`: the entity's picture, stored or from the catalog folder, with an `ETag`.
    func entityImage(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        let type = try context.parameters.require("type")
        let id = try context.parameters.require("id")
        let service = self.service, editor = self.editor
        let found = try await runQuery(on: context) { () async throws -> EntityImage? in
            if let stored = try await editor?.entityImage(type: type, id: id) { return stored }
            return try await service.entityImage(type: type, id: id)
        }
        guard let found else {
            throw APIError.notFound("no_such_image", "there is no picture for the \(type) \(id)")
        }
        var headers: HTTPFields = [.eTag: found.eTag, .cacheControl: "no-cache"]
        if let condition = request.headers[.ifNoneMatch], EntityImage.matches(condition, eTag: found.eTag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = found.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: found.bytes)))
    }

    /// `POST /v1/entities/{type}/query`: an `EntityPropertyQuery` sent as JSON.
    func propertyQuery(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        let type = try context.parameters.require("type")
        if let contentType = request.headers[.contentType], !contentType.lowercased().hasPrefix("application/json") {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "the body is \(contentType); send the query as application/json"
            )
        }
        let body = try await collectBody(request, upTo: min(limits.maxBodyBytes, 1 << 20))
        let query: PropertyQueryJSON
        do {
            query = try JSONDecoder().decode(PropertyQueryJSON.self, from: Data(buffer: body))
        } catch {
            throw APIError.badRequest("bad_json", "the query body is not a valid property query: \(DecodingProblem.sentence(for: error))")
        }
        if let limit = query.limit, limit < 1 || limit > limits.maxResultLimit {
            throw APIError.badRequest("bad_limit", "limit must be between 1 and \(limits.maxResultLimit)")
        }
        let service = self.service
        let entities = try await runQuery(on: context) { try await service.entities(type: type, query: query) }
        return try json(EntityListJSON(entities: entities))
    }
}
