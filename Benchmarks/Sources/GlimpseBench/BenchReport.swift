import Foundation
public import GlimpseBatch

/// The latency of one pipeline stage over an in-process run.
public struct StageRow: Sendable, Hashable, Codable {
    /// The stage: `decode`, `features`, `search`, `verification`, `labels` or `query` (the whole query).
    public var stage: String
    /// Its latencies.
    public var latency: LatencyPercentiles

    /// Creates a row.
    public init(stage: String, latency: LatencyPercentiles) {
        self.stage = stage
        self.latency = latency
    }
}

/// The cost of one query against one synthetic catalog size and index type.
public struct ScaleRow: Sendable, Hashable, Codable {
    /// `flat` or `hnsw`.
    public var index: String
    /// The number of reference vectors.
    public var references: Int
    /// The vector dimension.
    public var dimension: Int
    /// Seconds to build the index (`nil` when the size was skipped).
    public var buildSeconds: Double?
    /// Recall@k of this index against the exact flat index over the same queries (1 for flat).
    public var recall: Double?
    /// Query latencies (k nearest neighbours).
    public var latency: LatencyPercentiles?
    /// Why this size was not run, when it was skipped.
    public var skipped: String?

    /// Creates a row.
    public init(index: String, references: Int, dimension: Int, buildSeconds: Double? = nil, recall: Double? = nil,
                latency: LatencyPercentiles? = nil, skipped: String? = nil) {
        self.index = index
        self.references = references
        self.dimension = dimension
        self.buildSeconds = buildSeconds
        self.recall = recall
        self.latency = latency
        self.skipped = skipped
    }

    enum CodingKeys: String, CodingKey {
        case index, references, dimension, recall, latency, skipped
        case buildSeconds = "build_seconds"
    }
}

/// Round trips against a running daemon at one concurrency.
public struct DaemonRow: Sendable, Hashable, Codable {
    /// Requests in flight at once.
    public var concurrency: Int
    /// Seconds the level ran.
    public var seconds: Double
    /// Round-trip latencies of successful requests; `errors` counts the others.
    public var latency: LatencyPercentiles

    /// Creates a row.
    public init(concurrency: Int, seconds: Double, latency: LatencyPercentiles) {
        self.concurrency = concurrency
        self.seconds = seconds
        self.latency = latency
    }
}

/// What `glimpse bench` measured, with the machine and build it ran on.
public struct BenchReport: Sendable, Codable {
    /// The machine, build configuration and version.
    public var machine: MachineInfo
    /// `in-process`, `scale` or `daemon`.
    public var mode: String
    /// When the run started, ISO 8601.
    public var started: String
    /// What was measured and anything left out, in sentences.
    public var notes: [String]
    /// Per-stage latencies (in-process mode).
    public var stages: [StageRow]?
    /// Index cost by catalog size (scale mode).
    public var scale: [ScaleRow]?
    /// Round trips by concurrency (daemon mode).
    public var daemon: [DaemonRow]?

    /// Creates an empty report for `mode` on the current machine.
    public init(mode: String, machine: MachineInfo = .current(), notes: [String] = []) {
        self.machine = machine
        self.mode = mode
        self.started = ISO8601DateFormatter().string(from: Date())
        self.notes = notes
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The report as aligned text tables.
    public func table() -> String {
        var out = "glimpse bench (\(mode)), \(started)\n\(machine.line)\n"
        for note in notes { out += "note: \(note)\n" }
        let head = ["p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "per s"]
        func cells(_ l: LatencyPercentiles) -> [String] {
            [ms(l.p50), ms(l.p90), ms(l.p99), ms(l.p999), ms(l.max), format(l.perSecond, 1)]
        }
        if let stages {
            out += "\n" + TextGrid(header: ["stage", "n"] + head, rows: stages.map {
                [$0.stage, String($0.latency.count)] + cells($0.latency)
            }).render()
        }
        if let scale {
            out += "\n" + TextGrid(header: ["index", "refs", "dim", "build s", "recall"] + head, rows: scale.map { row in
                let lead = [row.index, String(row.references), String(row.dimension),
                            row.buildSeconds.map { format($0, 2) } ?? "-", row.recall.map { format($0, 3) } ?? "-"]
                if let latency = row.latency { return lead + cells(latency) }
                return lead + ["skipped: " + (row.skipped ?? "")]
            }).render()
        }
        if let daemon {
            out += "\n" + TextGrid(header: ["concurrency", "ok", "errors"] + head, rows: daemon.map {
                [String($0.concurrency), String($0.latency.count), String($0.latency.errors)] + cells($0.latency)
            }).render()
        }
        return out
    }

    private func ms(_ value: Double) -> String {
        value >= 100 ? format(value, 0) : value >= 1 ? format(value, 2) : format(value, 3)
    }
}

/// A plain text table: columns padded to their widest cell, the first left-aligned, the rest right-aligned.
struct TextGrid {
    let header: [String]
    let rows: [[String]]

    func render() -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                guard i < widths.count else { return cell }
                let fill = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? cell + fill : fill + cell
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
