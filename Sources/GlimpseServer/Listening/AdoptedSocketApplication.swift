import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Serves a router on a listening socket the daemon was handed (``ActivatedSocket``), the way
/// Hummingbird's `Application` serves it on a socket it binds itself: HTTP/1.1 channels with the same
/// configuration, `Date` and `Server` headers on every answer, graceful shutdown that stops accepting
/// and lets open connections finish. (Hummingbird 2 can only bind an address, hence this type.)
struct AdoptedSocketApplication<Responder: HTTPResponder>: Sendable where Responder.Context == GlimpseRequestContext {
    /// The listening socket's descriptor; closed when serving ends.
    let descriptor: Int32
    let responder: Responder
    let http1: HTTP1Channel.Configuration
    let serverName: String
    let onServerRunning: @Sendable (any Channel) async -> Void
    let logger: Logger

    /// Serves until graceful shutdown, then waits for open connections to close.
    func run() async throws {
        let responder = self.responder
        let logger = self.logger
        let serverName = self.serverName
        let dates = HTTPDateHeader()
        let childChannel = HTTP1Channel(
            responder: { request, responseWriter, channel in
                let context = GlimpseRequestContext(source: .init(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPParserError {
                    throw error
                } catch {
                    logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
                    response = Response(status: .internalServerError, body: .init())
                }
                response.headers[.date] = dates.now()
                response.headers[.server] = serverName
                do {
                    try await responseWriter.write(response: response.head, body: response.body)
                } catch is HTTPParserError {
                    // Not rethrown as is: that would make the channel write a second (400) answer.
                    throw ResponseWriteFailed()
                }
            },
            configuration: http1
        )
        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        let listener = try await ServerBootstrap(group: group)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .bind(NIOBSDSocket.Handle(descriptor), serverBackPressureStrategy: nil) {
                (channel: any Channel) -> EventLoopFuture<HTTP1Channel.Value> in
                childChannel.setup(channel: channel, logger: logger)
            }
        await withGracefulShutdownHandler {
            await onServerRunning(listener.channel)
            await withDiscardingTaskGroup { connections in
                do {
                    try await listener.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask { await childChannel.handle(value: connection, logger: logger) }
                        }
                    }
                } catch {
                    logger.error("waiting for connections: \(error)")
                }
            }
        } onGracefulShutdown: {
            quiescing.initiateShutdown(promise: nil)
        }
    }
}

/// The answer could not be written because the request turned out malformed meanwhile; the
/// connection is closed.
private struct ResponseWriteFailed: Error {}

/// The `Date` header value (RFC 9110 IMF-fixdate), formatted at most once a second.
final class HTTPDateHeader: Sendable {
    private let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// The current date, such as `Tue, 24 Nov 2026 12:19:00 GMT`.
    func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let second = time.tv_sec
        return cache.withLock { cache in
            if cache.second != second {
                cache = (second, Self.format(second))
            }
            return cache.text
        }
    }

    /// `seconds` since the epoch as an IMF-fixdate.
    static func format(_ seconds: Int) -> String {
        var clock = time_t(seconds)
        var parts = tm()
        gmtime_r(&clock, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
