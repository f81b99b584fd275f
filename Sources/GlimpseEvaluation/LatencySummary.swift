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

/// Spells a ``LatencySummary`` in `glimpse-index-bench`'s JSON with the keys that report has always
/// used: `meanMilliseconds`, `p50Milliseconds`, `p99Milliseconds` and `maxMilliseconds`.
@propertyWrapper
public struct MillisecondKeys: Sendable, Codable {
    /// The summary.
    public var wrappedValue: LatencySummary

    /// Wraps `wrappedValue`.
    public init(wrappedValue: LatencySummary) {
        self.wrappedValue = wrappedValue
    }

    private enum CodingKeys: String, CodingKey {
        case mean = "meanMilliseconds", p50 = "p50Milliseconds", p99 = "p99Milliseconds", max = "maxMilliseconds"
    }

    /// Decodes the four keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        wrappedValue = LatencySummary(
            p50: try container.decode(Double.self, forKey: .p50), p99: try container.decode(Double.self, forKey: .p99),
            mean: try container.decode(Double.self, forKey: .mean), max: try container.decode(Double.self, forKey: .max))
    }

    /// Encodes the four keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(wrappedValue.mean, forKey: .mean)
        try container.encode(wrappedValue.p50, forKey: .p50)
        try container.encode(wrappedValue.p99, forKey: .p99)
        try container.encode(wrappedValue.max, forKey: .max)
    }
}

extension LatencySummary {
    /// A summary of figures already computed.
    fileprivate init(p50: Double, p99: Double, mean: Double, max: Double) {
        self.p50 = p50
        self.p99 = p99
        self.mean = mean
        self.max = max
    }
}
