import Foundation
import GlimpseTestSupport
import Testing

@testable import GlimpseBatch

/// `glimpse match --output` holds an exclusive lock, and a resume never trusts a file two runs wrote.
@Suite struct OutputLockTests {
    private func record(_ i: Int) -> MatchRecord {
        let path = "dir/\(i).jpg"
        return MatchRecord(path: path, outcome: MatchOutcome(results: [], best: nil, labels: []))
    }

    @Test func aSecondWriterIsRefusedAndTheFileLeftAlone() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out.jsonl"
        let first = try OutputSink.file(path, fresh: true)
        try first.write(RecordFormat.jsonl.encode(record(1)))
        #expect(throws: BatchError.outputLocked(path: path)) {
            _ = try OutputSink.file(path, fresh: true)
        }
        #expect(throws: BatchError.outputLocked(path: path)) {
            _ = try OutputSink.locked(path)
        }
        // The refused run neither emptied nor cut the file.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == RecordFormat.jsonl.encode(record(1)))
        #expect(BatchError.outputLocked(path: path).description.contains("another glimpse match"))
        _ = first  // released here: the lock goes with the descriptor
    }

    @Test func theLockIsReleasedWithTheSink() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out.jsonl"
        do {
            let sink = try OutputSink.file(path, fresh: true)
            try sink.write("x\n")
        }
        let again = try OutputSink.locked(path)
        #expect(again.size == 2)
    }

    @Test(arguments: [RecordFormat.jsonl, .csv])
    func aFileWithTwoRecordsForOnePictureIsNotResumed(format: RecordFormat) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out." + format.rawValue
        let text = format.header + [record(1), record(2), record(1)].map(format.encode).joined()
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect {
            _ = try ResumeState.load(path: path, format: format)
        } throws: { error in
            guard case .resumeFailed(_, let reason)? = error as? BatchError else { return false }
            return reason.contains("dir/1.jpg") && reason.contains("two runs")
        }
    }
}
