import Foundation
import Testing

@testable import GlimpseBatch

@Suite struct BenchReportTests {
    @Test func percentilesComeFromTheRecordedLatencies() {
        var recorder = LatencyRecorder()
        for ms in 1...1_000 { recorder.record(.microseconds(ms * 1_000)) }
        recorder.recordError()
        let summary = recorder.summary(seconds: 2)
        #expect(summary.count == 1_000)
        #expect(summary.errors == 1)
        #expect(abs(summary.p50 - 500) < 1)
        #expect(abs(summary.p90 - 900) < 1)
        #expect(abs(summary.p99 - 990) < 1)
        #expect(abs(summary.p999 - 999) < 1)
        #expect(abs(summary.max - 1_000) < 1)
        #expect(summary.perSecond == 500)
    }

    @Test func scaleRunsEveryIndexAndItsJSONHasTheExpectedKeys() throws {
        let bench = ScaleBench(sizes: [300, 1_000], dimension: 16, queries: 20, k: 5)
        var report = BenchReport(mode: "scale")
        report.scale = try bench.run()
        #expect(report.scale?.map(\.index) == ["flat", "hnsw", "flat", "hnsw"])
        #expect(report.scale?.allSatisfy { ($0.latency?.count ?? 0) == 20 } == true)
        #expect(report.scale?.first { $0.index == "flat" }?.recall == 1)
        #expect((report.scale?.last?.recall ?? 0) > 0.5)

        let object = try #require(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["machine", "mode", "scale", "started", "notes"]))
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(Set(machine.keys).isSuperset(of: ["cores", "memory_bytes", "cpu_model", "build", "version"]))
        let row = try #require((object["scale"] as? [[String: Any]])?.first)
        let latency = try #require(row["latency"] as? [String: Any])
        #expect(Set(latency.keys) == [
            "count", "errors", "p50_ms", "p90_ms", "p99_ms", "p99_9_ms", "max_ms", "mean_ms", "per_second",
        ])
        let table = report.table()
        #expect(table.contains("hnsw"))
        #expect(table.contains("p99.9 ms"))
    }

    @Test func aSlowGraphBuildIsSkippedAndSaysSo() throws {
        let bench = ScaleBench(sizes: [500, 50_000], dimension: 8, queries: 5, k: 3, indexes: [.hnsw], maxBuildSeconds: 0)
        let rows = try bench.run()
        #expect(rows.count == 2)
        #expect(rows[0].latency != nil)
        #expect(rows[1].latency == nil)
        #expect(rows[1].skipped?.contains("--max-build-seconds") == true)
    }
}
