import NIOCore

/// The request limits the daemon enforces, each with a documented default.
///
/// Every value is configuration passed to ``GlimpseServer``; nothing here is global. The defaults follow
/// docs/api.md ("Limits").
public struct ServerLimits: Sendable, Equatable {
    /// The largest request body accepted, in bytes. Default 32 MiB.
    ///
    /// A request whose `Content-Length` is larger is answered `413` before any of its body is read,
    /// and the connection is closed. A chunked body is cut off with `413` once it passes the limit.
    public var maxBodyBytes: Int
    /// The largest request head (request line and all header fields), in bytes. Default 16 KiB.
    ///
    /// A larger head is answered `400` and the connection is closed.
    public var maxHeaderBytes: Int
    /// How long a connection may stay silent (no complete request head, no body chunk, nothing to
    /// answer) before it is closed. Default 30 s. This is how long a served keep-alive connection may
    /// wait before it starts its next request.
    public var idleTimeout: Duration
    /// How long a client may take to send a whole request head, from its first byte. Default 5 s. A
    /// head still incomplete then is answered `408` and the connection closed, so clients that send
    /// headers a byte at a time cannot hold connections. (A connection that sends nothing at all is
    /// closed by ``idleTimeout``, or sooner to make room at ``maxConnections``.)
    public var headerTimeout: Duration
    /// How long a client may take from the end of its request head to the end of its body.
    /// Default 30 s. A body trickled one byte at a time is answered `408` and closed after this long,
    /// although each byte restarts the idle timer.
    public var requestDeadline: Duration
    /// The largest decoded image accepted, in pixels (width × height). Default 40,000,000.
    public var maxDecodePixels: Int
    /// How many image queries decode and match at the same time. Default: the number of cores.
    public var maxConcurrentQueries: Int
    /// How many admitted image queries may wait for a free slot. Default 64. When
    /// ``maxConcurrentQueries`` are running and this many wait, a new query is answered `503` with
    /// `Retry-After` instead of being queued.
    public var maxQueuedQueries: Int
    /// The most request-body bytes that admitted queries may hold at once. Default 256 MiB; at least
    /// ``maxBodyBytes``. A query is admitted before its body is read, reserving its declared
    /// `Content-Length` (``maxBodyBytes`` for a chunked body); one that does not fit is answered `503`
    /// with `Retry-After` before any of its body is read.
    public var maxBufferedBytes: Int
    /// The `Retry-After` value, in seconds, sent with `503`. Default 1.
    public var retryAfterSeconds: Int
    /// The most connections served at once. Default 256. When all are taken, a new connection is still
    /// accepted if one of them has been waiting at least half a second for a request head (a slow or
    /// idle client): that connection is closed to make room, oldest first. Otherwise new connections
    /// wait in the listen backlog.
    public var maxConnections: Int
    /// The largest `limit` a client may ask for in one page of results. Default 100.
    public var maxResultLimit: Int
    /// How long, after graceful shutdown begins, a connection that has not yet sent a request head
    /// is kept open for it. Default 5 s. A request that arrives in this time is answered, then the
    /// connection is closed; a connection still silent after it is closed. The grace does not extend
    /// ``idleTimeout``: a connection silent that long is closed, shutdown or not.
    public var firstRequestGrace: Duration

    /// Creates limits; every argument defaults to the documented value.
    public init(
        maxBodyBytes: Int = 32 * 1024 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        idleTimeout: Duration = .seconds(30),
        headerTimeout: Duration = .seconds(5),
        requestDeadline: Duration = .seconds(30),
        maxDecodePixels: Int = 40_000_000,
        maxConcurrentQueries: Int = ServerLimits.defaultConcurrency,
        maxQueuedQueries: Int = 64,
        maxBufferedBytes: Int = 256 * 1024 * 1024,
        retryAfterSeconds: Int = 1,
        maxConnections: Int = 256,
        maxResultLimit: Int = 100,
        firstRequestGrace: Duration = .seconds(5)
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.requestDeadline = requestDeadline
        self.maxDecodePixels = maxDecodePixels
        self.maxConcurrentQueries = maxConcurrentQueries
        self.maxQueuedQueries = maxQueuedQueries
        self.maxBufferedBytes = maxBufferedBytes
        self.retryAfterSeconds = retryAfterSeconds
        self.maxConnections = maxConnections
        self.maxResultLimit = maxResultLimit
        self.firstRequestGrace = firstRequestGrace
    }

    /// The number of active processor cores (at least 1): the default query concurrency.
    public static var defaultConcurrency: Int {
        max(1, System.coreCount)
    }

    /// Checks that every limit is positive.
    ///
    /// - Throws: ``GlimpseServerError`` with code `invalidConfiguration` naming the first bad value.
    public func validate() throws(GlimpseServerError) {
        let positive: [(String, Int)] = [
            ("maxBodyBytes", maxBodyBytes), ("maxHeaderBytes", maxHeaderBytes),
            ("maxDecodePixels", maxDecodePixels), ("maxConcurrentQueries", maxConcurrentQueries),
            ("retryAfterSeconds", retryAfterSeconds), ("maxConnections", maxConnections),
            ("maxResultLimit", maxResultLimit),
        ]
        for (name, value) in positive where value < 1 {
            throw .invalidConfiguration("\(name) is \(value); it must be at least 1")
        }
        if maxQueuedQueries < 0 {
            throw .invalidConfiguration("maxQueuedQueries is \(maxQueuedQueries); it must be 0 or more")
        }
        if idleTimeout <= .zero || requestDeadline <= .zero || headerTimeout <= .zero {
            throw .invalidConfiguration("idleTimeout, headerTimeout and requestDeadline must be longer than zero")
        }
        if maxBufferedBytes < maxBodyBytes {
            throw .invalidConfiguration(
                "maxBufferedBytes is \(maxBufferedBytes), less than maxBodyBytes (\(maxBodyBytes)): "
                    + "a body of the largest size could never be admitted; raise it to at least \(maxBodyBytes)"
            )
        }
        if firstRequestGrace < .zero {
            throw .invalidConfiguration("firstRequestGrace is \(firstRequestGrace); it must be zero or more")
        }
    }
}
