import GlimpseBasics

// The one place where the time of a query turns into the wire's milliseconds: below the wire
// (matcher, search, engine, daemon routes) time stays a `Duration`.

extension TimingsJSON {
    /// Timings from durations, each in milliseconds on the wire (`Duration.milliseconds` of `GlimpseBasics`).
    public init(body: Duration, decode: Duration, query: Duration, total: Duration) {
        self.init(bodyMs: body.milliseconds, decodeMs: decode.milliseconds, queryMs: query.milliseconds,
                  totalMs: total.milliseconds)
    }
}

extension QueryResponseJSON {
    /// The matcher's stage timings as ``matcherTimingsMs`` carries them: milliseconds to the microsecond.
    public static func matcherTimingsMs(_ timings: [String: Duration]) -> [String: Double] {
        timings.mapValues { ($0.milliseconds * 1000).rounded() / 1000 }
    }
}
