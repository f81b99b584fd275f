public import NIOCore

extension GlimpseServer {
    /// The handlers the daemon adds to every connection, after HTTP/1.1 decoding (NIO's codec with
    /// header limits of `limits.maxHeaderBytes`, then `HTTP1ToHTTPServerCodec`) and before the router:
    /// the first-request grace and the request guard (which puts its framing handler ahead of the decoder).
    ///
    /// - Parameters:
    ///   - registry: the connection table the guard reports to (`nil`: none).
    ///   - onReject: called on the event loop for each request the guard answers itself.
    static func connectionHandlers(
        limits: ServerLimits, registry: ConnectionRegistry?, onReject: @escaping @Sendable (APIError) -> Void
    ) -> [any RemovableChannelHandler] {
        let guardLimits = RequestGuardHandler.Limits(
            maxBodyBytes: limits.maxBodyBytes, maxHeaderBytes: limits.maxHeaderBytes,
            headerTimeout: limits.headerTimeout, requestDeadline: limits.requestDeadline
        )
        return [
            FirstRequestGraceHandler(grace: limits.firstRequestGrace),
            RequestGuardHandler(limits: guardLimits, registry: registry, onReject: onReject),
        ]
    }

    /// The handlers ``connectionHandlers(limits:registry:onReject:)`` gives each connection, without a
    /// connection table or metrics: for the HTTP fuzz target in `Fuzz/`, which feeds raw request bytes
    /// through them on an embedded channel (`@_spi(Fuzzing)`, not API).
    @_spi(Fuzzing) public static func connectionHandlersForFuzzing(limits: ServerLimits) -> [any RemovableChannelHandler] {
        connectionHandlers(limits: limits, registry: nil) { _ in }
    }
}
