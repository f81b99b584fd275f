import ArgumentParser
import GlimpseEngine
import GlimpseBatch

/// `glimpse match DIR`: matches every picture in a folder against the catalog, one record per picture.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match every picture in a folder against the catalog.",
        discussion: """
            Pictures are matched in sorted order, several at once (--jobs), and one record per picture is \
            written as soon as it and every earlier one are known. Files named like pictures that cannot be \
            read or decoded get a record with the reason; the others are still matched. A progress line is \
            drawn on standard error when it is a terminal, and a summary is printed at the end.

            --resume continues an interrupted run from its --output file (JSON Lines or CSV) without \
            matching again the pictures it already holds.

            The --output file is locked (flock) for the whole run: a second run on the same file stops at \
            once with status 75 and leaves the file alone.

            Exit status: 0 when every picture was read, 65 when some files failed, 64 for bad options, \
            66 when the folder or catalog is missing, 74 when the output cannot be written, 75 when \
            another run holds the --output file.
            """
    )

    @Argument(help: "The folder holding the pictures.")
    var directory: String

    @Flag(help: "Also match pictures in subfolders.")
    var recursive = false

    @Flag(help: "Try every file, not only those named .jpg, .jpeg or .png.")
    var allFiles = false

    @Option(help: "Record format: jsonl, csv or table.")
    var format = "jsonl"

    @Option(help: "Results kept per picture.")
    var limit = 5

    @Option(name: .customLong("min-score"), help: """
        Keep every result scoring at least this, 0…1 (default: the accept line 0.5, so only what is accepted; \
        0 also keeps the places the matcher ranked but did not accept, with their evidence).
        """)
    var minScore: Double?

    @Option(help: "Pictures matched at once (default: one per processor core).")
    var jobs: Int?

    @Option(help: "Write records to this file instead of standard output.")
    var output: String?

    @Flag(help: "Continue an interrupted run from its --output file.")
    var resume = false

    @OptionGroup var matching: EngineOptions

    func validate() throws {
        guard let format = RecordFormat(rawValue: format) else {
            throw ValidationError("--format must be jsonl, csv or table, not '\(self.format)'")
        }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let minScore, !(0...1).contains(minScore) { throw ValidationError("--min-score must lie in 0…1, got \(minScore)") }
        if resume {
            guard output != nil else { throw ValidationError("--resume needs --output FILE: the run to continue") }
            guard format.isResumable else { throw ValidationError("--resume needs --format jsonl or csv") }
        }
    }

    func run() async throws {
        let format = RecordFormat(rawValue: self.format) ?? .jsonl
        do {
            let walker = try ImageWalker(root: directory, options: WalkOptions(recursive: recursive, allFiles: allFiles))
            let matcher = CatalogMatcher(engine: try await matching.load(command: "match"), minimumScore: minScore)
            let runner = BatchRunner(matcher: matcher, jobs: jobs, limit: limit)

            var state = ResumeState()
            let sink: OutputSink
            if let output {
                // The lock comes first: nothing is read or cut while another run may be writing.
                sink = try OutputSink.locked(output)
                if resume {
                    state = try ResumeState.load(path: output, format: format)
                    try sink.truncate(to: state.validLength)
                } else {
                    try sink.truncate(to: 0)
                }
                if resume, !state.finished.isEmpty {
                    var note = "resuming \(output): \(state.finished.count) pictures already done"
                    if state.droppedTornRecord { note += ", an incomplete last record dropped" }
                    BatchProgress.writeError(note + "\n")
                }
            } else {
                sink = OutputSink.standardOutput()
            }
            if sink.size == 0 || output == nil { try sink.write(format.header) }

            var progress = BatchProgress(total: nil)
            if progress.isEnabled { progress.total = walker.count(excluding: state.finished) }
            let summary = try await runner.run(walker, resume: state) { record in
                try sink.write(format.encode(record))
                progress.advance()
            }
            progress.finish()
            BatchProgress.writeError(summary.line + "\n")
            if summary.failed > 0 { throw ExitCode(65) }
        } catch let error as BatchError {
            BatchProgress.writeError("glimpse match: \(error)\n")
            switch error {
            case .notADirectory, .missing: throw ExitCode(66)
            case .outputFailed, .resumeFailed: throw ExitCode(74)
            case .outputLocked: throw ExitCode(75)
            default: throw ExitCode(65)
            }
        } catch let error as EngineError {
            BatchProgress.writeError("glimpse match: \(error)\n")
            throw ExitCode(66)
        }
    }
}
