import Foundation
import GlimpseTestSupport
import Testing

@testable import GlimpseBatch

@Suite struct ResumeStateTests {
    private func records(_ n: Int) -> [MatchRecord] {
        (0..<n).map { (i: Int) -> MatchRecord in
            let path = "dir/\(i).jpg"
            if i % 3 == 2 { return MatchRecord(path: path, failure: .missing(path: path)) }
            let candidate = RankedEntity(id: "p\(i)", title: "Place, \(i)", score: Double(i))
            return MatchRecord(path: path, outcome: MatchOutcome(results: [candidate], best: i % 3 == 0 ? candidate : nil, labels: []))
        }
    }

    @Test(arguments: [RecordFormat.jsonl, .csv])
    func readsCompleteRecordsAndDropsATornLastOne(format: RecordFormat) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out." + format.rawValue
        let complete = format.header + records(5).map(format.encode).joined()
        let torn = String(format.encode(records(6)[5]).dropLast(7))
        try (complete + torn).write(toFile: path, atomically: false, encoding: .utf8)

        let state = try ResumeState.load(path: path, format: format)
        #expect(state.finished == Set((0..<5).map { "dir/\($0).jpg" }))
        #expect(state.counts[.matched] == 2)
        #expect(state.counts[.noMatch] == 2)
        #expect(state.counts[.failed] == 1)
        #expect(state.validLength == complete.utf8.count)
        #expect(state.droppedTornRecord)
        #expect(state.hasHeader == (format == .csv))
    }

    @Test func aMissingFileMeansNothingIsDone() throws {
        let state = try ResumeState.load(path: "/nonexistent/glimpse-out.jsonl", format: .jsonl)
        #expect(state.finished.isEmpty)
        #expect(state.validLength == 0)
    }

    @Test func aMalformedRecordBeforeTheEndIsRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out.jsonl"
        try ("not json\n" + RecordFormat.jsonl.encode(records(1)[0])).write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: BatchError.self) { try ResumeState.load(path: path, format: .jsonl) }
    }

    @Test func tablesCannotBeResumed() {
        #expect(throws: BatchError.self) { try ResumeState.load(path: "/tmp/x.txt", format: .table) }
    }
}
