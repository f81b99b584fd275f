// Feeds the raw bytes a client sends on one daemon connection through the daemon's HTTP/1.1 pipeline on
// an embedded channel: NIO's request decoder and response encoder set up as Hummingbird does, the
// HTTPTypes codec, the daemon's own per-connection handlers (request framing, request guard, first-request
// grace: GlimpseServer.connectionHandlersForFuzzing) and, in place of the router, a responder that
// answers each request (early, before its body, for paths starting /early). The first byte sets how the
// rest arrives: in pieces of 1–32 bytes with 0, 0.1, 1 or 6 s of virtual time between them, with or
// without a graceful-shutdown signal and a half-close at the end. Everything written back must be HTTP
// responses, and nothing may reach the end of the pipeline unhandled.
import FuzzSupport
@_spi(Fuzzing) import GlimpseServer
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Small limits, so that inputs of a few kilobytes reach every limit.
let limits = ServerLimits(maxBodyBytes: 2_048, maxHeaderBytes: 1_024, headerTimeout: .seconds(5),
                          requestDeadline: .seconds(10), firstRequestGrace: .seconds(2))

/// Stands in for the router: answers each request once its body has ended (or at its head, for paths
/// starting `/early`), closing afterwards when the request asked to; closes an idle connection on a
/// graceful-shutdown signal.
final class Responder: ChannelInboundHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private var answered = false
    private var inRequest = false
    private var asksClose = false
    private var quiescing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            inRequest = true
            answered = false
            asksClose = head.headerFields[.connection]?.lowercased() == "close"
            if head.path?.hasPrefix("/early") == true { answer(context: context, status: .badRequest) }
        case .body:
            break
        case .end:
            if !answered { answer(context: context, status: .ok) }
            inRequest = false
            if quiescing { context.close(promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        quiescing = true
        if !inRequest { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func answer(context: ChannelHandlerContext, status: HTTPResponse.Status) {
        answered = true
        var fields: HTTPFields = [.contentLength: "2"]
        if asksClose || quiescing { fields[.connection] = "close" }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(string: "ok"))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// Virtual time between pieces.
let pauses: [TimeAmount] = [.zero, .milliseconds(100), .seconds(1), .seconds(6)]

func run(_ bytes: [UInt8]) throws {
    guard let mode = bytes.first else { return }
    let pieceSize = Int(mode & 0x1F) + 1
    let pause = pauses[Int(mode >> 5) & 3]
    let quiesce = mode & 0x80 != 0

    let channel = EmbeddedChannel()
    var decoderLimits = NIOHTTPDecoderLimitConfiguration()
    decoderLimits.maxHeaderFieldSize = limits.maxHeaderBytes
    decoderLimits.maxHeaderListSize = limits.maxHeaderBytes
    let pipeline = channel.pipeline.syncOperations
    try pipeline.configureHTTPServerPipeline(
        withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
        withEncoderConfiguration: .init(), withDecoderLimitConfiguration: decoderLimits)
    try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
    try pipeline.addHandlers(GlimpseServer.connectionHandlersForFuzzing(limits: limits))
    try pipeline.addHandler(Responder())
    try channel.connect(to: SocketAddress(unixDomainSocketPath: "/fuzz.sock")).wait()

    var output: [UInt8] = []
    func collect() throws {
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { output += buffer.readableBytesView }
    }
    var offset = 1
    while offset < bytes.count, channel.isActive {
        let end = min(offset + pieceSize, bytes.count)
        try channel.writeInbound(ByteBuffer(bytes: bytes[offset..<end]))
        offset = end
        channel.embeddedEventLoop.advanceTime(by: pause)
        if quiesce, offset >= bytes.count / 2 {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        try collect()
    }
    if channel.isActive, quiesce {
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    }
    channel.embeddedEventLoop.advanceTime(by: .seconds(60))
    try collect()
    FuzzCheck.require(output.isEmpty || output.starts(with: Array("HTTP/1.1 ".utf8)),
                      "the connection wrote something other than a response: \(String(decoding: output.prefix(40), as: UTF8.self))")
    _ = try? channel.finish(acceptAlreadyClosed: true)
}

FuzzTarget.run { bytes in
    do {
        try run(bytes)
    } catch {
        fatalError("fuzz check failed: \(error)")
    }
}
