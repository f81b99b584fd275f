import HTTPTypes
import NIOCore
import NIOHTTPTypes

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
///
/// The decisions are ``RequestGuardState``'s: this handler feeds it the connection's events with the
/// event loop's time, carries out the actions it returns, keeps one timer at its ``RequestGuardState/deadline``
/// and reports its ``RequestGuardState/activity``.
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The limits the guard enforces.
    typealias Limits = RequestGuardState.Limits

    /// The error fired into the pipeline when a request is cut short.
    struct Rejection: Error, Equatable {
        /// The status the client was sent.
        var status: Int
    }

    private let registry: ConnectionRegistry?
    private let onReject: @Sendable (APIError) -> Void
    /// Whether this connection's client is still there; marked gone on end of input or close.
    let presence = ClientPresence()

    private var state: RequestGuardState
    private var context: ChannelHandlerContext?
    /// The timer set for the state's deadline, and that deadline.
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    /// The activity last reported to the registry (the listener registers a connection as awaiting its
    /// first head).
    private var reportedActivity = ConnectionTable<ObjectIdentifier>.Activity.awaitingFirstHead

    /// Creates a guard.
    /// - Parameters:
    ///   - registry: the connection table to report to (`nil`: none).
    ///   - onReject: called on the event loop for each request the guard answers itself (for metrics).
    init(limits: Limits, registry: ConnectionRegistry? = nil, onReject: @escaping @Sendable (APIError) -> Void) {
        self.state = RequestGuardState(limits: limits)
        self.registry = registry
        self.onReject = onReject
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let framing = RequestFramingHandler(guardHandler: self, maxBodyBytes: state.limits.maxBodyBytes)
        try? context.pipeline.syncOperations.addHandler(framing, position: .first)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let action = switch unwrapInboundIn(data) {
        case .head(let head): state.receivedHead(head, now: context.eventLoop.now)
        case .body(let buffer): state.receivedBody(count: buffer.readableBytes)
        case .end: state.receivedEnd()
        }
        perform(action, part: data, context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // While draining, nothing downstream reads the body: keep reading it here.
        if state.isDraining { context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational:
            let head = state.writingResponseHead(head)
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            let action = state.writingResponseEnd()
            followState(context: context)
            switch action {
            case .write:
                context.write(data, promise: promise)
            case .writeThenClose:
                let channel = context.channel
                writeAndFlush(data, promise: promise, context: context)
                    .whenComplete { _ in channel.close(promise: nil) }
            case .writeThenDrain:
                // Read the rest of the body, then close (bounded by the body limit and the deadline).
                _ = writeAndFlush(data, promise: promise, context: context)
                context.read()
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let refusal = RequestGuardState.Refusal(decoderError: error) else {
            context.fireErrorCaught(error)
            return
        }
        // Answered here, with the documented JSON body; the decoder reads nothing more.
        perform(state.parseFailed(refusal), part: nil, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.connectionClosed()
        cancelTimer()
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
                let context = handler.context, handler.state.mayContinue
            else { return }
            context.writeAndFlush(handler.wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
    }

    // MARK: - From the framing handler

    /// The first byte of a request head arrived.
    func headStarted() {
        guard let context else { return }
        state.headStarted(now: context.eventLoop.now)
        followState(context: context)
    }

    /// A chunk declared a size that takes the body past the limit.
    func chunkTooLarge(declared: UInt64?) {
        guard let context else { return }
        perform(state.chunkTooLarge(declared: declared), part: nil, context: context)
    }

    // MARK: - Private

    /// Carries out `action` about `part` (a request part read, or `nil` for an event without one).
    private func perform(_ action: RequestGuardState.Action, part: NIOAny?, context: ChannelHandlerContext) {
        followState(context: context)
        switch action {
        case .forward:
            if let part { context.fireChannelRead(part) }
        case .ignore:
            break
        case .close:
            context.close(promise: nil)
        case .refuse(let refusal, let answer, let tellReader):
            refuse(refusal, answer: answer, tellReader: tellReader, context: context)
        }
    }

    /// Answers `refusal` (when `answer`), tells readers of the current body that it was cut short (when
    /// `tellReader`), and closes the connection.
    private func refuse(
        _ refusal: RequestGuardState.Refusal, answer: Bool, tellReader: Bool, context: ChannelHandlerContext
    ) {
        let error = refusal.apiError(limits: state.limits)
        onReject(error)
        let channel = context.channel
        if answer {
            var fields = error.headers
            fields[.contentType] = "application/json; charset=utf-8"
            let body = error.jsonBody
            fields[.contentLength] = String(body.readableBytes)
            fields[.connection] = "close"
            let head = HTTPResponse(status: error.status, headerFields: fields)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil, context: context)
                .whenComplete { _ in channel.close(promise: nil) }
        } else {
            channel.close(promise: nil)
        }
        if tellReader { context.fireErrorCaught(Rejection(status: error.status.code)) }
    }

    /// Writes and flushes `data`, completing `promise` too; returns when it is written.
    private func writeAndFlush(
        _ data: NIOAny, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext
    ) -> EventLoopFuture<Void> {
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.cascade(to: promise)
        context.writeAndFlush(data, promise: written)
        return written.futureResult
    }

    /// Brings the timer and the registry in line with the state: one timer at its deadline, and its
    /// activity reported when it changes.
    private func followState(context: ChannelHandlerContext) {
        if let activity = state.activity, activity != reportedActivity {
            reportedActivity = activity
            registry?.set(ObjectIdentifier(context.channel), activity)
        }
        let deadline = state.deadline
        guard deadline != timer?.deadline else { return }
        cancelTimer()
        guard let deadline else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.perform(handler.state.deadlinePassed(now: context.eventLoop.now), part: nil, context: context)
        }
        timer = (task, deadline)
    }

    /// Cancels the timer, if one is set.
    private func cancelTimer() {
        timer?.task.cancel()
        timer = nil
    }
}
