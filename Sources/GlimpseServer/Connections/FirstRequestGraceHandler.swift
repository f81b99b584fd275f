import NIOCore
import NIOHTTPTypes

/// A per-connection channel handler that gives a connection accepted before shutdown the chance to
/// send its first request.
///
/// On graceful shutdown the server asks every connection to quiesce, and a connection with no request
/// in progress is closed at once. A client that connected just before the signal has usually written
/// its request already, but the daemon may not have read it yet; closing then resets the connection
/// and loses a request the client had sent in time. So, for a connection that has not yet delivered
/// a request head, this handler holds the quiesce signal until the head arrives (then passes it on
/// behind the head, so the request is answered and the connection closed after it) or until `grace`
/// has passed since the signal (then passes it on, closing a connection that never spoke).
/// Connections that have already sent a request get the signal at once, as before.
///
/// It sits after HTTP decoding and before the connection-state handler that acts on the signal. The
/// decisions are ``FirstRequestGrace``'s; this handler feeds it events with the event loop's time.
final class FirstRequestGraceHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private var state: FirstRequestGrace
    private var heldQuiesce: Scheduled<Void>?

    /// Creates a handler that holds the quiesce signal for at most `grace`.
    init(grace: Duration) {
        self.state = FirstRequestGrace(grace: grace)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        guard case .head = unwrapInboundIn(data), state.receivedHead() else { return }
        cancelHeldQuiesce()
        context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch state.quiesceRequested(now: context.eventLoop.now) {
        case .passOn:
            context.fireUserInboundEventTriggered(event)
        case .ignore:
            break
        case .hold:
            guard let deadline = state.deadline else { return }
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            heldQuiesce = context.eventLoop.scheduleTask(deadline: deadline) {
                let (handler, context) = loopBound.value
                handler.heldQuiesce = nil
                guard handler.state.deadlinePassed(now: context.eventLoop.now) else { return }
                context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.connectionClosed()
        cancelHeldQuiesce()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelHeldQuiesce()
    }

    /// Cancels the timer of a held signal, if one is set.
    private func cancelHeldQuiesce() {
        heldQuiesce?.cancel()
        heldQuiesce = nil
    }
}
