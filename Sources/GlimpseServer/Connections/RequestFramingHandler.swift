import NIOCore

/// Ahead of the HTTP decoder: follows the connection's raw bytes with ``RequestFraming`` and tells
/// the ``RequestGuardHandler`` when a request head starts and when a chunk declares too large a size.
final class RequestFramingHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private weak var guardHandler: RequestGuardHandler?
    private var framing: RequestFraming

    /// Creates the framing handler of `guardHandler`'s connection.
    init(guardHandler: RequestGuardHandler, maxBodyBytes: Int) {
        self.guardHandler = guardHandler
        self.framing = RequestFraming(maxBodyBytes: maxBodyBytes)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let events = framing.feed(buffer.readableBytesView)
        // The head deadline starts before the decoder can hand the head on.
        if events.contains(.headStarted) { guardHandler?.headStarted() }
        context.fireChannelRead(data)
        for case .chunkTooLarge(let declared) in events {
            guardHandler?.chunkTooLarge(declared: declared)
        }
    }
}
