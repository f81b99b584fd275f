/// Latency percentiles of a set of timed operations, in milliseconds: the one summary behind
/// `glimpse eval`, `glimpse-index-bench`, `glimpse-server-bench` and `glimpse-featureprint-bench`.
///
/// Percentiles are nearest-rank (``percentile(_:_:)``); everything is zero for no samples. Encodes as
/// `p50`, `p99`, `mean` and `max`.
public struct LatencySummary: Sendable, Hashable, Codable {
    /// Median.
    public let p50: Double
    /// 99th percentile.
    public let p99: Double
    /// Mean.
    public let mean: Double
    /// Largest value.
    public let max: Double

    /// Summarises `samples`, each in milliseconds.
    public init(samples: [Double]) {
        self.init(samples, scale: 1)
    }

    /// Summarises `samples`, each in seconds.
    public init(seconds samples: [Double]) {
        self.init(samples, scale: 1000)
    }

    /// A summary of figures already computed (as decoded from a report).
    package init(p50: Double, p99: Double, mean: Double, max: Double) {
        self.p50 = p50
        self.p99 = p99
        self.mean = mean
        self.max = max
    }

    /// Summarises `samples`, reporting each figure multiplied by `scale`.
    private init(_ samples: [Double], scale: Double) {
        let sorted = samples.sorted()
        p50 = Self.percentile(sorted, 0.5) * scale
        p99 = Self.percentile(sorted, 0.99) * scale
        mean = (sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)) * scale
        max = (sorted.last ?? 0) * scale
    }

    /// The nearest-rank percentile of `sorted` (ascending): the smallest value with at least
    /// `fraction` of the values at or below it; 0 when `sorted` is empty.
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }
}
