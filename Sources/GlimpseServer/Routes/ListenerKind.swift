/// Which listener a router serves: it decides who may edit and which requests are checked for what.
enum ListenerKind: Sendable {
    /// The Unix socket: peers are known by their credentials (`SO_PEERCRED`).
    case unixSocket
    /// The TCP listener for browsers: no credentials, so edits need the admin token, and requests must
    /// name a loopback host unless the listener is bound elsewhere on purpose.
    case http(HTTPListenerConfiguration)
}
