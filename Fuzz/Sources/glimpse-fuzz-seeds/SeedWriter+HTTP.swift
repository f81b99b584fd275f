extension SeedWriter {
    /// Requests as a client sends them on one connection. The first byte is the target's mode: bits 0–4
    /// the piece size - 1, bits 5–6 the pause between pieces, bit 7 a shutdown signal and a half-close.
    func httpRequests() throws {
        let body = String(repeating: "x", count: 300)
        let requests: [(String, UInt8, String)] = [
            ("get-healthz", 0x1F, "GET /healthz HTTP/1.1\r\nHost: glimpse\r\n\r\n"),
            ("get-entities-keepalive", 0x0F,
             "GET /v1/entities?q=lake&limit=2 HTTP/1.1\r\nHost: g\r\n\r\nGET /metrics HTTP/1.1\r\nHost: g\r\n\r\n"),
            ("post-query-length", 0x1F,
             "POST /v1/query?limit=3 HTTP/1.1\r\nHost: g\r\nContent-Type: image/jpeg\r\nContent-Length: 300\r\n\r\n" + body),
            ("post-query-chunked", 0x07,
             "POST /v1/query HTTP/1.1\r\nHost: g\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n"
                 + "5;ext=1\r\nhello\r\n0\r\nTrailer: x\r\n\r\n"),
            ("chunk-too-large", 0x1F,
             "POST /v1/query HTTP/1.1\r\nHost: g\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFF\r\n"),
            ("body-too-large", 0x1F, "POST /v1/query HTTP/1.1\r\nHost: g\r\nContent-Length: 999999\r\n\r\nabc"),
            ("early-answer-close", 0x1F,
             "POST /early HTTP/1.1\r\nHost: g\r\nConnection: close\r\nContent-Length: 300\r\n\r\n" + body),
            ("expect-continue", 0x1F,
             "POST /v1/query HTTP/1.1\r\nHost: g\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello"),
            ("slow-head", 0x60, "GET /healthz HTTP/1.1\r\nHost: g\r\nX-Slow: " + String(repeating: "s", count: 40) + "\r\n\r\n"),
            ("slow-body", 0x5F, "POST /v1/query HTTP/1.1\r\nHost: g\r\nContent-Length: 200\r\n\r\n" + body),
            ("shutdown-before-head", 0x9F, "GET /healthz HTTP/1.1\r\nHost: g\r\n\r\n"),
            ("header-too-large", 0x1F, "GET / HTTP/1.1\r\nHost: g\r\nX-Big: " + String(repeating: "b", count: 1_100) + "\r\n\r\n"),
            ("bad-request-line", 0x1F, "GET /a b c HTTP/9.9\r\n\r\n"),
            ("bad-content-length", 0x1F, "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"),
            ("http-1.0", 0x1F, "GET /healthz HTTP/1.0\r\n\r\n"),
        ]
        try write("http", requests.map { name, mode, text in (name, [mode] + Array(text.utf8)) })
    }
}
