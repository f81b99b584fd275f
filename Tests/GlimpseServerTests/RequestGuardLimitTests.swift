@testable import GlimpseServer
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

/// More of the request guard on an embedded channel: the body deadline and limits, closing after
/// `Connection: close`, `100 Continue`, and what the connection table hears. Time is advanced by hand.
extension RequestGuardTests {
    // MARK: - Body deadline and limits

    @Test func aBodyTrickledPastTheRequestDeadlineGets408() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nContent-Length: 1000\r\n\r\n")
        for _ in 0..<300 {
            // A byte every 100 ms: each one would keep an idle timer from firing.
            try channel.writeInbound(ByteBuffer(bytes: [0xFF]))
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
            if !channel.isActive { break }
        }
        #expect(!channel.isActive, "30 s after the head")
        let answer = try response(channel)
        #expect(answer?.status == 408)
        #expect(answer.map { errorCode($0.body) } == "request_timeout")
        #expect(answer?.fields[.connection] == "close")
        #expect(recorder.parts.count == 301, "every byte until the deadline was handed on: \(recorder.parts.count)")
        #expect(recorder.errors.contains { ($0 as? RequestGuardHandler.Rejection)?.status == 408 },
                "the route reading the body is told it was cut short")
    }

    @Test func theBodyDeadlineRunsFromTheHeadNotFromTheLastByte() throws {
        let (channel, _) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nContent-Length: 10\r\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(29_999))
        try send(channel, "01234")
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
        #expect(try response(channel)?.status == 408)
    }

    @Test func aWholeRequestHasNoDeadlineWhileItIsAnswered() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789")
        #expect(recorder.parts == ["head /v1/query", "body 10", "end"])
        channel.embeddedEventLoop.advanceTime(by: .seconds(120))
        #expect(channel.isActive, "a slow answer is the server's business, not the client's")
        #expect(try response(channel) == nil)
    }

    @Test func chunksThatTogetherPassTheLimitAreRefusedWhenTheSizeLineArrives() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        try send(channel, "258\r\n" + String(repeating: "a", count: 600) + "\r\n")
        #expect(channel.isActive, "600 bytes of 1000")
        try send(channel, "1F4\r\n")
        let answer = try response(channel)
        #expect(answer?.status == 413, "500 more would make 1100, before any of them arrives")
        #expect(answer.map { errorCode($0.body) } == "body_too_large")
        #expect(!channel.isActive)
        #expect(recorder.errors.contains { ($0 as? RequestGuardHandler.Rejection)?.status == 413 })
    }

    @Test func aBodyWithoutALengthIsRefusedAsItGrowsPastTheLimit() throws {
        // Request parts straight into the guard, as when the raw bytes no longer tell the chunk sizes.
        let channel = finishedAtEnd(EmbeddedChannel())
        let recorder = Recorder()
        try channel.pipeline.syncOperations.addHandler(RequestGuardHandler(limits: Self.limits) { _ in })
        try channel.pipeline.syncOperations.addHandler(recorder)
        let framing = try channel.pipeline.syncOperations.handler(type: RequestFramingHandler.self)
        try channel.pipeline.syncOperations.removeHandler(framing).wait()
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/guard")).wait()

        let head = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/query")
        try channel.writeInbound(HTTPRequestPart.head(head))
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x61, count: 600)))
        #expect(try response(channel) == nil)
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x61, count: 401)))
        let answer = try response(channel)
        #expect(answer?.status == 413)
        #expect(answer.map { errorCode($0.body) } == "body_too_large")
        #expect(!channel.isActive)
        #expect(recorder.parts == ["head /v1/query", "body 600"], "the part past the limit is not handed on")
        #expect(recorder.errors.contains { ($0 as? RequestGuardHandler.Rejection)?.status == 413 })
    }

    // MARK: - Closing, continuing, reporting

    @Test func aResponseWithConnectionCloseEndsTheConnectionOnceWritten() throws {
        let (channel, recorder) = try makeChannel()
        try send(channel, "GET /healthz HTTP/1.1\r\nHost: g\r\n\r\n")
        let head = HTTPResponse(status: .ok, headerFields: [.connection: "close"])
        try channel.writeOutbound(HTTPResponsePart.head(head))
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(try response(channel)?.status == 200)
        #expect(!channel.isActive)
        #expect(recorder.errors.isEmpty, "nothing was cut short")
    }

    @Test func continueIsSentOnlyWhileTheBodyIsAwaitedAndUnanswered() throws {
        let (channel, _) = try makeChannel()
        try send(channel, "POST /v1/query HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n")
        RequestGuardHandler.sendContinue(on: channel)
        channel.embeddedEventLoop.run()
        guard case .head(let interim) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no 100 Continue")
            return
        }
        #expect(interim.status == .continue)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .serviceUnavailable)))
        RequestGuardHandler.sendContinue(on: channel)
        channel.embeddedEventLoop.run()
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(try response(channel)?.status == 503)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil, "no 100 after the answer has started")
    }

    @Test func theConnectionTableHearsWhenTheConnectionIsBusyAndWhenItWaits() throws {
        let registry = ConnectionRegistry(maxConnections: 1, evictionAge: .milliseconds(500))
        let (channel, _) = try makeChannel(registry: registry)
        registry.opened(channel)
        // With one connection allowed, a new one is accepted only if this one can be evicted: waiting
        // for a head for half a second (the table is asked about a time a second ahead).
        let later = { NIODeadline.now() + .seconds(1) }
        #expect(registry.room(now: later()) == .accept, "a connection waiting for its first head can be evicted")
        try send(channel, "POST /v1/query HTTP/1.1\r\nContent-Length: 10\r\n\r\n")
        #expect(registry.room(now: later()) == .waitUntil(nil), "busy with a request")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .badRequest)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(registry.room(now: later()) == .waitUntil(nil), "answered, but its body is still being read")
        try send(channel, "0123456789")
        #expect(registry.room(now: later()) == .accept, "waiting for its next head")
    }
}
