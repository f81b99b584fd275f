import CGlimpseSocket

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A listening socket handed to the daemon by a service manager (systemd socket activation: the
/// `LISTEN_PID` / `LISTEN_FDS` protocol of `sd_listen_fds(3)`).
///
/// The daemon serves on it instead of binding its own: it neither claims, chmods nor removes the
/// socket's path (the service manager owns it), and closes only its descriptor at exit.
public struct ActivatedSocket: Sendable, Equatable {
    /// The descriptor of the listening socket.
    public let descriptor: Int32
    /// The path the socket is bound to, as `getsockname(2)` reports it (`@name` for an abstract
    /// socket, empty for an unnamed one).
    public let path: String

    /// The first descriptor a service manager passes (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// Checks the socket-activation variables of `environment` for process `processID`.
    ///
    /// - Parameters:
    ///   - environment: the process environment (`LISTEN_PID`, `LISTEN_FDS`).
    ///   - processID: this process's id, which `LISTEN_PID` must name.
    ///   - descriptor: where the socket is expected (``firstDescriptor``; tests pass others).
    /// - Returns: `nil` when neither variable is set (the daemon binds its own socket), otherwise
    ///   the socket, once it is known to be one listening Unix stream socket.
    /// - Throws: ``GlimpseServerError`` with code `activationFailed`, saying what is wrong.
    public static func inspect(
        environment: [String: String],
        processID: Int32,
        descriptor: Int32 = firstDescriptor
    ) throws(GlimpseServerError) -> ActivatedSocket? {
        let pidText = environment["LISTEN_PID"]
        let countText = environment["LISTEN_FDS"]
        if pidText == nil, countText == nil { return nil }
        guard let pidText, let pid = Int32(pidText) else {
            throw failure("LISTEN_FDS is set but LISTEN_PID is \(environment["LISTEN_PID"].map { "\"\($0)\"" } ?? "missing")")
        }
        guard pid == processID else {
            throw failure(
                "LISTEN_PID is \(pid) but this process is \(processID): the sockets were passed to another "
                    + "process (start glimpse with exec, or unset LISTEN_PID and LISTEN_FDS to bind --socket)"
            )
        }
        guard let countText, let count = Int(countText) else {
            throw failure("LISTEN_PID is set but LISTEN_FDS is \(countText.map { "\"\($0)\"" } ?? "missing")")
        }
        guard count == 1 else {
            throw failure("LISTEN_FDS is \(count); glimpse serve takes exactly one listening socket (ListenStream= once)")
        }
        var listener = CGlimpseSocket_listener()
        let code = CGlimpseSocket_describe_listener(descriptor, &listener)
        guard code == 0 else {
            throw failure("descriptor \(descriptor) is not a usable socket: \(String(cString: strerror(code)))")
        }
        guard listener.family == AF_UNIX else {
            throw failure("descriptor \(descriptor) is not a Unix domain socket (address family \(listener.family)); use ListenStream=/path")
        }
        guard listener.type == Int32(SOCK_STREAM.rawValue) else {
            throw failure("descriptor \(descriptor) is not a stream socket (type \(listener.type)); use ListenStream=, not ListenDatagram= or ListenSequentialPacket=")
        }
        guard listener.accepting != 0 else {
            throw failure("descriptor \(descriptor) is a socket that is not listening; glimpse needs a listening socket (Accept=no)")
        }
        let path = withUnsafeBytes(of: listener.path) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return ActivatedSocket(descriptor: descriptor, path: path)
    }

    /// Takes the listening socket passed to this process, if any: checks it (``inspect(environment:processID:descriptor:)``),
    /// marks it close-on-exec and unsets `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` so that
    /// nothing this process starts inherits them.
    ///
    /// - Returns: `nil` when the process was not socket-activated.
    /// - Throws: ``GlimpseServerError`` with code `activationFailed`.
    public static func takeFromEnvironment(_ environment: [String: String]) throws(GlimpseServerError) -> ActivatedSocket? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let socket = try inspect(environment: environment, processID: getpid()) else { return nil }
        let flags = fcntl(socket.descriptor, F_GETFD)
        if flags >= 0 { _ = fcntl(socket.descriptor, F_SETFD, flags | FD_CLOEXEC) }
        return socket
    }

    private static func failure(_ message: String) -> GlimpseServerError {
        GlimpseServerError(code: .activationFailed, message: "socket activation: \(message)")
    }
}

/// Tells a service manager about the daemon's state (`sd_notify(3)`): one datagram to
/// `$NOTIFY_SOCKET`, such as `READY=1` once the daemon accepts connections and `STOPPING=1` when it
/// begins to shut down. Does nothing when the daemon was not started with `Type=notify`.
public struct ServiceNotifier: Sendable, Equatable {
    /// The notification socket (a path, or `@name` in the abstract namespace); `nil` for none.
    public let socketPath: String?

    /// Creates a notifier for the `NOTIFY_SOCKET` of `environment`.
    public init(environment: [String: String]) {
        self.init(socketPath: environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Creates a notifier for `socketPath` (`nil`: notifications are dropped).
    public init(socketPath: String?) {
        self.socketPath = socketPath
    }

    /// Sends `state` (newline-separated `KEY=value` assignments).
    ///
    /// - Throws: ``GlimpseServerError`` with code `activationFailed` when the datagram cannot be sent.
    public func send(_ state: String) throws(GlimpseServerError) {
        guard let socketPath else { return }
        let code = CGlimpseSocket_notify(socketPath, state)
        guard code == 0 else {
            throw GlimpseServerError(
                code: .activationFailed,
                message: "cannot notify the service manager at NOTIFY_SOCKET=\(socketPath): \(String(cString: strerror(code)))"
            )
        }
    }
}
