import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

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

/// The wire shape of an error body.
public struct ErrorEnvelope: Codable, Sendable, Equatable {
    /// The error itself.
    public struct Detail: Codable, Sendable, Equatable {
        /// The HTTP status code.
        public var status: Int
        /// The machine-readable error name.
        public var code: String
        /// The sentence for people.
        public var message: String
    }

    /// The error itself.
    public var error: Detail
}

extension APIError {
    /// 413: the body is larger than the configured limit.
    static func bodyTooLarge(limit: Int, declared: Int?) -> APIError {
        let size = declared.map { "\($0)-byte body" } ?? "body"
        return APIError(
            .contentTooLarge,
            code: "body_too_large",
            message: "the \(size) is larger than the \(limit)-byte limit; send a smaller image"
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

    /// 503: too many queries are running or waiting.
    static func overloaded(retryAfter: Int) -> APIError {
        APIError(
            .serviceUnavailable,
            code: "overloaded",
            message: "too many queries are in progress; retry after \(retryAfter) s",
            headers: [.retryAfter: String(retryAfter)]
        )
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
