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

    /// Adds every route to `router`.
    func register(on router: Router<GlimpseRequestContext>) {
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

    // MARK: - Health and metrics

    private func health() async throws -> Response {
        let problem = await editor?.storeProblem()
        return try json(
            HealthJSON(
                status: problem == nil ? "ok" : "degraded",
                places: service.placeCount,
                collections: service.collectionCount,
                queriesInFlight: gate.inFlight,
                catalogWritable: editor.map { _ in problem == nil },
                catalogProblem: problem
            )
        )
    }

    private func metricsExposition() async -> Response {
        metrics.setQueriesInFlight(gate.inFlight)
        if !metrics.hasCatalog {
            // The catalog served since start: its age counts from the first exposition.
            let info = await editor?.info()
            metrics.setCatalog(
                places: service.placeCount, collections: service.collectionCount, photos: service.photoCount,
                sequence: info?.sequence ?? 0)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.exposition()))
        )
    }

    /// Every route as (method, path pattern), in the form the router reports them.
    static func routeList(service: any SearchService, gate: QueryGate, limits: ServerLimits, metrics: ServerMetrics)
        -> [(method: String, path: String)]
    {
        let probe = Router(context: GlimpseRequestContext.self)
        APIRoutes(service: service, gate: gate, limits: limits, metrics: metrics).register(on: probe)
        return probe.routes.map { ($0.method.rawValue, $0.path.description) }
    }

    // MARK: - Visual search

    private func query(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        try checkImageContentType(request)
        let labels = try labelsParameter(request)
        let limit = try limitParameter(request)
        let region = try boxParameter(request)
        let minimumScore = try minScoreParameter(request)
        let explain = try explainParameter(request)
        let declared = try declaredLength(request)
        if declared == 0 {
            throw APIError.badRequest("empty_body", "the request body is empty; send the bytes of a JPEG or PNG image")
        }
        // Admitted (or refused with 503) before any of the body is read; the body's declared length (the
        // body limit when it is chunked) is held in the memory budget until the query is over.
        let admission = try gate.admit(bytes: declared ?? limits.maxBodyBytes)
        defer { admission.release() }
        if request.headers[.expect]?.lowercased() == "100-continue" {
            RequestGuardHandler.sendContinue(on: context.channel)
        }
        let options = region.map { decodingOptions.showing($0) } ?? decodingOptions
        let service = self.service
        let metrics = self.metrics
        let maxBodyBytes = limits.maxBodyBytes
        let body = request.body
        let outcome = try await withClientPresence(on: context) {
            try await admission.cancellingOnStop {
                let bytes = try await Self.readBody(body, declared: declared, limit: maxBodyBytes)
                admission.reduceReservation(to: bytes.count)
                let bodyDone = ContinuousClock.now
                metrics.recordStage("body", duration: bodyDone - start)
                guard !bytes.isEmpty else {
                    throw APIError.badRequest("empty_body", "the request body is empty; send the bytes of a JPEG or PNG image")
                }
                try Self.checkDeclaredJPEGSize(bytes, limits: options.limits)
                let (page, picture, image, decodeTime, queryTime) = try await admission.run {
                    let decodeStart = ContinuousClock.now
                    let decoded: DecodedImage
                    do throws(ImageDecodingError) {
                        decoded = try ImageDecoder.decode(bytes, options: options)
                    } catch {
                        throw APIError.imageRejected(error)
                    }
                    let decodeDone = ContinuousClock.now
                    try Task.checkCancellation()
                    var page: QueryResponseJSON?
                    var picture: [UInt8]?
                    if explain {
                        picture = try await service.explain(image: decoded.pixelBuffer, region: region)
                    } else {
                        page = try await service.search(
                            image: decoded.pixelBuffer, labels: labels, limit: limit, region: region,
                            minimumScore: minimumScore)
                    }
                    let queryDone = ContinuousClock.now
                    metrics.recordStage("decode", duration: decodeDone - decodeStart)
                    metrics.recordStage("query", duration: queryDone - decodeDone)
                    let image = ImageInfoJSON(
                        format: decoded.format.rawValue, width: decoded.pixelBuffer.width,
                        height: decoded.pixelBuffer.height
                    )
                    return (page, picture, image, decodeDone - decodeStart, queryDone - decodeDone)
                }
                return (page, picture, image, bodyDone - start, decodeTime, queryTime)
            }
        }
        let (answer, picture, image, bodyTime, decodeTime, queryTime) = outcome
        guard var page = answer else {
            return Response(
                status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: picture ?? [])))
        }
        page.image = image
        page.timings = TimingsJSON(body: bodyTime, decode: decodeTime, query: queryTime, total: ContinuousClock.now - start)
        let encodeStart = ContinuousClock.now
        let response = try json(page)
        metrics.recordStage("encode", duration: ContinuousClock.now - encodeStart)
        return response
    }

    /// The body's declared `Content-Length`, `nil` for a body without one (chunked).
    func declaredLength(_ request: Request) throws -> Int? {
        guard let text = request.headers[.contentLength] else { return nil }
        guard let length = Int(text), length >= 0 else {
            throw APIError.badRequest("bad_content_length", "Content-Length is \(text); send the body's size in bytes")
        }
        return length
    }

    /// Reads the whole body into one array, sized once from the declared length (no second copy: the
    /// decoder reads this array).
    static func readBody(_ body: RequestBody, declared: Int?, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        // Untouched capacity costs address space, not memory: a chunked body never needs a regrowth copy.
        bytes.reserveCapacity(min(declared ?? limit, limit))
        do {
            for try await chunk in body {
                guard chunk.readableBytes <= limit - bytes.count else {
                    throw APIError.bodyTooLarge(limit: limit, declared: nil)
                }
                chunk.withUnsafeReadableBytes { bytes.append(contentsOf: $0) }
            }
        } catch let error as APIError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw APIError.badRequest("incomplete_body", "the request body ended before its declared length")
        }
        if let declared, bytes.count != declared {
            throw APIError.badRequest("incomplete_body", "the request body ended before its declared length")
        }
        return bytes
    }

    private func nextPage(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        guard let cursor = request.uri.queryParameters.get("cursor"), !cursor.isEmpty else {
            throw APIError.badRequest("missing_cursor", "pass the `next` value of a previous answer as ?cursor=")
        }
        let limit = request.uri.queryParameters.get("limit") == nil ? nil : try limitParameter(request)
        let service = self.service
        var page = try await runQuery(on: context) {
            try await service.nextPage(cursor: cursor, limit: limit)
        }
        let elapsed = ContinuousClock.now - start
        page.image = nil
        page.timings = TimingsJSON(body: .zero, decode: .zero, query: elapsed, total: elapsed)
        return try json(page)
    }

    // MARK: - Entities

    private func search(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        guard let text = request.uri.queryParameters.get("q"), !text.isEmpty else {
            throw APIError.badRequest("missing_q", "pass the text to look for as ?q=")
        }
        let limit = try limitParameter(request)
        let service = self.service
        let entities = try await runQuery(on: context) { try await service.entities(matching: text, limit: limit) }
        return try json(EntityListJSON(entities: entities))
    }

    private func entity(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        let type = try context.parameters.require("type")
        let id = try context.parameters.require("id")
        let service = self.service
        let found = try await runQuery(on: context) { try await service.entity(type: type, id: id) }
        guard let found else {
            throw APIError.notFound("no_such_entity", "there is no \(type) with id \(id)")
        }
        return try json(found)
    }

    private func entityImage(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
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

    private func propertyQuery(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
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

    // MARK: - Helpers

    /// The whole body; a body cut short (the client went away, or the request guard answered
    /// 413/408 and closed) is a client error, not a server one.
    private func collectBody(_ request: Request, upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError {
            throw APIError(error.status, code: "body_too_large", message: "the body is larger than \(limit) bytes")
        } catch {
            throw APIError.badRequest("incomplete_body", "the request body ended before its declared length")
        }
    }

    /// Runs `work` through the query gate, cancelled if the client goes away.
    private func runQuery<T: Sendable>(
        on context: GlimpseRequestContext,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let gate = self.gate
        return try await withClientPresence(on: context) { try await gate.run(work) }
    }

    /// Runs `operation`, cancelled if the client goes away; updates the in-flight gauge after it.
    private func withClientPresence<T: Sendable>(
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

    private var decodingOptions: DecodingOptions {
        var options = service.decodingOptions
        options.limits.maxPixels = min(options.limits.maxPixels, limits.maxDecodePixels)
        options.limits.maxInputBytes = limits.maxBodyBytes
        return options
    }

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

    private func labelsParameter(_ request: Request) throws -> [String] {
        request.uri.queryParameters.getAll("labels")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// `min_score=s`: the least score listed, 0…1 (absent: the accept line, 0.5).
    private func minScoreParameter(_ request: Request) throws -> Double? {
        guard let text = request.uri.queryParameters.get("min_score") else { return nil }
        guard let value = Double(text), value.isFinite, (0...1).contains(value) else {
            throw APIError.badRequest(
                "bad_min_score", "min_score is \(text); pass a number from 0 to 1 (0.5, the default, lists what is accepted)")
        }
        return value
    }

    /// `box=x,y,w,h`: the region of interest, as fractions of the picture's width and height.
    private func boxParameter(_ request: Request) throws -> ImageRegion? {
        guard let text = request.uri.queryParameters.get("box") else { return nil }
        do throws(ImageRegionError) {
            return try ImageRegion(parsing: text)
        } catch {
            throw APIError.badRequest("bad_box", error.description)
        }
    }

    /// `explain=1` (or `true`): answer with the explain picture instead of the results.
    private func explainParameter(_ request: Request) throws -> Bool {
        guard let text = request.uri.queryParameters.get("explain") else { return false }
        switch text.lowercased() {
        case "1", "true": return true
        case "0", "false": return false
        default: throw APIError.badRequest("bad_explain", "explain is \(text); pass explain=1 for the picture or leave it out")
        }
    }

    private func limitParameter(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters.get("limit") else { return min(10, limits.maxResultLimit) }
        guard let limit = Int(text), limit >= 1, limit <= limits.maxResultLimit else {
            throw APIError.badRequest(
                "bad_limit", "limit is \(text); pass a whole number between 1 and \(limits.maxResultLimit)"
            )
        }
        return limit
    }

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
}
