import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// A per-connection channel handler that enforces the request limits before any request reaches the
/// router, and makes sure every client that is refused sees its answer.
///
/// It sits after HTTP decoding (with a ``RequestFramingHandler`` it places ahead of the decoder) and:
/// - answers `408` and closes when a request head is not complete within the head deadline of its
///   first byte (a connection that sends nothing is left to the idle timeout, and at the connection
///   cap to eviction);
/// - answers `413` and closes the connection when `Content-Length` exceeds the body limit, without
///   passing the request on or reading its body; the same when a chunk declares a size past the limit
///   (as soon as its size line arrives) or a body without a length grows past it;
/// - answers `408` and closes when a request body is still arriving at its deadline;
/// - answers a request the HTTP decoder cannot parse (bad request line, bad `Content-Length`, a head
///   over the size limit) with a JSON `400` and closes;
/// - when a response is sent before its request's body has arrived (an early error, a `503`), lets the
///   rest of that body be read and discarded (bounded by the body limit and the request deadline), so
///   a client that writes its whole body before reading is not left blocked and sees the answer: on a
///   kept-alive connection the server reads it before the next request; when the request asked to
///   close (`Connection: close`), nothing downstream reads any more, so the guard drains it itself and
///   then closes;
/// - closes the connection after any response carrying `Connection: close`;
/// - tells the ``ConnectionRegistry`` when the connection waits for a head and when it is busy.
///
/// When it cuts a request short it also fires ``RequestGuardHandler/Rejection`` down the pipeline,
/// so a handler already reading that body gets an error rather than a truncated body.
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The error fired into the pipeline when a request is cut short.
    struct Rejection: Error, Equatable {
        /// The status the client was sent.
        var status: Int
    }

    /// The limits the guard enforces.
    struct Limits: Sendable {
        var maxBodyBytes: Int
        var maxHeaderBytes: Int
        var headerTimeout: Duration
        var requestDeadline: Duration
    }

    private let limits: Limits
    private let registry: ConnectionRegistry?
    private let onReject: @Sendable (APIError) -> Void
    /// Whether this connection's client is still there; marked gone on end of input or close.
    let presence = ClientPresence()

    private var context: ChannelHandlerContext?
    private var bodyBytes = 0
    /// A request head has arrived and its body has not all arrived yet.
    private var readingBody = false
    /// A request is in progress (from its head to the end of its response).
    private var requestInProgress = false
    private var discarding = false
    /// The response went out before the body arrived: the rest of the body is read and dropped.
    private var draining = false
    /// The current request was answered before its body had all arrived.
    private var answeredEarly = false
    /// The current request asked for the connection to close after it.
    private var requestAsksClose = false
    private var responseInProgress = false
    private var closeAfterResponse = false
    private var closing = false
    private var servedOne = false
    /// Bytes of the next request head have arrived (reported by the framing handler).
    private var headBytesSeen = false
    private var deadline: Scheduled<Void>?
    private var headDeadline: Scheduled<Void>?

    /// Creates a guard.
    /// - Parameters:
    ///   - registry: the connection table to report to (`nil`: none).
    ///   - onReject: called on the event loop for each request the guard answers itself (for metrics).
    init(limits: Limits, registry: ConnectionRegistry? = nil, onReject: @escaping @Sendable (APIError) -> Void) {
        self.limits = limits
        self.registry = registry
        self.onReject = onReject
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let framing = RequestFramingHandler(guardHandler: self, maxBodyBytes: limits.maxBodyBytes)
        try? context.pipeline.syncOperations.addHandler(framing, position: .first)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            cancelHeadDeadline()
            headBytesSeen = false
            bodyBytes = 0
            draining = false
            answeredEarly = false
            requestInProgress = true
            requestAsksClose = head.headerFields[.connection]?.lowercased() == "close"
            registry?.set(ObjectIdentifier(context.channel), .busy)
            if let lengthText = head.headerFields[.contentLength], let length = Int(lengthText), length > limits.maxBodyBytes {
                discarding = true
                reject(context: context, error: .bodyTooLarge(limit: limits.maxBodyBytes, declared: length))
                return
            }
            readingBody = true
            scheduleDeadline(context: context)
            context.fireChannelRead(data)
        case .body(let buffer):
            guard !discarding else { return }
            bodyBytes += buffer.readableBytes
            if bodyBytes > limits.maxBodyBytes {
                if answeredEarly {
                    closeNow(context: context)
                    return
                }
                discarding = true
                reject(context: context, error: .bodyTooLarge(limit: limits.maxBodyBytes, declared: nil))
                return
            }
            guard !draining else { return }
            context.fireChannelRead(data)
        case .end:
            guard !discarding else { return }
            readingBody = false
            cancelDeadline()
            if draining {
                closeNow(context: context)
                return
            }
            if !responseInProgress && !requestInProgress { markWaiting(context: context) }
            context.fireChannelRead(data)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // While draining, nothing downstream reads the body: keep reading it here.
        if draining { context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            guard head.status.kind != .informational else {
                context.write(data, promise: promise)
                return
            }
            responseInProgress = true
            if readingBody && requestAsksClose {
                // An early answer to a request that ends the connection: say so (the body is drained first).
                head.headerFields[.connection] = "close"
            }
            if head.headerFields[.connection]?.lowercased() == "close" {
                closeAfterResponse = true
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            responseInProgress = false
            requestInProgress = false
            servedOne = true
            if readingBody { answeredEarly = true }
            guard closeAfterResponse else {
                context.write(data, promise: promise)
                if !readingBody { markWaiting(context: context) }
                return
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            if readingBody && !discarding {
                // Drain what is left of the body, then close (bounded by the body limit and the deadline).
                draining = true
                context.read()
                return
            }
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let apiError: APIError
        switch error {
        case let parserError as HTTPParserError:
            if case .headerOverflow = parserError {
                apiError = .headerTooLarge(limit: limits.maxHeaderBytes)
            } else {
                apiError = .malformedRequest(Self.describe(parserError))
            }
        case let conversionError as HTTP1TypeConversionError:
            apiError = .malformedRequest("\(conversionError)")
        default:
            context.fireErrorCaught(error)
            return
        }
        // Answered here, with the documented JSON body; the decoder reads nothing more. (Once the guard
        // is closing the connection itself, the decoder's complaint about the cut-off input is moot.)
        guard !closing else { return }
        discarding = true
        reject(context: context, error: apiError)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
        cancelHeadDeadline()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        cancelHeadDeadline()
        presence.markGone()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            presence.markGone()
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The presence of the client on `channel`, looked up on its event loop; `nil` when the channel is
    /// open but has no guard. A channel that has already closed has lost its handlers: its client has
    /// gone, and the presence returned says so, so work for it does not start.
    static func presence(on channel: any Channel) async -> ClientPresence? {
        let found = try? await channel.eventLoop.submit { () -> ClientPresence? in
            if let handler = try? channel.pipeline.syncOperations.handler(type: RequestGuardHandler.self) {
                return handler.presence
            }
            guard !channel.isActive else { return nil }
            let gone = ClientPresence()
            gone.markGone()
            return gone
        }.get()
        return found ?? nil
    }

    /// Sends `100 Continue` on `channel` when its current request asked for it (`Expect: 100-continue`)
    /// and no answer has started: the client may now send the body.
    static func sendContinue(on channel: any Channel) {
        channel.eventLoop.execute {
            guard let handler = try? channel.pipeline.syncOperations.handler(type: RequestGuardHandler.self),
                let context = handler.context, handler.readingBody, !handler.responseInProgress
            else { return }
            context.writeAndFlush(handler.wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
    }

    // MARK: - From the framing handler

    /// The first byte of a request head arrived.
    func headStarted() {
        guard let context, !requestInProgress else { return }
        headBytesSeen = true
        if headDeadline == nil { startHeadDeadline(context: context) }
    }

    /// A chunk declared a size that takes the body past the limit.
    func chunkTooLarge(declared: UInt64?) {
        guard let context, !closing else { return }
        readingBody = true
        discarding = true
        reject(context: context, error: .chunkTooLarge(limit: limits.maxBodyBytes, declared: declared))
    }

    // MARK: - Private

    private func markWaiting(context: ChannelHandlerContext) {
        registry?.set(ObjectIdentifier(context.channel), servedOne ? .awaitingNextHead : .awaitingFirstHead)
    }

    private func startHeadDeadline(context: ChannelHandlerContext) {
        cancelHeadDeadline()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        headDeadline = context.eventLoop.scheduleTask(in: TimeAmount(limits.headerTimeout)) {
            let (handler, context) = loopBound.value
            handler.headDeadline = nil
            guard !handler.requestInProgress, !handler.closing, handler.headBytesSeen else { return }
            handler.readingBody = true
            handler.discarding = true
            handler.reject(context: context, error: .headerTimeout(deadline: handler.limits.headerTimeout))
        }
    }

    private func cancelHeadDeadline() {
        headDeadline?.cancel()
        headDeadline = nil
    }

    private func scheduleDeadline(context: ChannelHandlerContext) {
        cancelDeadline()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(limits.requestDeadline)) {
            let (handler, context) = loopBound.value
            handler.deadline = nil
            guard handler.readingBody else { return }
            if handler.answeredEarly {
                handler.closeNow(context: context)
                return
            }
            handler.discarding = true
            handler.reject(context: context, error: .requestTimeout(deadline: handler.limits.requestDeadline))
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }

    private func closeNow(context: ChannelHandlerContext) {
        closing = true
        draining = false
        cancelDeadline()
        cancelHeadDeadline()
        context.close(promise: nil)
    }

    /// Answers `error` (unless a response is already on its way), tells readers of the current body
    /// that it was cut short, and closes the connection.
    private func reject(context: ChannelHandlerContext, error: APIError) {
        readingBody = false
        closing = true
        cancelDeadline()
        cancelHeadDeadline()
        onReject(error)
        let channel = context.channel
        let close: @Sendable (Result<Void, any Error>) -> Void = { _ in channel.close(promise: nil) }
        if !responseInProgress {
            responseInProgress = true
            var fields = error.headers
            fields[.contentType] = "application/json; charset=utf-8"
            let body = error.jsonBody
            fields[.contentLength] = String(body.readableBytes)
            fields[.connection] = "close"
            context.write(wrapOutboundOut(.head(HTTPResponse(status: error.status, headerFields: fields))), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            let written = context.eventLoop.makePromise(of: Void.self)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
            written.futureResult.whenComplete(close)
        } else {
            channel.close(promise: nil)
        }
        if requestInProgress { context.fireErrorCaught(Rejection(status: error.status.code)) }
    }

    private static func describe(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidContentLength, .unexpectedContentLength: "a bad Content-Length"
        case .invalidMethod: "an unknown method"
        case .invalidURL: "a bad request target"
        case .invalidVersion: "a bad HTTP version"
        case .invalidHeaderToken, .invalidConstant: "a malformed request line or header field"
        case .invalidChunkSize: "a bad chunk size"
        default: "\(error)"
        }
    }
}
