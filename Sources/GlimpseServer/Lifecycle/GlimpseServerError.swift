/// Why the daemon could not start, or could not keep serving.
///
/// Errors that reach a client are ``APIError`` values instead; this type is for the operator. What the
/// catalog and models can fail with is the engine's `EngineError`, raised before the daemon starts.
public struct GlimpseServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Equatable {
        /// A configuration value is out of range.
        case invalidConfiguration
        /// The socket path does not fit in `sun_path`.
        case socketPathTooLong
        /// Something other than a socket (a regular file, a directory) is at the socket path.
        case notASocket
        /// Another process is accepting connections on the socket path.
        case alreadyRunning
        /// A system call on the socket path or its directory failed.
        case socketSetupFailed
        /// The socket a service manager passed (`LISTEN_FDS`) is not one listening Unix stream
        /// socket meant for this process, or the service manager cannot be notified.
        case activationFailed
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence saying what happened and what to do about it.
    public let message: String

    /// Creates an error with a code and a message.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message, prefixed with nothing: it is meant to be printed as is.
    public var description: String { message }

    /// A configuration value is out of range.
    public static func invalidConfiguration(_ message: String) -> Self {
        .init(code: .invalidConfiguration, message: "invalid server configuration: \(message)")
    }
}
