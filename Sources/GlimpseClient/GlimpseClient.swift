import Foundation
public import GlimpseWire
public import NIOCore
public import NIOHTTP1
public import NIOPosix

/// A small HTTP/1.1 client for the daemon's Unix socket, used by `glimpse query --socket` and the
/// benchmarks.
///
/// ```swift
/// let client = GlimpseClient(socketPath: "/run/glimpse/glimpse.sock")
/// let answer = try await client.withConnection { try await $0.query(image: bytes) }
/// ```
/// One connection carries any number of requests, one after another (keep-alive).
public struct GlimpseClient: Sendable {
    /// The daemon's socket path.
    public let socketPath: String
    private let group: any EventLoopGroup

    /// Creates a client for the daemon at `socketPath`.
    public init(socketPath: String, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.socketPath = socketPath
        self.group = eventLoopGroup
    }

    /// Opens one connection, runs `body` with it, and closes it.
    ///
    /// - Throws: ``GlimpseClientError`` when no daemon answers at the path; whatever `body` throws.
    public func withConnection<T: Sendable>(
        _ body: (GlimpseConnection) async throws -> T
    ) async throws -> T {
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: group)
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                            wrappingChannelSynchronously: channel
                        )
                    }
                }
        } catch {
            throw GlimpseClientError.cannotConnect(path: socketPath, reason: "\(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            let connection = GlimpseConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(connection)
        }
    }
}

/// One open connection to the daemon. Requests on it are sent one at a time.
public final class GlimpseConnection {
    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>

    init(
        inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    ) {
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Sends one request and reads the whole response.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - target: the path and query, such as `/v1/query?limit=5`.
    ///   - headers: extra request headers.
    ///   - body: the request body; `nil` for none.
    /// - Throws: ``GlimpseClientError/connectionClosed`` when the daemon closes before answering.
    public func send(
        method: HTTPMethod,
        target: String,
        headers: [(String, String)] = [],
        body: ByteBuffer? = nil
    ) async throws -> GlimpseClientResponse {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: target)
        head.headers.add(name: "Host", value: "glimpse")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        head.headers.add(name: "Content-Length", value: String(body?.readableBytes ?? 0))
        try await outbound.write(.head(head))
        if let body, body.readableBytes > 0 {
            try await outbound.write(.body(.byteBuffer(body)))
        }
        try await outbound.write(.end(nil))

        var status: HTTPResponseStatus?
        var responseHeaders = HTTPHeaders()
        var collected = ByteBuffer()
        while let part = try await inbound.next() {
            switch part {
            case .head(let responseHead):
                status = responseHead.status
                responseHeaders = responseHead.headers
            case .body(var chunk):
                collected.writeBuffer(&chunk)
            case .end:
                guard let status else { throw GlimpseClientError.connectionClosed }
                return GlimpseClientResponse(status: Int(status.code), headers: responseHeaders, body: collected)
            }
        }
        throw GlimpseClientError.connectionClosed
    }

    /// `POST /v1/query`: sends picture bytes and decodes the answer.
    ///
    /// - Parameters:
    ///   - image: the picture's bytes (JPEG or PNG).
    ///   - labels: scene labels the caller already knows.
    ///   - limit: the most results on the first page; `nil` for the daemon's default.
    ///   - box: the region of interest (`box=`, normalised); `nil` for the whole picture.
    ///   - minimumScore: the least score listed (`min_score=`, 0…1); `nil` for the accept line.
    /// - Throws: ``GlimpseClientError/server(status:code:message:)`` for an error answer.
    public func query(
        image: [UInt8], labels: [String] = [], limit: Int? = nil, box: RegionJSON? = nil, minimumScore: Double? = nil
    ) async throws -> QueryResponseJSON {
        var items: [String] = []
        if !labels.isEmpty { items.append("labels=" + Self.pathSegment(labels.joined(separator: ","))) }
        if let limit { items.append("limit=\(limit)") }
        if let box { items.append("box=" + Self.boxText(box)) }
        if let minimumScore { items.append("min_score=\(minimumScore)") }
        let target = "/v1/query" + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        let response = try await send(
            method: .POST, target: target, headers: [("Content-Type", "application/octet-stream")],
            body: ByteBuffer(bytes: image)
        )
        return try response.decode(QueryResponseJSON.self)
    }

    /// `POST /v1/query?explain=1`: the explain picture (PNG bytes) of a query.
    ///
    /// - Parameters:
    ///   - image: the picture's bytes (JPEG or PNG).
    ///   - box: the region of interest (`box=`, normalised); `nil` for the whole picture.
    /// - Throws: ``GlimpseClientError/server(status:code:message:)`` for an error answer.
    public func explain(image: [UInt8], box: RegionJSON? = nil) async throws -> [UInt8] {
        let target = "/v1/query?explain=1" + (box.map { "&box=" + Self.boxText($0) } ?? "")
        let response = try await send(
            method: .POST, target: target, headers: [("Content-Type", "application/octet-stream")],
            body: ByteBuffer(bytes: image)
        )
        guard (200..<300).contains(response.status) else {
            _ = try response.decode(ErrorEnvelope.self)  // throws the daemon's error
            throw GlimpseClientError.malformedAnswer("status \(response.status) without an error body")
        }
        return response.bodyBytes
    }

    private static func boxText(_ box: RegionJSON) -> String {
        [box.x, box.y, box.width, box.height].map { String($0) }.joined(separator: ",")
    }

    /// `GET /v1/query/next`: the page after the one that returned `cursor`.
    ///
    /// - Parameters:
    ///   - cursor: the cursor of the previous page.
    ///   - limit: the most results on this page; `nil` for the daemon's default.
    public func next(cursor: String, limit: Int? = nil) async throws -> QueryResponseJSON {
        let target = "/v1/query/next?cursor=" + Self.pathSegment(cursor) + (limit.map { "&limit=\($0)" } ?? "")
        return try await send(method: .GET, target: target).decode(QueryResponseJSON.self)
    }

    /// `GET /v1/entities/{type}/{id}`.
    public func entity(type: String, id: String) async throws -> EntityJSON {
        try await send(method: .GET, target: "/v1/entities/\(Self.pathSegment(type))/\(Self.pathSegment(id))")
            .decode(EntityJSON.self)
    }

    /// `GET /v1/entities?q=`.
    public func entities(matching text: String) async throws -> EntityListJSON {
        try await send(method: .GET, target: "/v1/entities?q=" + Self.pathSegment(text)).decode(EntityListJSON.self)
    }

    /// `POST /v1/entities/{type}/query`.
    public func entities(type: String, query: PropertyQueryJSON) async throws -> EntityListJSON {
        let body = try JSONEncoder().encode(query)
        return try await send(
            method: .POST, target: "/v1/entities/\(Self.pathSegment(type))/query",
            headers: [("Content-Type", "application/json")], body: ByteBuffer(bytes: body)
        ).decode(EntityListJSON.self)
    }

    /// `GET /healthz`.
    public func health() async throws -> HealthJSON {
        try await send(method: .GET, target: "/healthz").decode(HealthJSON.self)
    }
}

/// A whole response from the daemon.
public struct GlimpseClientResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The response body.
    public var body: ByteBuffer

    /// The response body as bytes.
    public var bodyBytes: [UInt8] { Array(buffer: body) }

    /// The body decoded as `T`, or the daemon's error as ``GlimpseClientError/server(status:code:message:)``.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard (200..<300).contains(status) else {
            if let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(body.readableBytesView)) {
                throw GlimpseClientError.server(
                    status: status, code: envelope.error.code, message: envelope.error.message
                )
            }
            throw GlimpseClientError.server(status: status, code: "unknown", message: String(buffer: body))
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
        } catch {
            throw GlimpseClientError.malformedAnswer("\(error)")
        }
    }
}

/// Why a request to the daemon failed.
public enum GlimpseClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing accepted the connection at the socket path.
    case cannotConnect(path: String, reason: String)
    /// The daemon closed the connection before a complete answer.
    case connectionClosed
    /// The daemon answered with an error status.
    case server(status: Int, code: String, message: String)
    /// The answer was not the JSON expected.
    case malformedAnswer(String)

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case let .cannotConnect(path, reason):
            return "cannot connect to the glimpse daemon at \(path) (\(reason)); start it with "
                + "`glimpse serve --socket \(path)` or pass the right --socket path"
        case .connectionClosed:
            return "the daemon closed the connection before answering; see its log"
        case let .server(status, code, message):
            return "the daemon answered \(status) \(code): \(message)"
        case let .malformedAnswer(reason):
            return "the daemon's answer is not the expected JSON (\(reason)); are client and daemon the same version?"
        }
    }
}
