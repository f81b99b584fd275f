import NIOCore

/// Keeps the listening socket open until every connection it accepted has been handed to the server.
///
/// The listener hands each accepted connection to the server only after setting the connection up on
/// its own event loop. If the listener closes during that set-up, the connection is dropped and its
/// unfinished writer traps the process (a known SwiftNIO limitation of async server channels). A
/// client connecting at the moment of SIGTERM could so crash the daemon. These two handlers close
/// that window: the first, at the head of the listener's pipeline, counts connections entering set-up
/// and holds a close request while any is pending (reading no further connections meanwhile); the
/// second, at the tail, sees each connection come out of set-up and releases the held close when none
/// is left. A connection whose set-up fails is closed, and its close also ends its wait. The close is
/// never held longer than `maximumHold`.
///
/// Holding the close lets such a connection reach the server, but not the quiesce signal of graceful
/// shutdown: the signal goes to every accepted connection at once, on the connection's event loop, and
/// one still in set-up may get it before its handlers are in place. Nothing then holds it for the first
/// request (``FirstRequestGraceHandler``) or closes the connection after that request: it stays open,
/// serving more requests, and holds the shutdown up until its idle timeout. So once the listener has
/// been asked to quiesce, the tail handler sends the signal again to each connection it hands on,
/// behind that connection's set-up.
enum ListenerHandoff {
    /// Adds the two handlers to `listener`'s pipeline. Call once, after the server is bound.
    static func install(on listener: any Channel, maximumHold: Duration = .seconds(2)) async throws {
        try await listener.eventLoop.submit {
            let state = HandoffState()
            let operations = listener.pipeline.syncOperations
            try operations.addHandler(AcceptedConnectionGate(state: state, maximumHold: maximumHold), position: .first)
            try operations.addHandler(HandedOffConnectionObserver(state: state), position: .last)
        }.get()
    }

    /// What both handlers share; used on the listener's event loop only.
    final class HandoffState {
        /// The connections accepted and not yet handed to the server.
        var pending: Set<ObjectIdentifier> = []
        /// The close request waiting for ``pending`` to empty.
        var heldClose: (release: () -> Void, timeout: Scheduled<Void>)?
        /// Whether the listener has been asked to quiesce (graceful shutdown has begun).
        var quiescing = false

        /// Marks `connection` as out of set-up; releases a held close when it was the last one.
        func finished(_ connection: ObjectIdentifier) {
            pending.remove(connection)
            guard pending.isEmpty, let held = heldClose else { return }
            heldClose = nil
            held.timeout.cancel()
            held.release()
        }
    }

    /// At the head of the listener's pipeline: counts accepted connections and holds a close.
    final class AcceptedConnectionGate: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        typealias OutboundIn = Any
        typealias OutboundOut = Any

        private let state: HandoffState
        private let maximumHold: Duration
        private var closing = false

        init(state: HandoffState, maximumHold: Duration) {
            self.state = state
            self.maximumHold = maximumHold
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let connection = unwrapInboundIn(data)
            let id = ObjectIdentifier(connection)
            state.pending.insert(id)
            let loopBound = NIOLoopBound(state, eventLoop: context.eventLoop)
            let listenerLoop = context.eventLoop
            connection.closeFuture.whenComplete { _ in
                listenerLoop.execute { loopBound.value.finished(id) }
            }
            context.fireChannelRead(data)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelShouldQuiesceEvent { state.quiescing = true }
            context.fireUserInboundEventTriggered(event)
        }

        func read(context: ChannelHandlerContext) {
            guard !closing else { return }  // no new connections while the close waits
            context.read()
        }

        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            guard mode == .all, !closing, !state.pending.isEmpty else {
                context.close(mode: mode, promise: promise)
                return
            }
            closing = true
            // Released from a later turn of the event loop: the connection that ends the wait is still
            // on its way into the server when the observer sees it.
            let loop = context.eventLoop
            let loopBound = NIOLoopBound(context, eventLoop: loop)
            let release = { loop.execute { loopBound.value.close(mode: mode, promise: promise) } }
            let stateBound = NIOLoopBound(state, eventLoop: context.eventLoop)
            let timeout = context.eventLoop.scheduleTask(in: TimeAmount(maximumHold)) {
                let state = stateBound.value
                guard let held = state.heldClose else { return }
                state.heldClose = nil
                held.release()
            }
            state.heldClose = (release, timeout)
        }
    }

    /// At the tail of the listener's pipeline: sees each connection handed to the server, and sends it
    /// the quiesce signal again when shutdown has begun.
    final class HandedOffConnectionObserver: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel

        private let state: HandoffState

        init(state: HandoffState) {
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let connection = unwrapInboundIn(data)
            state.finished(ObjectIdentifier(connection))
            context.fireChannelRead(data)
            guard state.quiescing else { return }
            // Queued on the connection's loop behind its registration, which passing the read on has just
            // queued there; its handlers are in place. A connection that had the signal already is
            // unaffected by a second one.
            connection.eventLoop.execute {
                connection.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
        }
    }
}
