import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// A per-connection channel handler that enforces the body limit and the request deadline before
/// any request reaches the router.
///
/// It sits after HTTP decoding and:
/// - answers `413` and closes the connection when `Content-Length` exceeds the body limit, without
///   passing the request on or reading its body;
/// - answers `413` and closes when a body without a length grows past the limit;
/// - answers `408` and closes when a request body is still arriving at its deadline;
/// - closes the connection after any response carrying `Connection: close`.
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

    private let maxBodyBytes: Int
    private let requestDeadline: Duration
    private let onReject: @Sendable (APIError) -> Void
    /// Whether this connection's client is still there; marked gone on end of input or close.
    let presence = ClientPresence()
    private var bodyBytes = 0
    private var readingBody = false
    private var discarding = false
    private var responseInProgress = false
    private var closeAfterResponse = false
    private var deadline: Scheduled<Void>?

    /// Creates a guard.
    /// - Parameters:
    ///   - onReject: called on the event loop for each request the guard answers itself (for metrics).
    init(maxBodyBytes: Int, requestDeadline: Duration, onReject: @escaping @Sendable (APIError) -> Void) {
        self.maxBodyBytes = maxBodyBytes
        self.requestDeadline = requestDeadline
        self.onReject = onReject
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            bodyBytes = 0
            if let lengthText = head.headerFields[.contentLength], let length = Int(lengthText), length > maxBodyBytes {
                discarding = true
                reject(context: context, error: .bodyTooLarge(limit: maxBodyBytes, declared: length))
                return
            }
            readingBody = true
            scheduleDeadline(context: context)
            context.fireChannelRead(data)
        case .body(let buffer):
            guard !discarding else { return }
            bodyBytes += buffer.readableBytes
            if bodyBytes > maxBodyBytes {
                discarding = true
                reject(context: context, error: .bodyTooLarge(limit: maxBodyBytes, declared: nil))
                return
            }
            context.fireChannelRead(data)
        case .end:
            guard !discarding else { return }
            readingBody = false
            cancelDeadline()
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            responseInProgress = true
            if head.headerFields[.connection]?.lowercased() == "close" {
                closeAfterResponse = true
            }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            responseInProgress = false
            guard closeAfterResponse else {
                context.write(data, promise: promise)
                return
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            let channel = context.channel
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
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

    // MARK: - Private

    private func scheduleDeadline(context: ChannelHandlerContext) {
        cancelDeadline()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(requestDeadline)) {
            let (handler, context) = loopBound.value
            handler.deadline = nil
            guard handler.readingBody else { return }
            handler.discarding = true
            handler.reject(context: context, error: .requestTimeout(deadline: handler.requestDeadline))
        }
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }

    /// Answers `error` (unless a response is already on its way), tells readers of the current body
    /// that it was cut short, and closes the connection.
    private func reject(context: ChannelHandlerContext, error: APIError) {
        readingBody = false
        cancelDeadline()
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
        context.fireErrorCaught(Rejection(status: error.status.code))
    }
}
