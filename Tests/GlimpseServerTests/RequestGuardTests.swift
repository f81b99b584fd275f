import Foundation
@testable import GlimpseServer
import GlimpseWire
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing

/// The request guard on an embedded channel, behind NIO's real HTTP/1.1 decoder: raw bytes in, response
/// parts out, time advanced by hand (no sockets, no sleeps).
@Suite("Request guard")
final class RequestGuardTests {
    /// The channels this test made. Each is finished when the test ends: a channel closed with teardown
    /// work still on its embedded loop, or never closed, holds itself and leaks (LeakSanitizer says so).
    private var channels: [EmbeddedChannel] = []

    deinit {
        for channel in channels { _ = try? channel.finish(acceptAlreadyClosed: true) }
    }

    /// `channel`, to be finished when the test ends.
    func finishedAtEnd(_ channel: EmbeddedChannel) -> EmbeddedChannel {
        channels.append(channel)
        return channel
    }

    /// Turns NIOHTTP1 request parts into the HTTP types parts the guard reads (as the daemon's codec does).
    final class ToHTTPTypes: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPRequestPart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                var fields = HTTPFields()
                for (name, value) in head.headers {
                    if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
                }
                let request = HTTPRequest(
                    method: HTTPRequest.Method(head.method.rawValue) ?? .get, scheme: nil, authority: nil,
                    path: head.uri, headerFields: fields)
                context.fireChannelRead(wrapInboundOut(.head(request)))
            case .body(let buffer):
                context.fireChannelRead(wrapInboundOut(.body(buffer)))
            case .end:
                context.fireChannelRead(wrapInboundOut(.end(nil)))
            }
        }
    }

    /// Records what reaches the router's side of the pipeline.
    final class Recorder: ChannelInboundHandler {
        typealias InboundIn = HTTPRequestPart
        var parts: [String] = []
        var errors: [any Error] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): parts.append("head \(head.path ?? "")")
            case .body(let buffer): parts.append("body \(buffer.readableBytes)")
            case .end: parts.append("end")
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            errors.append(error)
        }
    }

    /// Small limits, so that tests can pass them with a few bytes.
    static let limits = RequestGuardHandler.Limits(
        maxBodyBytes: 1_000, maxHeaderBytes: 1_024, headerTimeout: .seconds(5), requestDeadline: .seconds(30)
    )

    /// A connected channel: NIO's HTTP/1.1 decoder, the guard (reporting to `registry`), a recorder.
    func makeChannel(
        limits: RequestGuardHandler.Limits = RequestGuardTests.limits, registry: ConnectionRegistry? = nil
    ) throws -> (EmbeddedChannel, Recorder) {
        let channel = finishedAtEnd(EmbeddedChannel())
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderListSize = limits.maxHeaderBytes
        decoderLimits.maxHeaderFieldSize = limits.maxHeaderBytes
        let recorder = Recorder()
        let operations = channel.pipeline.syncOperations
        try operations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(limitConfiguration: decoderLimits)))
        try operations.addHandler(ToHTTPTypes())
        try operations.addHandler(RequestGuardHandler(limits: limits, registry: registry) { _ in })
        try operations.addHandler(recorder)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/guard")).wait()
        return (channel, recorder)
    }

    /// Sends `text` as the client's next bytes.
    func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    /// The response parts written so far: status, header fields and the body as text.
    func response(_ channel: EmbeddedChannel) throws -> (status: Int, fields: HTTPFields, body: String)? {
        var status: Int?
        var fields = HTTPFields()
        var body = ""
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
            switch part {
            case .head(let head) where head.status.kind != .informational:
                status = head.status.code
                fields = head.headerFields
            case .head: break
            case .body(let buffer): body += String(buffer: buffer)
            case .end: return status.map { ($0, fields, body) }
            }
        }
        return nil
    }

    /// The `code` of a JSON error body.
    func errorCode(_ body: String) -> String? {
        try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(body.utf8)).error.code
    }

    // MARK: - Head deadline

    @Test func aConnectionThatSendsNothingIsLeftToTheIdleTimeout() throws {
        let (channel, _) = try makeChannel()
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive, "a slow but silent client is not cut off by the head deadline")
        #expect(try response(channel) == nil)
    }

    @Test func aHeadTrickledPastTheDeadlineGets408() throws {
        let (channel, recorder) = try makeChannel()
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))  // the deadline starts with the first byte
        for byte in "GET /healthz HTTP/1.1\r\nHost:".utf8 {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(150))
        }
        #expect(channel.isActive, "4.2 s of trickling")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(800))
        #expect(!channel.isActive, "5 s after the first byte")
        let answer = try response(channel)
        #expect(answer?.status == 408)
        #expect(answer.map { errorCode($0.body) } == "request_timeout")
        #expect(recorder.parts.isEmpty)
    }

    @Test func onAKeptAliveConnectionTheDeadlineStartsWithTheFirstByte() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "GET /healthz HTTP/1.1\r\nHost: g\r\n\r\n")
        #expect(recorder.parts == ["head /healthz", "end"])
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok, headerFields: [.contentLength: "0"])))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        _ = try response(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive, "a served connection waits for its next request (the idle timeout's business)")
        try send(channel, "GET /hea")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
        #expect(try response(channel)?.status == 408)
    }

    // MARK: - Early answers drain the body

    @Test func anEarlyAnswerToAClosingRequestDrainsTheRestOfTheBodyThenCloses() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "POST /v1/query?limit=0 HTTP/1.1\r\nConnection: close\r\nContent-Length: 900\r\n\r\n"
            + String(repeating: "a", count: 100))
        #expect(recorder.parts == ["head /v1/query?limit=0", "body 100"])
        // The route answers 400 from the head, before the body has arrived.
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .badRequest, headerFields: [.contentLength: "2"])))
        try channel.writeOutbound(HTTPResponsePart.body(ByteBuffer(string: "{}")))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        let answer = try response(channel)
        #expect(answer?.status == 400)
        #expect(answer?.fields[.connection] == "close", "the client learns the connection ends here")
        #expect(channel.isActive, "still reading: the client may be blocked writing its body")
        try send(channel, String(repeating: "b", count: 500))
        #expect(recorder.parts == ["head /v1/query?limit=0", "body 100"], "the rest is dropped, not handed on")
        try send(channel, String(repeating: "c", count: 300))
        #expect(!channel.isActive, "closed once the whole body has been read")
    }

    @Test func onAKeptAliveConnectionTheServerReadsTheRestAndTheConnectionStays() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "POST /v1/query?limit=0 HTTP/1.1\r\nContent-Length: 10\r\n\r\n")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .badRequest, headerFields: [.contentLength: "0"])))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        let answer = try response(channel)
        #expect(answer?.status == 400)
        #expect(answer?.fields[.connection] == nil)
        try send(channel, "0123456789GET /healthz HTTP/1.1\r\n\r\n")
        #expect(recorder.parts == ["head /v1/query?limit=0", "body 10", "end", "head /healthz", "end"])
        #expect(channel.isActive)
    }

    @Test func aDrainThatOutlivesTheRequestDeadlineIsCutShort() throws {
        let (channel, _) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nContent-Length: 900\r\nContent-Type: text/plain\r\n\r\n")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .unsupportedMediaType)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(try response(channel)?.status == 415)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        let more = try response(channel)
        #expect(more == nil, "nothing more is written after the answer: \(String(describing: more))")
    }

    // MARK: - Limits found in the bytes

    @Test func aChunkSizeOf2To64Minus1IsRefusedAtOnce() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n")
        let answer = try response(channel)
        #expect(answer?.status == 413)
        #expect(answer.map { errorCode($0.body) } == "body_too_large")
        #expect(!channel.isActive)
        #expect(recorder.errors.contains { ($0 as? RequestGuardHandler.Rejection)?.status == 413 },
                "a route reading the body is told it was cut short")
    }

    @Test func parserErrorsGetTheDocumentedJSONBody() throws {
        let cases: [(request: String, code: String)] = [
            ("POST /v1/query HTTP/1.1\r\nContent-Length: abc\r\n\r\n", "malformed_request"),
            ("GARBAGE\r\n\r\n", "malformed_request"),
            ("GET /healthz HTTP/1.1\r\nX-Big: \(String(repeating: "x", count: 2_000))\r\n\r\n", "header_too_large"),
        ]
        for item in cases {
            let (channel, _) = try makeChannel()
            try? send(channel, item.request)
            let answer = try response(channel)
            #expect(answer?.status == 400, "\(item.request.prefix(30))")
            #expect(answer.map { errorCode($0.body) } == item.code)
            #expect(answer?.fields[.contentType]?.hasPrefix("application/json") == true)
            #expect(!channel.isActive)
        }
    }

    @Test func aDeclaredBodyOverTheLimitIsRefusedBeforeItIsRead() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nContent-Length: 5000\r\n\r\n")
        #expect(try response(channel)?.status == 413)
        #expect(recorder.parts.isEmpty)
        #expect(!channel.isActive)
    }
}
