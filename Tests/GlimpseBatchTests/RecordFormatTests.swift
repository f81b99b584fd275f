import Foundation
import Testing

@testable import GlimpseBatch

@Suite struct RecordFormatTests {
    static let matched = MatchRecord(
        path: "photos/a, \"quoted\".jpg",
        outcome: MatchOutcome(
            results: [RankedEntity(id: "jetty", title: "Wooden jetty, calm lake", score: 87, reason: "matched jetty"),
                      RankedEntity(type: "collection", id: "piers", title: "Piers", score: 4.25)],
            best: RankedEntity(id: "jetty", title: "Wooden jetty, calm lake", score: 87, reason: "matched jetty"),
            labels: [MatchLabel(name: "lake", confidence: 0.91234)]))
    static let failed = MatchRecord(path: "bad\nname.png", failure: .notAnImage(path: "bad\nname.png", reason: "no magic"))
    static let unmatched = MatchRecord(
        path: "x.jpg", outcome: MatchOutcome(results: [RankedEntity(id: "pier", title: "Pier", score: 3)],
                                             best: nil, labels: []))

    @Test func statusFollowsTheOutcome() {
        #expect(Self.matched.status == .matched)
        #expect(Self.matched.best?.id == "jetty")
        #expect(Self.unmatched.status == .noMatch)
        #expect(Self.unmatched.best == nil)
        #expect(Self.unmatched.score == 3)
        #expect(Self.failed.status == .failed)
        #expect(Self.failed.errorKind == "not_an_image")
    }

    @Test(arguments: [matched, failed, unmatched])
    func jsonLinesRoundTrip(record: MatchRecord) throws {
        let line = RecordFormat.jsonl.encode(record)
        #expect(line.hasSuffix("\n"))
        #expect(line.dropLast().contains("\n") == false)
        var expected = record
        expected.labels = record.labels.map { MatchLabel(name: $0.name, confidence: ($0.confidence * 10_000).rounded() / 10_000) }
        let decoded = try JSONDecoder().decode(MatchRecord.self, from: Data(line.utf8))
        #expect(decoded == expected)
    }

    @Test func jsonKeysComeInAFixedOrder() {
        let line = RecordFormat.jsonl.encode(Self.unmatched)
        #expect(line.hasPrefix("{\"path\":\"x.jpg\",\"status\":\"no_match\",\"best\":null,\"score\":3,\"results\":["))
    }

    @Test func csvQuotesFieldsThatNeedIt() {
        #expect(RecordFormat.csvField("plain") == "plain")
        #expect(RecordFormat.csvField("a,b") == "\"a,b\"")
        #expect(RecordFormat.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(RecordFormat.csvField("two\nlines") == "\"two\nlines\"")
        #expect(RecordFormat.csvField(" edge") == "\" edge\"")
    }

    @Test func csvRecordsSplitBackIntoTheirFields() {
        let text = RecordFormat.csv.header + [Self.matched, Self.failed, Self.unmatched].map(RecordFormat.csv.encode).joined()
        var splitter = RecordSplitter(csv: true)
        var records: [[String]] = []
        for byte in text.utf8 {
            if let fields = splitter.feed(byte) { records.append(fields) }
        }
        #expect(!splitter.hasPartialRecord)
        #expect(records.count == 4)
        #expect(records.allSatisfy { $0.count == 9 })
        #expect(records[1][0] == Self.matched.path)
        #expect(records[1][3] == "Wooden jetty, calm lake")
        #expect(records[1][5] == "jetty:87|piers:4.25")
        #expect(records[1][6] == "lake:0.9123")
        #expect(records[2][0] == "bad\nname.png")
        #expect(records[2][1] == "failed")
        #expect(records[3][1] == "no_match")
    }

    @Test func tableRowsFitTheirColumns() {
        let row = RecordFormat.table.encode(Self.matched)
        #expect(row.hasPrefix("matched  87      Wooden jetty, calm lake"))
        #expect(row.hasSuffix(Self.matched.path + "\n"))
        let failedRow = RecordFormat.table.encode(Self.failed)
        #expect(failedRow.hasPrefix("FAILED   -       not_an_image"))
    }

    @Test func numbersAreRoundedAndFinite() {
        #expect(RecordFormat.number(87) == "87")
        #expect(RecordFormat.number(0.123456) == "0.1235")
        #expect(RecordFormat.number(.nan) == "0")
    }
}
