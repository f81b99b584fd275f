import Foundation
import GlimpseImage
import GlimpseWire
import HTTPTypes
import Hummingbird
import NIOCore

/// The visual search routes: `POST /v1/query` (a picture in, a page or the explain picture out) and
/// `GET /v1/query/next` (the page after a cursor).
extension APIRoutes {
    /// `POST /v1/query`: admits the query, reads the picture, decodes it and searches it (or draws the
    /// explain picture), all on the query threads, and answers the page with the picture's size and timings.
    func query(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
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
                var outcome = try await admission.run { () async throws -> QueryOutcome in
                    let decodeStart = ContinuousClock.now
                    let decoded: DecodedImage
                    do throws(ImageDecodingError) {
                        decoded = try ImageDecoder.decode(bytes, options: options)
                    } catch {
                        throw APIError.imageRejected(error)
                    }
                    let decodeDone = ContinuousClock.now
                    try Task.checkCancellation()
                    let answer: QueryOutcome.Answer
                    if explain {
                        answer = .explainPicture(try await service.explain(image: decoded.pixelBuffer, region: region))
                    } else {
                        answer = .page(try await service.search(
                            image: decoded.pixelBuffer, labels: labels, limit: limit, region: region,
                            minimumScore: minimumScore))
                    }
                    let queryDone = ContinuousClock.now
                    metrics.recordStage("decode", duration: decodeDone - decodeStart)
                    metrics.recordStage("query", duration: queryDone - decodeDone)
                    return QueryOutcome(
                        answer: answer,
                        image: ImageInfoJSON(
                            format: decoded.format.rawValue, width: decoded.pixelBuffer.width,
                            height: decoded.pixelBuffer.height),
                        decodeTime: decodeDone - decodeStart, queryTime: queryDone - decodeDone)
                }
                outcome.bodyTime = bodyDone - start
                return outcome
            }
        }
        var page: QueryResponseJSON
        switch outcome.answer {
        case .page(let answered):
            page = answered
        case .explainPicture(let picture):
            return Response(
                status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: picture)))
        }
        page.image = outcome.image
        page.timings = TimingsJSON(
            body: outcome.bodyTime, decode: outcome.decodeTime, query: outcome.queryTime, total: ContinuousClock.now - start)
        let encodeStart = ContinuousClock.now
        let response = try json(page)
        metrics.recordStage("encode", duration: ContinuousClock.now - encodeStart)
        return response
    }

    /// Reads the whole body into one array, sized once from the declared length (no second copy: the
    /// decoder reads this array).
    static func readBody(
        _ body: RequestBody, declared: Int?, limit: Int, advice: APIError.BodyAdvice = .image
    ) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        // Untouched capacity costs address space, not memory: a chunked body never needs a regrowth copy.
        bytes.reserveCapacity(min(declared ?? limit, limit))
        do {
            for try await chunk in body {
                guard chunk.readableBytes <= limit - bytes.count else {
                    throw APIError.bodyTooLarge(limit: limit, declared: nil, advice: advice)
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

    /// `GET /v1/query/next?cursor=`: the page after a cursor, through the query gate.
    func nextPage(_ request: Request, context: GlimpseRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        guard let cursor = try QueryParameter.single("cursor", of: request), !cursor.isEmpty else {
            throw APIError.badRequest("missing_cursor", "pass the `next` value of a previous answer as ?cursor=")
        }
        let limit = try QueryParameter.single("limit", of: request) == nil ? nil : try limitParameter(request)
        let service = self.service
        var page = try await runQuery(on: context) {
            try await service.nextPage(cursor: cursor, limit: limit)
        }
        let elapsed = ContinuousClock.now - start
        page.image = nil
        page.timings = TimingsJSON(body: .zero, decode: .zero, query: elapsed, total: elapsed)
        return try json(page)
    }

    private var decodingOptions: DecodingOptions {
        var options = service.decodingOptions
        options.limits.maxPixels = min(options.limits.maxPixels, limits.maxDecodePixels)
        options.limits.maxInputBytes = limits.maxBodyBytes
        return options
    }

    /// `labels=a,b`: scene labels the caller already knows (repeatable, comma-separated).
    private func labelsParameter(_ request: Request) throws -> [String] {
        try QueryParameter.all("labels", of: request)
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// `min_score=s`: the least score listed, 0…1 (absent: the accept line, 0.5).
    private func minScoreParameter(_ request: Request) throws -> Double? {
        guard let text = try QueryParameter.single("min_score", of: request) else { return nil }
        guard let value = Double(text), value.isFinite, (0...1).contains(value) else {
            throw APIError.badRequest(
                "bad_min_score", "min_score is \(text); pass a number from 0 to 1 (0.5, the default, lists what is accepted)")
        }
        return value
    }

    /// `box=x,y,w,h`: the region of interest, as fractions of the picture's width and height.
    private func boxParameter(_ request: Request) throws -> ImageRegion? {
        guard let text = try QueryParameter.single("box", of: request) else { return nil }
        do throws(ImageRegionError) {
            return try ImageRegion(parsing: text)
        } catch {
            throw APIError.badRequest("bad_box", error.description)
        }
    }

    /// `explain=1` (or `true`): answer with the explain picture instead of the results.
    private func explainParameter(_ request: Request) throws -> Bool {
        guard let text = try QueryParameter.single("explain", of: request) else { return false }
        switch text.lowercased() {
        case "1", "true": return true
        case "0", "false": return false
        default: throw APIError.badRequest("bad_explain", "explain is \(text); pass explain=1 for the picture or leave it out")
        }
    }
}

/// What one `POST /v1/query` produced: the page or the explain picture, the decoded picture's size, and
/// where the time went.
struct QueryOutcome: Sendable {
    /// The answer asked for.
    enum Answer: Sendable {
        /// The results (`explain` absent), without the picture's size and timings.
        case page(QueryResponseJSON)
        /// The explain picture as PNG (`explain=1`).
        case explainPicture([UInt8])
    }

    /// The page or the explain picture.
    var answer: Answer
    /// The decoded picture's format and size.
    var image: ImageInfoJSON
    /// Decoding the picture.
    var decodeTime: Duration
    /// The search (or drawing the explain picture).
    var queryTime: Duration
    /// Reading the body, from the start of the request.
    var bodyTime: Duration = .zero
}
