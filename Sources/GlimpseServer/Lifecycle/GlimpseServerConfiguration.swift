#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// Everything `glimpse serve` is configured with, each value with a documented default.
public struct GlimpseServerConfiguration: Sendable {
    /// Where the Unix socket is bound.
    public var socketPath: String
    /// The socket's permission bits after binding. Default `0o660` (owner and group read/write).
    public var socketMode: UInt32
    /// The mode of directories created on the way to the socket. Default `0o700`.
    public var directoryMode: UInt32
    /// Request limits.
    public var limits: ServerLimits
    /// Which peers may connect (checked with `SO_PEERCRED`). Default: everyone the socket's mode lets in.
    public var peerPolicy: PeerPolicy
    /// How long a graceful shutdown may take to finish in-flight requests before they are cancelled.
    /// Default 10 s.
    public var shutdownGracePeriod: Duration
    /// Which peers may edit the catalog (checked with `SO_PEERCRED`, supplementary groups included).
    /// Default: only the user the daemon runs as.
    public var adminPolicy: PeerPolicy
    /// Whether every edit is refused with `403 read_only`. Default `false`.
    public var readOnly: Bool
    /// A listening socket handed over by a service manager: when set, the daemon serves on it and
    /// leaves `socketPath` (taken from it), its mode and its removal to the service manager.
    /// Default: none (the daemon binds `socketPath` itself).
    public var activatedSocket: ActivatedSocket?
    /// Where the daemon reports `READY=1` and `STOPPING=1` (`sd_notify`). Default: nowhere.
    public var serviceNotifier: ServiceNotifier = ServiceNotifier(socketPath: nil)
    /// The executor the daemon's own work prefers: accepting connections, reading requests and writing
    /// answers (queries themselves run on the query gate's threads either way). Default: none, Swift's
    /// global concurrent executor, which is right for `glimpse serve`. A process that runs the daemon
    /// beside other heavy Swift concurrency work (a test suite on two cores) gives it its own, so that
    /// the daemon's steps do not wait in line behind that work.
    public var taskExecutor: (any TaskExecutor)?
    /// A second listener, on TCP, for browsers (`glimpse serve --http`): the same routes, limits and
    /// admission as the socket, read-only unless it has an admin token. Default: none.
    public var http: HTTPListenerConfiguration?

    /// Creates a configuration; every argument but the path defaults to the documented value.
    public init(
        socketPath: String,
        socketMode: UInt32 = 0o660,
        directoryMode: UInt32 = 0o700,
        limits: ServerLimits = ServerLimits(),
        peerPolicy: PeerPolicy = PeerPolicy(),
        shutdownGracePeriod: Duration = .seconds(10),
        adminPolicy: PeerPolicy = PeerPolicy(allowedUIDs: [getuid()]),
        readOnly: Bool = false
    ) {
        self.adminPolicy = adminPolicy
        self.readOnly = readOnly
        self.socketPath = socketPath
        self.socketMode = socketMode
        self.directoryMode = directoryMode
        self.limits = limits
        self.peerPolicy = peerPolicy
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// The default socket path: `$XDG_RUNTIME_DIR/glimpse/glimpse.sock`, or `/run/glimpse/glimpse.sock`
    /// when `XDG_RUNTIME_DIR` is not set.
    public static func defaultSocketPath(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/glimpse/glimpse.sock"
        }
        return "/run/glimpse/glimpse.sock"
    }
}

/// The daemon's TCP listener for browsers (`glimpse serve --http`).
public struct HTTPListenerConfiguration: Sendable {
    /// Where it listens.
    public var address: HTTPListenerAddress
    /// The bearer token edits over TCP must carry; `nil`: every edit over TCP is refused.
    public var adminToken: AdminToken?

    /// Creates a listener configuration.
    public init(address: HTTPListenerAddress, adminToken: AdminToken? = nil) {
        self.address = address
        self.adminToken = adminToken
    }
}
