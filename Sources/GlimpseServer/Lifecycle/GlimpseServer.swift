import HTTPTypes
import Hummingbird
import HummingbirdCore
public import Logging
import NIOConcurrencyHelpers
import NIOCore
public import ServiceLifecycle
import Synchronization
import UnixSignals

/// The Glimpse daemon: the visual-search API as HTTP/1.1 over a Unix domain socket, and optionally over a
/// loopback TCP listener for browsers (``GlimpseServerConfiguration/http``), with the web console at `/`.
///
/// `GlimpseServer` is a `Service`: run it in a `ServiceGroup` (``runUntilSignalled(logger:)`` does,
/// with SIGTERM and SIGINT as graceful-shutdown signals). Running it:
/// 1. claims the socket path (``UnixSocketFile``): refuses a live daemon, a regular file or a
///    directory at the path, replaces a stale socket;
/// 2. binds, sets the socket's mode, logs `listening`, fires ``ready`` and sends `READY=1` to the
///    service manager (``GlimpseServerConfiguration/serviceNotifier``);
/// 3. on graceful shutdown sends `STOPPING=1`, stops accepting, lets in-flight requests finish, and
///    removes the socket.
///
/// With ``GlimpseServerConfiguration/activatedSocket`` set, steps 1 and 2 serve on the socket the
/// service manager bound instead, and step 3 leaves its path alone.
public final class GlimpseServer: Service, Sendable {
    /// The configuration the daemon runs with.
    public let configuration: GlimpseServerConfiguration
    /// Fires once the socket is bound and accepting connections.
    public let ready = ReadySignal()
    /// The daemon's metrics (served by `GET /metrics`).
    public let metrics: ServerMetrics
    private let service: any SearchService
    private let editor: (any CatalogEditService)?
    private let gate: QueryGate
    private let logger: Logger
    /// The listening channel once serving; behind NIOLock, like the daemon's other shared state.
    private let listenerChannel = NIOLockedValueBox<(any Channel)?>(nil)
    private let boundHTTPAddress = NIOLockedValueBox<String?>(nil)

    /// The listening channel once the daemon serves (`nil` before): tests follow connections through it.
    var listener: (any Channel)? { listenerChannel.withLockedValue { $0 } }

    /// Creates a daemon serving `service` and, with an `editor`, taking catalog edits (docs/api.md).
    ///
    /// - Throws: ``GlimpseServerError`` with code `invalidConfiguration` when a limit is out of range.
    public init(
        configuration: GlimpseServerConfiguration,
        service: any SearchService,
        editor: (any CatalogEditService)? = nil,
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger
    ) throws(GlimpseServerError) {
        try configuration.limits.validate()
        self.configuration = configuration
        self.service = service
        self.editor = editor
        self.metrics = metrics
        self.logger = logger
        self.gate = QueryGate(
            maxRunning: configuration.limits.maxConcurrentQueries,
            maxQueued: configuration.limits.maxQueuedQueries,
            maxBufferedBytes: configuration.limits.maxBufferedBytes,
            retryAfterSeconds: configuration.limits.retryAfterSeconds
        )
    }

    /// Serves until graceful shutdown (or cancellation), then removes the socket.
    ///
    /// - Throws: ``GlimpseServerError`` when the socket path cannot be claimed; errors from binding.
    public func run() async throws {
        let executor = configuration.taskExecutor
        try await withTaskExecutorPreference(executor) {
            try await DaemonTasks.$executor.withValue(executor) {
                try await serveOnSocket()
            }
        }
    }

    /// ``run()`` on the daemon's executor.
    private func serveOnSocket() async throws {
        // A socket handed over by a service manager is its own: no claim, no chmod, no removal.
        let socket = try configuration.activatedSocket == nil
            ? UnixSocketFile.claim(
                path: configuration.socketPath,
                directoryMode: configuration.directoryMode,
                logger: logger
            ) : nil
        defer { socket?.release() }
        let listeners = ListenersUp(count: configuration.http == nil ? 1 : 2) { [ready, configuration, logger] in
            ready.fire()
            configuration.notify("READY=1\nSTATUS=listening on \(configuration.activatedSocket?.path ?? configuration.socketPath)", logger: logger)
        }
        let registry = ConnectionRegistry(maxConnections: configuration.limits.maxConnections)
        let serveSocket: @Sendable () async throws -> Void
        if let activated = configuration.activatedSocket {
            let application = makeAdoptedApplication(descriptor: activated.descriptor, registry: registry, listeners: listeners)
            serveSocket = { try await application.run() }
        } else {
            let application = makeApplication(socket: socket, registry: registry, listeners: listeners)
            serveSocket = { try await application.run() }
        }
        let serveHTTP = configuration.http.map { http in
            makeHTTPApplication(http, registry: registry, listeners: listeners)
        }
        let serve: @Sendable () async throws -> Void = {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await serveSocket() }
                if let serveHTTP {
                    group.addTask { try await serveHTTP() }
                }
                // The first listener to fail takes the other down with it.
                for try await _ in group {}
            }
        }
        let graceTimer = GraceTimer()
        defer { graceTimer.cancel() }
        do {
            try await withGracefulShutdownHandler {
                try await serve()
            } onGracefulShutdown: { [logger, gate, configuration] in
                configuration.notify("STOPPING=1", logger: logger)
                logger.info(
                    "shutting down: no longer accepting connections, finishing in-flight requests",
                    metadata: ["queries_in_flight": "\(gate.inFlight)"]
                )
                // When the grace runs out, every query still waiting is answered 503 and running ones
                // are cancelled, while connections can still carry the answers.
                graceTimer.start(after: configuration.shutdownGracePeriod, on: configuration.taskExecutor) {
                    let left = gate.inFlight
                    gate.stop()
                    if left > 0 {
                        logger.notice("shutdown grace over: refusing the queries left", metadata: ["queries": "\(left)"])
                    }
                }
            }
        } catch {
            gate.stop()
            await gate.shutdown()
            throw error
        }
        gate.stop()
        await gate.shutdown()
        logger.info("stopped", metadata: ["socket": "\(configuration.socketPath)"])
    }

    /// Runs the daemon in a service group that shuts down gracefully on SIGTERM or SIGINT. When the
    /// configured grace period runs out, queries still waiting are answered `503 shutting_down` and
    /// running ones are cancelled (and answered the same); ``answerMargin`` later anything still
    /// unfinished is cancelled outright, bounded by 5 more seconds.
    public func runUntilSignalled(logger: Logger) async throws {
        var groupConfiguration = ServiceGroupConfiguration(
            services: [self],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod + Self.answerMargin
        groupConfiguration.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: groupConfiguration).run()
    }

    /// Every route served, as `METHOD /path` with `{name}` for path parameters (as docs/api.md
    /// writes them).
    public var routeDescriptions: [String] {
        makeRouter().routes.map { route in
            let path = route.path.description.split(separator: "/").map { component in
                component.hasPrefix(":") ? "{\(component.dropFirst())}" : String(component)
            }
            return "\(route.method.rawValue) /" + path.joined(separator: "/")
        }
    }

    /// The time, after the shutdown grace, given to the answers of the queries refused or cancelled at
    /// its end before the daemon stops waiting for them.
    public static let answerMargin: Duration = .seconds(3)

    // MARK: - Application

    private func makeRouter(for listener: ListenerKind = .unixSocket) -> Router<GlimpseRequestContext> {
        let router = Router(context: GlimpseRequestContext.self)
        var routes = APIRoutes(service: service, gate: gate, limits: configuration.limits, metrics: metrics)
        routes.editor = editor
        routes.editPolicy = EditPolicy(admins: configuration.adminPolicy, readOnly: configuration.readOnly)
        routes.listener = listener
        var middleware = APIMiddleware(
            peerPolicy: configuration.peerPolicy, metrics: metrics, gate: gate,
            routeTable: RouteTable(
                routes: APIRoutes.routeList(service: service, gate: gate, limits: configuration.limits, metrics: metrics)
            )
        )
        if case .http(let http) = listener {
            middleware.checksLoopbackHost = http.address.isLoopback
        }
        router.middlewares.add(middleware)
        routes.register(on: router)
        return router
    }

    /// The HTTP/1.1 channel configuration (the connection guards of ``connectionHandlers(limits:registry:onReject:)``,
    /// reporting to `registry`, which every listener shares) and the listener set-up: the hand-off and
    /// connection-limit handlers, then `announce` once bound.
    private func makeListening(
        registry: ConnectionRegistry, announce: @escaping @Sendable (any Channel) throws -> Void
    ) -> (http1: HTTP1Channel.Configuration, onServerRunning: @Sendable (any Channel) async -> Void) {
        let limits = configuration.limits
        let metrics = self.metrics
        let guardFactory: @Sendable () -> [any RemovableChannelHandler] = {
            Self.connectionHandlers(limits: limits, registry: registry) { metrics.recordError(kind: $0.code) }
        }
        var http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: guardFactory(),
            idleTimeout: TimeAmount(limits.idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: limits.maxHeaderBytes,
                maxHeaderListSize: limits.maxHeaderBytes
            )
        )
        http1.additionalChannelHandlers = guardFactory
        let logger = self.logger
        let onServerRunning: @Sendable (any Channel) async -> Void = { listener in
            do {
                try await ListenerHandoff.install(on: listener)
                try await listener.eventLoop.submit {
                    try listener.pipeline.syncOperations.addHandler(ConnectionLimiter(registry: registry), position: .first)
                }.get()
                try announce(listener)
            } catch {
                logger.error("\(error)")
            }
        }
        return (http1, onServerRunning)
    }

    /// The set-up of the Unix socket's listener: sets the socket's mode, logs, and counts it up.
    private func makeSocketListening(
        socket: UnixSocketFile?, registry: ConnectionRegistry, listeners: ListenersUp
    ) -> (http1: HTTP1Channel.Configuration, onServerRunning: @Sendable (any Channel) async -> Void) {
        let mode = configuration.socketMode
        let path = configuration.activatedSocket?.path ?? configuration.socketPath
        let logger = self.logger
        let listenerChannel = self.listenerChannel
        return makeListening(registry: registry) { listener in
            listenerChannel.withLockedValue { $0 = listener }
            defer { listeners.oneUp() }
            if let socket {
                try socket.socketBound(mode: mode)
                logger.info("listening", metadata: ["socket": "\(path)", "mode": "\(String(mode, radix: 8))"])
            } else {
                logger.info("listening on the socket passed by the service manager", metadata: ["socket": "\(path)"])
            }
        }
    }

    private func makeApplication(socket: UnixSocketFile?, registry: ConnectionRegistry, listeners: ListenersUp) -> some ApplicationProtocol {
        let (http1, onServerRunning) = makeSocketListening(socket: socket, registry: registry, listeners: listeners)
        return Application(
            router: makeRouter(),
            server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(
                address: .unixDomainSocket(path: configuration.socketPath),
                serverName: Self.serverName,
                backlog: 256
            ),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }

    private func makeAdoptedApplication(
        descriptor: Int32, registry: ConnectionRegistry, listeners: ListenersUp
    ) -> AdoptedSocketApplication<some HTTPResponder<GlimpseRequestContext>> {
        let (http1, onServerRunning) = makeSocketListening(socket: nil, registry: registry, listeners: listeners)
        return AdoptedSocketApplication(
            descriptor: descriptor,
            responder: makeRouter().buildResponder(),
            http1: http1,
            serverName: Self.serverName,
            onServerRunning: onServerRunning,
            logger: logger
        )
    }

    /// The TCP listener for browsers, as a function that serves until graceful shutdown; a port it
    /// cannot bind ends it with ``GlimpseServerError`` code `socketSetupFailed`.
    private func makeHTTPApplication(
        _ http: HTTPListenerConfiguration, registry: ConnectionRegistry, listeners: ListenersUp
    ) -> @Sendable () async throws -> Void {
        let logger = self.logger
        let boundAddress = self.boundHTTPAddress
        let (http1, onServerRunning) = makeListening(registry: registry) { listener in
            defer { listeners.oneUp() }
            let port = listener.localAddress?.port ?? http.address.port
            let address = HTTPListenerAddress.format(host: http.address.host, port: port)
            boundAddress.withLockedValue { $0 = address }
            logger.info("listening", metadata: [
                "http": "http://\(address)/",
                "edits": "\(http.adminToken == nil ? "refused (read-only)" : "with the admin token")",
            ])
        }
        let application = Application(
            router: makeRouter(for: .http(http)),
            server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(
                address: .hostname(http.address.host, port: http.address.port),
                serverName: Self.serverName,
                backlog: 256
            ),
            onServerRunning: onServerRunning,
            logger: logger
        )
        return {
            do {
                try await application.run()
            } catch where !(error is CancellationError) {
                throw GlimpseServerError(
                    code: .socketSetupFailed,
                    message: "cannot listen on http://\(http.address)/ (\(error)); choose another port or free this one")
            }
        }
    }

    /// The address the HTTP listener is bound to (`127.0.0.1:PORT`, the port the kernel chose for
    /// port 0), once it listens; `nil` without one.
    public var httpAddress: String? { boundHTTPAddress.withLockedValue { $0 } }

    /// The `Server` header of every answer.
    static let serverName = "glimpse"
}

/// Counts the daemon's listeners as they come up and runs an action once all of them have.
final class ListenersUp: Sendable {
    private let left: NIOLockedValueBox<Int>
    private let action: @Sendable () -> Void

    /// Waits for `count` listeners, then runs `action`.
    init(count: Int, action: @escaping @Sendable () -> Void) {
        self.left = NIOLockedValueBox(count)
        self.action = action
    }

    /// One listener is up; the last one runs the action.
    func oneUp() {
        let last = left.withLockedValue { left -> Bool in
            left -= 1
            return left == 0
        }
        if last { action() }
    }
}

extension GlimpseServerConfiguration {
    /// Sends `state` to the service manager; a failure is logged, never fatal.
    func notify(_ state: String, logger: Logger) {
        do {
            try serviceNotifier.send(state)
        } catch {
            logger.warning("\(error.message)")
        }
    }
}

/// Runs an action once, a set time after it is started, unless cancelled first.
final class GraceTimer: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let cancelled = Mutex(false)

    /// Starts the timer (only the first call counts), its task preferring `executor`.
    func start(after delay: Duration, on executor: (any TaskExecutor)?, _ action: @escaping @Sendable () -> Void) {
        task.withLock { task in
            guard task == nil, !cancelled.withLock({ $0 }) else { return }
            task = Task(executorPreference: executor) {
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                action()
            }
        }
    }

    /// Cancels the timer; the action does not run if it has not yet.
    func cancel() {
        cancelled.withLock { $0 = true }
        task.withLock { $0?.cancel() }
    }
}
