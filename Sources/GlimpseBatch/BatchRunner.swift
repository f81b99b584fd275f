import GlimpseBasics
/// Counts and rate of a finished (or interrupted) batch.
public struct BatchSummary: Sendable, Hashable {
    /// Pictures matched to a catalog entity in this run.
    public var matched = 0
    /// Pictures read that matched nothing in this run.
    public var noMatch = 0
    /// Files that could not be read or matched in this run.
    public var failed = 0
    /// Files skipped because an earlier run (``ResumeState``) already has their record.
    public var resumed = 0
    /// Wall-clock seconds spent in this run.
    public var seconds: Double = 0

    /// Creates an empty summary.
    public init() {}

    /// Files handled in this run.
    public var processed: Int { matched + noMatch + failed }

    /// Files handled per second in this run.
    public var filesPerSecond: Double { seconds > 0 ? Double(processed) / seconds : 0 }

    /// Counts one record.
    public mutating func add(_ status: MatchRecord.Status) {
        switch status {
        case .matched: matched += 1
        case .noMatch: noMatch += 1
        case .failed: failed += 1
        }
    }

    /// One line such as `matched 80, no match 5, failed 2; 87 files in 9.1 s (9.6 files/s)`.
    public var line: String {
        var text = "matched \(matched), no match \(noMatch), failed \(failed)"
        if resumed > 0 { text += ", already done \(resumed)" }
        text += "; \(processed) files in \(format(seconds, 1)) s (\(format(filesPerSecond, 1)) files/s)"
        return text
    }
}

/// Formats `value` with `decimals` digits after the point.
package func format(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int64(scaled / scale)
    guard decimals > 0 else { return String(whole) }
    let fraction = Int64(abs(scaled) - abs(Double(whole)) * scale)
    let digits = String(fraction)
    let sign = value < 0 && whole == 0 && fraction > 0 ? "-" : ""
    return sign + String(whole) + "." + String(repeating: "0", count: max(0, decimals - digits.count)) + digits
}

/// Matches many pictures: reads each file, hands it to an ``ImageMatching`` matcher, and turns
/// every outcome or failure into a ``MatchRecord``, with bounded concurrency and in walk order.
public struct BatchRunner: Sendable {
    /// The matcher each picture is given to.
    public let matcher: any ImageMatching
    /// How files are read.
    public let reader: FileReader
    /// The number of pictures matched at once.
    public let jobs: Int
    /// The number of results kept per picture.
    public let limit: Int

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - jobs: pictures matched at once; `nil` means one per processor core.
    ///   - limit: results kept per picture (at least 1).
    public init(matcher: any ImageMatching, reader: FileReader = FileReader(), jobs: Int? = nil, limit: Int = 5) {
        self.matcher = matcher
        self.reader = reader
        self.jobs = max(1, jobs ?? MachineInfo.activeProcessorCount)
        self.limit = max(1, limit)
    }

    /// Matches one item: the same work the batch does per file, for comparison and for tests.
    public func record(for item: BatchItem) async -> MatchRecord {
        if let problem = item.problem { return MatchRecord(path: item.path, failure: problem) }
        do throws(BatchError) {
            let bytes = try reader.read(item.path)
            let outcome = try await matcher.match(bytes: bytes, path: item.path, limit: limit)
            return MatchRecord(path: item.path, outcome: outcome)
        } catch {
            return MatchRecord(path: item.path, failure: error)
        }
    }

    /// Matches every item not in `resume`, calling `emit` with each record in item order.
    ///
    /// - Returns: the counts of this run (``BatchSummary/resumed`` counts the items skipped).
    /// - Throws: whatever `emit` throws (the run stops at that point).
    public func run(
        _ items: some Sequence<BatchItem>,
        resume: ResumeState = ResumeState(),
        emit: (MatchRecord) throws -> Void
    ) async throws -> BatchSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = BatchSummary()
        var resumed = 0
        let todo = items.lazy.filter { item in
            if resume.finished.contains(item.path) {
                resumed += 1
                return false
            }
            return true
        }
        let runner = self
        try await OrderedConcurrentMap(jobs: jobs).run(todo) { item in
            await runner.record(for: item)
        } emit: { _, record in
            summary.add(record.status)
            try emit(record)
        }
        summary.resumed = resumed
        summary.seconds = (clock.now - start).seconds
        return summary
    }
}
