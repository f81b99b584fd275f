import GlimpseBasics
import Histogram

/// Collects latencies in an HdrHistogram (three significant digits, nanosecond resolution) and
/// summarises them as percentiles.
public struct LatencyRecorder: Sendable {
    private var histogram: Histogram<UInt64>
    /// The number of samples that were errors rather than latencies.
    public private(set) var errors = 0

    /// Creates an empty recorder.
    public init() {
        histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        histogram.autoResize = true
    }

    /// The number of latencies recorded.
    public var count: Int { Int(histogram.totalCount) }

    /// Records one latency.
    public mutating func record(_ duration: Duration) {
        _ = histogram.record(UInt64(max(1, duration.nanoseconds)))
    }

    /// Counts one failed sample.
    public mutating func recordError() {
        errors += 1
    }

    /// Adds the samples of `other`.
    public mutating func merge(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
        errors += other.errors
    }

    /// The percentiles of what was recorded, with throughput computed over `seconds` of wall time.
    public func summary(seconds: Double) -> LatencyPercentiles {
        func ms(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e6 }
        guard histogram.totalCount > 0 else {
            return LatencyPercentiles(count: 0, errors: errors, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0,
                                  perSecond: 0)
        }
        return LatencyPercentiles(
            count: count,
            errors: errors,
            p50: ms(histogram.valueAtPercentile(50)),
            p90: ms(histogram.valueAtPercentile(90)),
            p99: ms(histogram.valueAtPercentile(99)),
            p999: ms(histogram.valueAtPercentile(99.9)),
            max: ms(histogram.max),
            mean: histogram.mean / 1e6,
            perSecond: seconds > 0 ? Double(count) / seconds : 0
        )
    }
}

/// Latency percentiles in milliseconds, and throughput.
public struct LatencyPercentiles: Sendable, Hashable, Codable {
    /// Samples recorded.
    public var count: Int
    /// Samples that failed and carry no latency.
    public var errors: Int
    /// Median, in milliseconds.
    public var p50: Double
    /// 90th percentile, in milliseconds.
    public var p90: Double
    /// 99th percentile, in milliseconds.
    public var p99: Double
    /// 99.9th percentile, in milliseconds.
    public var p999: Double
    /// Largest sample, in milliseconds.
    public var max: Double
    /// Mean, in milliseconds.
    public var mean: Double
    /// Samples per second of wall time.
    public var perSecond: Double

    /// Creates a summary.
    public init(count: Int, errors: Int, p50: Double, p90: Double, p99: Double, p999: Double, max: Double,
                mean: Double, perSecond: Double) {
        self.count = count
        self.errors = errors
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.mean = mean
        self.perSecond = perSecond
    }

    enum CodingKeys: String, CodingKey {
        case count, errors
        case mean = "mean_ms", max = "max_ms"
        case p50 = "p50_ms", p90 = "p90_ms", p99 = "p99_ms", p999 = "p99_9_ms"
        case perSecond = "per_second"
    }
}
