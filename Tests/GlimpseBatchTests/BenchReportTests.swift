import Foundation
import GlimpseTestSupport
import Testing

@testable import GlimpseBatch
@testable import GlimpseBench

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

    @Test func inProcessRunsEveryStageAndItsJSONHasTheExpectedKeys() async throws {
        let matcher = try smallMatcher.get()
        let pictures = try Repository.samplePhotos().prefix(3).map { (path: $0, bytes: try FileReader().read($0)) }
            + [(path: "broken.jpg", bytes: [0xFF, 0xD8, 0xFF])]
        var report = BenchReport(mode: "in-process")
        report.stages = await InProcessBench(passes: 1, limit: 3).run(matcher, pictures: pictures)
        let stages = try #require(report.stages)
        #expect(stages.map(\.stage) == ["decode", "features", "mirror_features", "search", "verification", "query"])
        let query = try #require(stages.last)
        #expect(query.latency.count == 3)
        #expect(query.latency.errors == 1)
        #expect(query.latency.p50 > 0 && query.latency.p50 <= query.latency.p99 && query.latency.p99 <= query.latency.max)
        // The whole query takes at least as long as any of its stages.
        for stage in stages.dropLast() { #expect(stage.latency.p50 <= query.latency.max) }

        let object = try #require(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect(object["mode"] as? String == "in-process")
        let rows = try #require(object["stages"] as? [[String: Any]])
        #expect(rows.count == stages.count)
        #expect(Set(rows[0].keys) == ["stage", "latency"])
        #expect(report.table().contains("verification"))
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
