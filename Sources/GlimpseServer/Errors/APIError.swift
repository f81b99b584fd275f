import GlimpseWire
import Foundation
public import HTTPTypes
public import Hummingbird
public import NIOCore

/// An error answered to a client: an HTTP status and a JSON body that says what was wrong.
///
/// Every 4xx and 5xx the daemon sends has the body
/// `{"error": {"status": 413, "code": "body_too_large", "message": "…"}}`.
public struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable, machine-readable name for the error, such as `body_too_large`.
    public var code: String
    /// A sentence for people: what was wrong and what to send instead.
    public var message: String
    /// Extra response headers, such as `Retry-After` or `Connection: close`.
    public var headers: HTTPFields

    /// Creates an error response.
    public init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// `status code: message`, for logs.
    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON body, as bytes.
    public var jsonBody: ByteBuffer {
        let body = ErrorEnvelope(error: .init(status: status.code, code: code, message: message))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(body)) ?? Data(#"{"error":{"code":"internal"}}"#.utf8)
        return ByteBuffer(bytes: data)
    }

    /// The full response: status, `Content-Type: application/json`, extra headers, JSON body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        makeResponse()
    }

    /// The full response without needing a request.
    public func makeResponse() -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: jsonBody))
    }

    /// The same error with `Connection: close`, so the connection is closed after the response.
    public func closingConnection() -> APIError {
        var copy = self
        copy.headers[.connection] = "close"
        return copy
    }
}

extension APIError {
    /// What a client whose body was over its limit should send instead, by what the body is.
    enum BodyAdvice: Equatable, Sendable {
        /// A picture to look up or to add to a place.
        case image
        /// A JSON edit.
        case json
        /// A body of unknown kind.
        case unknown

        /// The body's kind as its `Content-Type` declares it.
        init(contentType: String?) {
            let type = contentType?.lowercased() ?? ""
            if type.hasPrefix("application/json") {
                self = .json
            } else if type.hasPrefix("image/") || type.hasPrefix("application/octet-stream") {
                self = .image
            } else {
                self = .unknown
            }
        }

        var sentence: String {
            switch self {
            case .image: "send a smaller image"
            case .json:
                "send a smaller JSON body: fewer or smaller photos (or add them one at a time with "
                    + "POST /v1/places/{id}/photos) and shorter lists"
            case .unknown: "send a smaller image, or a smaller JSON edit"
            }
        }
    }

    /// 413: the body is larger than the configured limit.
    static func bodyTooLarge(limit: Int, declared: Int?, advice: BodyAdvice) -> APIError {
        let size = declared.map { "\($0)-byte body" } ?? "body"
        return APIError(
            .contentTooLarge,
            code: "body_too_large",
            message: "the \(size) is larger than the \(limit)-byte limit; \(advice.sentence)"
        ).closingConnection()
    }

    /// 413: a chunk of a chunked body declares a size that takes the body past the limit.
    static func chunkTooLarge(limit: Int, declared: UInt64?) -> APIError {
        let size = declared.map { "a \($0)-byte chunk" } ?? "a chunk larger than 2^64 - 1 bytes"
        return APIError(
            .contentTooLarge,
            code: "body_too_large",
            message: "the body declares \(size), which takes it past the \(limit)-byte limit; \(BodyAdvice.unknown.sentence)"
        ).closingConnection()
    }

    /// 408: the body did not arrive within the request deadline.
    static func requestTimeout(deadline: Duration) -> APIError {
        APIError(
            .requestTimeout,
            code: "request_timeout",
            message: "the request body did not arrive within \(deadline); send the whole request at once"
        ).closingConnection()
    }

    /// 503: too many queries are running or waiting, or their bodies fill the memory budget.
    static func overloaded(retryAfter: Int, memory: Bool = false) -> APIError {
        let why = memory
            ? "the bodies of the queries in progress fill the daemon's memory budget"
            : "too many queries are in progress"
        return APIError(
            .serviceUnavailable,
            code: "overloaded",
            message: "\(why); retry after \(retryAfter) s",
            headers: [.retryAfter: String(retryAfter)]
        )
    }

    /// 503: the daemon is stopping and this request could not run before its shutdown grace ran out.
    static func shuttingDown(retryAfter: Int) -> APIError {
        APIError(
            .serviceUnavailable,
            code: "shutting_down",
            message: "the daemon is stopping and could not run this request; retry after \(retryAfter) s "
                + "(against the daemon that replaces it)",
            headers: [.retryAfter: String(retryAfter)]
        ).closingConnection()
    }

    /// 405: the path exists but does not accept this method; `Allow` lists those it does.
    static func methodNotAllowed(_ method: String, allowed: [String]) -> APIError {
        APIError(
            .methodNotAllowed,
            code: "method_not_allowed",
            message: "this route does not accept \(method); use \(allowed.joined(separator: " or ")) (see docs/api.md)",
            headers: [.allow: allowed.joined(separator: ", ")]
        )
    }

    /// 400: the request could not be parsed as HTTP/1.1 (sent by the connection guard, which then closes).
    static func malformedRequest(_ detail: String) -> APIError {
        APIError(
            .badRequest,
            code: "malformed_request",
            message: "the request is not valid HTTP/1.1 (\(detail)); send a well-formed request"
        ).closingConnection()
    }

    /// 400: the request head is larger than the limit.
    static func headerTooLarge(limit: Int) -> APIError {
        APIError(
            .badRequest,
            code: "header_too_large",
            message: "the request head is larger than \(limit) bytes; send fewer or shorter header fields"
        ).closingConnection()
    }

    /// 408: the request head did not arrive within the head deadline.
    static func headerTimeout(deadline: Duration) -> APIError {
        APIError(
            .requestTimeout,
            code: "request_timeout",
            message: "the request head did not arrive within \(deadline); send the whole head at once"
        ).closingConnection()
    }

    /// 403: the peer's user and group are not allowed.
    static func forbidden(_ peer: PeerCredentials?) -> APIError {
        let who = peer.map { "uid \($0.uid), gid \($0.gid)" } ?? "an unidentified peer"
        return APIError(
            .forbidden,
            code: "peer_not_allowed",
            message: "\(who) is not allowed to use this daemon; ask its operator to add --allow-uid or --allow-gid"
        )
    }

    /// 400 with a message.
    static func badRequest(_ code: String, _ message: String) -> APIError {
        APIError(.badRequest, code: code, message: message)
    }

    /// 404 with a message.
    static func notFound(_ code: String, _ message: String) -> APIError {
        APIError(.notFound, code: code, message: message)
    }
}
