import Foundation
import GlimpseTestSupport
@testable import GlimpseServer
import NIOCore
import Synchronization
import Testing

/// A connection the daemon accepted but had not finished setting up when graceful shutdown began: it is
/// answered, and then closed like every other connection at shutdown.
@Suite("Connection set-up at shutdown")
struct ConnectionSetUpAtShutdownTests {
    private static let health = "GET /healthz HTTP/1.1\r\nHost: glimpse\r\n\r\n"

    // The window is forced, not waited for. The test holds the accepted connection in the listener's
    // pipeline just before NIO's AcceptHandler (which starts the set-up on the connection's event loop),
    // and lets it go from the listener's event loop right after the listener has sent the quiesce
    // signal to every accepted connection, this one included, whose handlers are not there yet. That
    // is where a connection accepted at the moment of SIGTERM is when its set-up is slow. Without the
    // signal sent again after the set-up, the connection was answered and then kept open, serving
    // more requests after shutdown (until its idle timeout).
    @Test func aConnectionStillBeingSetUpWhenShutdownBeginsIsAnsweredThenClosed() async throws {
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(
                idleTimeout: .seconds(600), headerTimeout: .seconds(600), firstRequestGrace: .seconds(600)))
        let listener = try #require(daemon.server.listener)
        let probe = HoldProbe()
        try await listener.eventLoop.submit {
            let operations = listener.pipeline.syncOperations
            let accept = try operations.context(name: "AcceptHandler").handler
            let hold = HoldAcceptedConnections(probe: probe)
            try operations.addHandler(hold, position: .before(accept))
            try operations.addHandler(ReleaseAtQuiesce(hold: hold), position: .first)
        }.get()

        // A read timeout that only bounds a hang: a suite on 2 busy cores can hold the shutdown off for minutes.
        let client = try RawConnection(path: daemon.socketPath, readTimeout: .seconds(600))
        #expect(client.send(Self.health), "the request is written before shutdown begins")
        #expect(await probe.waitUntilHolding(), "the daemon accepted the connection")
        await daemon.beginShutdown()

        let answer = await offThread { client.readResponse() }
        #expect(answer?.status == 200, "a connection accepted before shutdown is answered")
        #expect(probe.released, "and was let go at the quiesce signal")
        let second = await offThread { client.send(Self.health) ? client.readResponse() : nil }
        #expect(second == nil, "then closed, not kept open to serve more")
        client.close()
        try await daemon.waitUntilStopped()
    }
}

/// What the test reads of the hold, from any thread.
private final class HoldProbe: Sendable {
    private let heldCount = Atomic<Int>(0)
    private let releasedFlag = Atomic<Bool>(false)

    /// Whether the held connections have been let go.
    var released: Bool { releasedFlag.load(ordering: .acquiring) }

    /// Records a connection held.
    func held() { heldCount.add(1, ordering: .releasing) }

    /// Records that the held connections were let go.
    func release() { releasedFlag.store(true, ordering: .releasing) }

    /// Waits until a connection is held; false after 60 s (a guard against hanging only).
    func waitUntilHolding() async -> Bool {
        await eventually(upTo: .seconds(60)) { self.heldCount.load(ordering: .acquiring) > 0 }
    }
}

/// Just before NIO's `AcceptHandler` in the listener's pipeline: keeps accepted connections there,
/// before their set-up starts, until ``release()``. On the listener's event loop only.
private final class HoldAcceptedConnections: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let probe: HoldProbe
    private var context: ChannelHandlerContext?
    private var held: [NIOAny] = []
    private var holding = true

    init(probe: HoldProbe) {
        self.probe = probe
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        for data in held { unwrapInboundIn(data).close(promise: nil) }
        held = []
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard holding else {
            context.fireChannelRead(data)
            return
        }
        held.append(data)
        probe.held()
    }

    /// Passes the held connections on, and any later ones straight away.
    func release() {
        holding = false
        guard let context else { return }
        probe.release()
        let connections = held
        held = []
        for data in connections { context.fireChannelRead(data) }
    }
}

/// First in the listener's pipeline, ahead of the handler that stops the quiesce signal on its way
/// down: at the signal, releases `hold` from the next turn of the event loop, once the signal has gone
/// out to the accepted connections.
private final class ReleaseAtQuiesce: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let hold: HoldAcceptedConnections

    init(hold: HoldAcceptedConnections) {
        self.hold = hold
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            let hold = NIOLoopBound(self.hold, eventLoop: context.eventLoop)
            context.eventLoop.execute { hold.value.release() }
        }
        context.fireUserInboundEventTriggered(event)
    }
}
