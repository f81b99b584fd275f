#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where `glimpse serve --http` listens: a host and a TCP port, loopback unless the operator says
/// otherwise.
///
/// The TCP listener exists for browsers, which cannot open a Unix socket. It has no TLS and no peer
/// credentials, so by default it may only be bound to a loopback address (`127.0.0.0/8`, `::1`, or
/// `localhost`, taken as `127.0.0.1` without asking a resolver): only processes on the same machine can
/// reach it. Any other address is refused unless `allowingNonLoopback` is set; serve the console to
/// other machines through a proxy that adds TLS and authentication instead (`deploy/nginx-console.conf`).
public struct HTTPListenerAddress: Sendable, Equatable, CustomStringConvertible {
    /// The numeric host to bind: an IPv4 address, or an IPv6 address without brackets.
    public let host: String
    /// The TCP port; `0` lets the kernel choose a free one (the daemon logs the port it got).
    public let port: Int
    /// Whether the host is a loopback address.
    public let isLoopback: Bool

    /// Parses `HOST:PORT`, where HOST is an IPv4 address, a bracketed IPv6 address (`[::1]:8080`) or
    /// `localhost`.
    ///
    /// - Throws: ``GlimpseServerError`` with code `invalidConfiguration` for text that is not such an
    ///   address, or for a host that is not loopback when `allowingNonLoopback` is `false`.
    public init(parsing text: String, allowingNonLoopback: Bool = false) throws(GlimpseServerError) {
        func refuse(_ why: String) -> GlimpseServerError {
            .invalidConfiguration("--http \(text): \(why)")
        }
        guard let colon = text.lastIndex(of: ":") else {
            throw refuse("write HOST:PORT, such as 127.0.0.1:8080 or [::1]:8080")
        }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = Int(portText), (0...65_535).contains(port), portText.allSatisfy(\.isASCII) else {
            throw refuse("the port must be a whole number from 0 to 65535")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
            guard host.contains(":") else { throw refuse("brackets are for IPv6 addresses only") }
        } else if host.contains(":") {
            throw refuse("write an IPv6 address in brackets, such as [::1]:8080")
        }
        if host.lowercased() == "localhost" { host = "127.0.0.1" }
        guard let loopback = Self.isLoopback(numericHost: host) else {
            throw refuse("the host must be a numeric IPv4 or IPv6 address, or localhost (no name is resolved)")
        }
        guard loopback || allowingNonLoopback else {
            throw refuse(
                "\(host) is not a loopback address; the HTTP listener has no TLS and no peer credentials, so it "
                    + "binds 127.0.0.1 or [::1] unless --http-allow-non-loopback is given (put a TLS proxy in front instead)")
        }
        self.host = host
        self.port = port
        self.isLoopback = loopback
    }

    /// `127.0.0.1:8080`, or `[::1]:8080`.
    public var description: String { Self.format(host: host, port: port) }

    /// `host:port`, the host bracketed when it is IPv6.
    static func format(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether a numeric address is loopback; `nil` when `host` is not a numeric address.
    static func isLoopback(numericHost host: String) -> Bool? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            return bytes == Array(repeating: 0, count: 15) + [1]
        }
        return nil
    }

    /// Whether a request's `Host` header names this listener by a loopback name (`localhost`, a
    /// `127.x.y.z` address or `[::1]`, any port), which a page from another site reached through DNS
    /// rebinding cannot send.
    static func isLoopbackHostHeader(_ value: String) -> Bool {
        var host = Substring(value.lowercased())
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        if host == "localhost" { return true }
        return isLoopback(numericHost: String(host)) == true
    }
}
