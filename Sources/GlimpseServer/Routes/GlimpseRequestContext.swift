public import Hummingbird
import Logging
public import NIOCore

/// The per-request context of the daemon's router: Hummingbird's core storage plus the connection's
/// channel (for peer credentials and client presence).
public struct GlimpseRequestContext: RequestContext {
    /// Hummingbird's per-request storage (logger, route parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    /// Creates a context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
