import ArgumentParser
import GlimpseServer

/// `glimpse serve`'s options for the TCP listener that browsers use (the web console).
struct HTTPListenerOptions: ParsableArguments {
    @Option(help: """
        Also serve the API and the web console over HTTP on this loopback address, such as 127.0.0.1:8080 \
        or [::1]:8080 (port 0: any free port, logged). Read-only unless --admin-token-file is given.
        """)
    var http: String?

    @Flag(help: """
        Let --http bind an address that is not loopback. The listener has no TLS and TCP has no peer \
        credentials: anyone who can reach the port can query the catalog. Prefer a TLS proxy in front of the \
        Unix socket (deploy/nginx-console.conf).
        """)
    var httpAllowNonLoopback = false

    @Option(help: """
        A file holding the bearer token (one line, at least 16 characters, readable only by its owner) that \
        catalog edits over --http must send as Authorization: Bearer TOKEN. Without it, edits over HTTP are refused.
        """)
    var adminTokenFile: String?

    func validate() throws {
        if http == nil, adminTokenFile != nil || httpAllowNonLoopback {
            throw ValidationError("--admin-token-file and --http-allow-non-loopback apply to --http; give --http too")
        }
    }

    /// The listener's configuration, `nil` without `--http`.
    ///
    /// - Throws: ``GlimpseServerError`` for an address that is refused or a token file that cannot be used.
    func configuration() throws(GlimpseServerError) -> HTTPListenerConfiguration? {
        guard let http else { return nil }
        let address = try HTTPListenerAddress(parsing: http, allowingNonLoopback: httpAllowNonLoopback)
        let token = try adminTokenFile.map { path throws(GlimpseServerError) in try AdminToken(readingFile: path) }
        return HTTPListenerConfiguration(address: address, adminToken: token)
    }
}
