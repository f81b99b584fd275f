import Foundation
import GlimpseBasics
@testable import GlimpseEvaluation
import GlimpseTestSupport
@testable import GlimpseVision
import Testing

@Suite struct EvaluationTests {
    @Test func manifestIsReadRelativeToItsFolder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dir = directory.path
        let json = """
            [{"query": "a.jpg", "place_id": "lake", "ops": [{"op": "rotate", "degrees": -12.5}, {"op": "flip"},
              {"op": "trim", "box": [1, 2, 3, 4]}]},
             {"query": "b.jpg", "place_id": null, "labels": ["sky"]}]
            """
        try json.write(toFile: dir + "/queries.json", atomically: true, encoding: .utf8)
        let entries = try QueryManifest.load(path: dir + "/queries.json")
        #expect(entries.count == 2)
        #expect(entries[0].path == dir + "/a.jpg")
        #expect(entries[0].placeID == "lake" && entries[1].placeID == nil)
        #expect(entries[1].labels == ["sky"])
        #expect(entries[0].ops.map(\.name) == ["rotate", "flip", "trim"])
        #expect(entries[0].ops.compactMap(DistortionBuckets.bucket) == ["rotate |degrees| 10-15", "flip"])

        try "{\"query\": 1}".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        #expect(throws: ManifestError.self) { _ = try QueryManifest.load(path: dir + "/bad.json") }
        #expect(throws: ManifestError.self) { _ = try QueryManifest.load(path: dir + "/missing.json") }
    }

    @Test func summaryCountsRecallAndFalseMatches() {
        var acc = EvaluationAccumulator()
        let rotate = [DistortionOp(name: "rotate", values: ["degrees": 3])]
        acc.add(QueryOutcome(expected: "a", accepted: "a", ranked: ["a", "b"], stageMs: ["total": 10], ops: rotate))
        acc.add(QueryOutcome(expected: "a", accepted: nil, ranked: ["c", "d", "e", "f", "a"], stageMs: ["total": 30], ops: rotate))
        acc.add(QueryOutcome(expected: "b", accepted: "c", ranked: ["c", "x", "y", "z", "w", "b"], stageMs: ["total": 20], ops: []))
        acc.add(QueryOutcome(expected: nil, accepted: "a", ranked: ["a"], stageMs: ["total": 5], ops: []))
        acc.add(QueryOutcome(expected: nil, accepted: nil, ranked: [], stageMs: ["total": 5], ops: []))
        let s = acc.summary()
        #expect(s.queries == 5 && s.placeQueries == 3 && s.noPlaceQueries == 2)
        #expect(abs(s.recallAt1 - 1.0 / 3) < 1e-9)
        #expect(abs(s.recallAt5 - 2.0 / 3) < 1e-9)
        #expect(abs(s.falseMatchRate - 0.5) < 1e-9)
        #expect(abs(s.wrongMatchRate - 1.0 / 3) < 1e-9)
        #expect(s.latencyMs["total"]?.p50 == 10)
        #expect(s.latencyMs["total"]?.max == 30)
        #expect(s.recallByOp["rotate |degrees| 0-5"] == BucketRecall(queries: 2, recallAt1: 0.5))
    }

    @Test func percentilesUseNearestRank() {
        let l = LatencySummary(samples: (1...100).map(Double.init))
        #expect(l.p50 == 50 && l.p99 == 99 && l.max == 100 && l.mean == 50.5)
        #expect(LatencySummary(samples: []).p99 == 0)
    }
}
