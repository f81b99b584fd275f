@testable import GlimpseServer
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

/// The two shutdown handlers on an embedded channel: every step is driven by hand, no sockets, no
/// sleeps, and time is advanced explicitly.
@Suite("Shutdown handlers")
struct ShutdownHandlerTests {
    // MARK: - FirstRequestGraceHandler

    /// Records the quiesce signals and request parts that reach the end of the pipeline, in order.
    final class Recorder: ChannelInboundHandler {
        typealias InboundIn = HTTPRequestPart
        var events: [String] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: events.append("head")
            case .body: events.append("body")
            case .end: events.append("end")
            }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelShouldQuiesceEvent { events.append("quiesce") }
        }
    }

    private static let head = HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/healthz"))

    private func graceChannel(_ grace: Duration) throws -> (EmbeddedChannel, Recorder) {
        let recorder = Recorder()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(FirstRequestGraceHandler(grace: grace))
        try channel.pipeline.syncOperations.addHandler(recorder)
        return (channel, recorder)
    }

    @Test func quiesceIsHeldUntilTheFirstHeadAndPassedOnBehindIt() throws {
        let (channel, recorder) = try graceChannel(.seconds(5))
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())  // a second one is not doubled
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(recorder.events.isEmpty)
        try channel.writeInbound(Self.head)
        #expect(recorder.events == ["head", "quiesce"])
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))  // the timer was cancelled
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(recorder.events == ["head", "quiesce", "end"])
        _ = try channel.finish()
    }

    @Test func quiesceIsPassedOnWhenTheGraceRunsOut() throws {
        let (channel, recorder) = try graceChannel(.seconds(5))
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(recorder.events.isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(recorder.events == ["quiesce"])
        _ = try channel.finish()
    }

    @Test func aConnectionThatHasSentARequestIsQuiescedAtOnce() throws {
        let (channel, recorder) = try graceChannel(.seconds(5))
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(recorder.events == ["head", "end", "quiesce"])
        _ = try channel.finish()
    }

    @Test func aClosedConnectionDropsItsHeldQuiesce() throws {
        let (channel, recorder) = try graceChannel(.seconds(5))
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        _ = try? channel.finish()
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(recorder.events.isEmpty)
    }

    // MARK: - ListenerHandoff

    /// Stands for the listener's asynchronous connection set-up: holds accepted connections until
    /// released.
    final class SetUpInProgress: ChannelInboundHandler {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        private var held: [(ChannelHandlerContext, NIOAny)] = []

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            held.append((context, data))
        }

        func release() {
            let all = held
            held = []
            for (context, data) in all { context.fireChannelRead(data) }
        }

        /// A listener that closes drops the connections still in set-up (and the held contexts, which
        /// would otherwise keep the closed pipeline alive).
        func handlerRemoved(context: ChannelHandlerContext) {
            held = []
        }
    }

    private func listener(maximumHold: Duration = .seconds(2)) throws -> (EmbeddedChannel, SetUpInProgress) {
        let state = ListenerHandoff.HandoffState()
        let setUp = SetUpInProgress()
        let listener = EmbeddedChannel()
        let operations = listener.pipeline.syncOperations
        try operations.addHandler(ListenerHandoff.AcceptedConnectionGate(state: state, maximumHold: maximumHold))
        try operations.addHandler(setUp)
        try operations.addHandler(ListenerHandoff.HandedOffConnectionObserver(state: state))
        try listener.connect(to: SocketAddress(unixDomainSocketPath: "/listener")).wait()
        return (listener, setUp)
    }

    /// A connection accepted by `listener` and now in set-up.
    private func accept(on listener: EmbeddedChannel) -> EmbeddedChannel {
        let connection = EmbeddedChannel(loop: listener.embeddedEventLoop)
        listener.pipeline.fireChannelRead(NIOAny(connection as any Channel))
        return connection
    }

    @Test func closeWaitsForConnectionsInSetUp() throws {
        let (listener, setUp) = try listener()
        let connection = accept(on: listener)
        let closed = listener.close()
        listener.embeddedEventLoop.run()
        #expect(listener.isActive, "closing waits while a connection is being set up")
        setUp.release()
        #expect(listener.isActive, "released from a later turn of the loop, after the connection got through")
        listener.embeddedEventLoop.run()
        #expect(!listener.isActive)
        #expect(throws: Never.self) { try closed.wait() }
        _ = try? connection.finish()
    }

    @Test func aConnectionWhoseSetUpFailedEndsTheWaitByClosing() throws {
        let (listener, _) = try listener()
        let connection = accept(on: listener)
        let closed = listener.close()
        listener.embeddedEventLoop.run()
        #expect(listener.isActive)
        _ = try? connection.finish()  // closes it, as a failed set-up does
        listener.embeddedEventLoop.run()
        #expect(!listener.isActive)
        #expect(throws: Never.self) { try closed.wait() }
    }

    @Test func closeIsHeldNoLongerThanTheMaximum() throws {
        let (listener, _) = try listener(maximumHold: .seconds(2))
        let connection = accept(on: listener)
        _ = listener.close()
        listener.embeddedEventLoop.advanceTime(by: .milliseconds(1_999))
        #expect(listener.isActive)
        listener.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        listener.embeddedEventLoop.run()
        #expect(!listener.isActive)
        _ = try? connection.finish()
    }

    @Test func withNothingInSetUpCloseIsImmediate() throws {
        let (listener, setUp) = try listener()
        let connection = accept(on: listener)
        setUp.release()
        listener.close(promise: nil)
        #expect(!listener.isActive)
        _ = try? connection.finish()
    }
}
