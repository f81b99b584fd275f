#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import GlimpseWire
import Foundation
import GlimpseImage
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat

/// The daemon's routes (documented in docs/api.md, which a test keeps in sync with ``register(on:)``).
struct APIRoutes: Sendable {
    let service: any SearchService
    let gate: QueryGate
    let limits: ServerLimits
    let metrics: ServerMetrics
    /// The catalog edits are made through, `nil` for a catalog folder (edit routes answer `404`/`403`).
    var editor: (any CatalogEditService)? = nil
    /// Who may edit.
    var editPolicy = EditPolicy(admins: PeerPolicy(allowedUIDs: [getuid()]), readOnly: false)
    /// The listener these routes answer on: it says how an editor is recognised.
    var listener = ListenerKind.unixSocket

    /// Adds every route to `router`.
    func register(on router: Router<GlimpseRequestContext>) {
        registerConsole(on: router)
        router.get("/healthz") { _, _ in try await self.health() }
        router.get("/metrics") { _, _ in await self.metricsExposition() }
        router.post("/v1/query") { request, context in try await self.query(request, context: context) }
        router.get("/v1/query/next") { request, context in try await self.nextPage(request, context: context) }
        router.get("/v1/entities") { request, context in try await self.search(request, context: context) }
        router.get("/v1/entities/:type/:id") { request, context in try await self.entity(request, context: context) }
        router.get("/v1/entities/:type/:id/image") { request, context in
            try await self.entityImage(request, context: context)
        }
        router.post("/v1/entities/:type/query") { request, context in
            try await self.propertyQuery(request, context: context)
        }
        registerCatalogEdits(on: router)
    }

    /// Every route as (method, path pattern), in the form the router reports them.
    static func routeList(service: any SearchService, gate: QueryGate, limits: ServerLimits, metrics: ServerMetrics)
        -> [(method: String, path: String)]
    {
        let probe = Router(context: GlimpseRequestContext.self)
        APIRoutes(service: service, gate: gate, limits: limits, metrics: metrics).register(on: probe)
        return probe.routes.map { ($0.method.rawValue, $0.path.description) }
    }

    // MARK: - Helpers

    /// The whole body; a body cut short (the client went away, or the request guard answered
    /// 413/408 and closed) is a client error, not a server one.
    func collectBody(_ request: Request, upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError {
            throw APIError(error.status, code: "body_too_large", message: "the body is larger than \(limit) bytes")
        } catch {
            throw APIError.badRequest("incomplete_body", "the request body ended before its declared length")
        }
    }

    /// Runs `work` through the query gate, cancelled if the client goes away.
    func runQuery<T: Sendable>(
        on context: GlimpseRequestContext,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let gate = self.gate
        return try await withClientPresence(on: context) { try await gate.run(work) }
    }

    /// Runs `operation`, cancelled if the client goes away; updates the in-flight gauge after it.
    func withClientPresence<T: Sendable>(
        on context: GlimpseRequestContext,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let gate = self.gate
        let metrics = self.metrics
        let tracked: @Sendable () async throws -> T = {
            defer { metrics.setQueriesInFlight(gate.inFlight) }
            return try await operation()
        }
        if let presence = await RequestGuardHandler.presence(on: context.channel) {
            return try await presence.run(tracked)
        }
        return try await tracked()
    }


    /// Refuses a body declared as anything but a JPEG, PNG or plain bytes (`415`).
    func checkImageContentType(_ request: Request) throws {
        guard let contentType = request.headers[.contentType]?.lowercased() else { return }
        let accepted = ["image/jpeg", "image/png", "application/octet-stream"]
        guard accepted.contains(where: { contentType.hasPrefix($0) }) else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "the body is declared as \(contentType); send image/jpeg, image/png or application/octet-stream"
            )
        }
    }

    /// `limit=n`: the most results, 1 to the daemon's cap (absent: 10, or the cap when lower).
    func limitParameter(_ request: Request) throws -> Int {
        guard let text = try QueryParameter.single("limit", of: request) else { return min(10, limits.maxResultLimit) }
        guard let limit = Int(text), limit >= 1, limit <= limits.maxResultLimit else {
            throw APIError.badRequest(
                "bad_limit", "limit is \(text); pass a whole number between 1 and \(limits.maxResultLimit)"
            )
        }
        return limit
    }

    /// `value` as JSON with sorted keys, `200 OK`.
    func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The body's declared `Content-Length`, `nil` for a body without one (chunked).
    func declaredLength(_ request: Request) throws -> Int? {
        guard let text = request.headers[.contentLength] else { return nil }
        guard let length = Int(text), length >= 0 else {
            throw APIError.badRequest("bad_content_length", "Content-Length is \(text); send the body's size in bytes")
        }
        return length
    }
}
