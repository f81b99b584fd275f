public import GlimpseBasics
public import GlimpseVision

/// What happened to one evaluation query.
public struct QueryOutcome: Sendable {
    /// The place the query shows, nil when it shows none.
    public let expected: String?
    /// The accepted place, nil for "no match".
    public let accepted: String?
    /// Candidate places best first.
    public let ranked: [String]
    /// Wall-clock milliseconds per stage, by stage name (`decode`, `features`, `shortlist`, `verification`, `total`).
    public let stageMs: [String: Double]
    /// Thread CPU milliseconds per stage, same names.
    public let stageCPUMs: [String: Double]
    /// The distortion steps of the query.
    public let ops: [DistortionOp]

    /// Creates an outcome.
    public init(
        expected: String?, accepted: String?, ranked: [String], stageMs: [String: Double],
        stageCPUMs: [String: Double] = [:], ops: [DistortionOp]
    ) {
        self.stageCPUMs = stageCPUMs
        self.expected = expected
        self.accepted = accepted
        self.ranked = ranked
        self.stageMs = stageMs
        self.ops = ops
    }
}

/// Recall for one distortion bucket.
public struct BucketRecall: Sendable, Hashable, Codable {
    /// Queries of catalog places in the bucket.
    public let queries: Int
    /// Share of them whose accepted place was right.
    public let recallAt1: Double

    enum CodingKeys: String, CodingKey {
        case queries
        case recallAt1 = "recall_at_1"
    }
}

/// The figures `glimpse eval` reports.
public struct EvaluationSummary: Sendable, Codable {
    /// Share of catalog-place queries whose accepted place is right.
    public let recallAt1: Double
    /// Share of catalog-place queries whose place is among the first five candidates.
    public let recallAt5: Double
    /// Share of no-place queries for which a place was accepted.
    public let falseMatchRate: Double
    /// Share of catalog-place queries for which a wrong place was accepted.
    public let wrongMatchRate: Double
    /// Number of queries, all kinds.
    public let queries: Int
    /// Queries of catalog places.
    public let placeQueries: Int
    /// Queries of no catalog place.
    public let noPlaceQueries: Int
    /// Wall-clock latency per stage name.
    public let latencyMs: [String: LatencySummary]
    /// Thread CPU time per stage name (the work done, unaffected by other processes on the machine).
    public let cpuMs: [String: LatencySummary]
    /// Recall@1 per distortion bucket, keyed like `rotate |deg| 10-15`.
    public let recallByOp: [String: BucketRecall]

    enum CodingKeys: String, CodingKey {
        case recallAt1 = "recall_at_1"
        case recallAt5 = "recall_at_5"
        case falseMatchRate = "false_match_rate"
        case wrongMatchRate = "wrong_match_rate"
        case queries
        case placeQueries = "place_queries"
        case noPlaceQueries = "no_place_queries"
        case latencyMs = "latency_ms"
        case cpuMs = "cpu_ms"
        case recallByOp = "recall_by_op"
    }
}

/// Accumulates query outcomes into an ``EvaluationSummary``.
///
/// Add one ``QueryOutcome`` per query; further metrics (labels, for instance) can be accumulated
/// alongside by their own types and merged into the printed result.
public struct EvaluationAccumulator: Sendable {
    private(set) var outcomes: [QueryOutcome] = []

    /// An empty accumulator.
    public init() {}

    /// Records one query.
    public mutating func add(_ outcome: QueryOutcome) { outcomes.append(outcome) }

    /// The number of queries recorded.
    public var count: Int { outcomes.count }

    /// The outcomes recorded so far, in order.
    public var recorded: [QueryOutcome] { outcomes }

    /// The figures over everything recorded.
    public func summary() -> EvaluationSummary {
        let places = outcomes.filter { $0.expected != nil }
        let nulls = outcomes.filter { $0.expected == nil }
        func share(_ n: Int, _ d: Int) -> Double { d == 0 ? 0 : Double(n) / Double(d) }
        let hit1 = places.filter { $0.accepted == $0.expected }.count
        let hit5 = places.filter { o in o.ranked.prefix(5).contains { $0 == o.expected } }.count
        let wrong = places.filter { $0.accepted != nil && $0.accepted != $0.expected }.count
        let falseMatches = nulls.filter { $0.accepted != nil }.count
        var stages: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]
        for o in outcomes {
            for (k, v) in o.stageMs { stages[k, default: []].append(v) }
            for (k, v) in o.stageCPUMs { cpu[k, default: []].append(v) }
        }
        var buckets: [String: (Int, Int)] = [:]
        for o in places {
            let right = o.accepted == o.expected
            for key in Set(o.ops.compactMap(DistortionBuckets.bucket)) {
                let old = buckets[key] ?? (0, 0)
                buckets[key] = (old.0 + 1, old.1 + (right ? 1 : 0))
            }
        }
        return EvaluationSummary(
            recallAt1: share(hit1, places.count), recallAt5: share(hit5, places.count),
            falseMatchRate: share(falseMatches, nulls.count), wrongMatchRate: share(wrong, places.count),
            queries: outcomes.count, placeQueries: places.count, noPlaceQueries: nulls.count,
            latencyMs: stages.mapValues { LatencySummary(samples: $0) },
            cpuMs: cpu.mapValues { LatencySummary(samples: $0) },
            recallByOp: buckets.mapValues { BucketRecall(queries: $0.0, recallAt1: share($0.1, $0.0)) })
    }
}

/// How distortion steps are grouped for the per-distortion recall.
public enum DistortionBuckets {
    /// For each op name: the parameter bucketed, whether its absolute value is used, and the bucket edges.
    static let rules: [String: (key: String, absolute: Bool, edges: [Double])] = [
        "rotate": ("degrees", true, [0, 5, 10, 15, 20, 25]),
        "crop": ("area", false, [0, 0.55, 0.65, 0.75, 0.9]),
        "scale": ("long_side", false, [0, 400, 640, 1000, 1600]),
        "jpeg": ("quality", false, [0, 30, 50, 70, 90]),
        "blur": ("radius", false, [0, 0.5, 1.0, 1.5, 2.5]),
        "noise": ("sigma", false, [0, 2, 4, 6, 10]),
        "brightness": ("factor", false, [0, 0.85, 1.0, 1.15, 2]),
        "contrast": ("factor", false, [0, 0.85, 1.0, 1.15, 2]),
        "temperature": ("shift", true, [0, 0.05, 0.1, 0.2]),
    ]

    /// The bucket name of one step, e.g. `rotate |degrees| 10-15` or `flip`; nil for steps that
    /// are not bucketed (`trim`, `perspective`).
    public static func bucket(_ op: DistortionOp) -> String? {
        if op.values.isEmpty { return op.name == "flip" ? "flip" : nil }
        guard let rule = rules[op.name], let raw = op.values[rule.key] else { return nil }
        let v = rule.absolute ? abs(raw) : raw
        let e = rule.edges
        var i = 0
        while i + 2 < e.count && v >= e[i + 1] { i += 1 }
        let name = rule.absolute ? "|\(rule.key)|" : rule.key
        return "\(op.name) \(name) \(format(e[i]))-\(format(e[i + 1]))"
    }

    private static func format(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(x)
    }
}
