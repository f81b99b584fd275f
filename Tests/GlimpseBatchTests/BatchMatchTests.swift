import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseTestSupport
import GlimpseVision
import Synchronization
import Testing

@testable import GlimpseBatch

/// A matcher over the sample catalog whose visual references are its first six places (extracting
/// all 91 would make the debug test run slow), shared by the suite: built on first use, under a lock.
///
/// (A global `let` with this initializer hung when an async test was the first to read it: the
/// thread spun in swift_once with no thread running the initializer.)
var smallMatcher: Result<CatalogMatcher, any Error> {
    smallMatcherCache.withLock { cached in
        if let cached { return cached }
        let built = Result { () throws -> CatalogMatcher in
            let catalog = try Catalog.load(directory: repositoryRoot + "/Images")
            let references = try catalog.places.prefix(6).map { place in
                let image = try ImageDecoder.decode(contentsOfFile: place.photoPath).pixelBuffer
                return (id: place.id, features: FeatureExtractor.extract(from: image))
            }
            return CatalogMatcher(engine: Engine(catalog: catalog, matcher: VisualMatcher(references: references)))
        }
        cached = built
        return built
    }
}

private let smallMatcherCache = Mutex<Result<CatalogMatcher, any Error>?>(nil)

/// A folder with good photos and every kind of bad entry, and the expected status of each entry.
struct MixedFolder {
    let directory: TemporaryDirectory
    /// Expected outcome by file name: a place id for matched photos, or the error kind.
    let expected: [(name: String, outcome: String)]

    init(matcher: CatalogMatcher) throws {
        directory = try TemporaryDirectory()
        var expected: [(String, String)] = []
        let places = Array(matcher.catalog.places.prefix(6))
        // Three reference photos (they must match their own place) and one photo of another place.
        for place in places.prefix(3) {
            let name = "good-" + place.id + ".jpg"
            try directory.write(name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: place.photoPath))))
            expected.append((name, place.id))
        }
        let other = matcher.catalog.places[40]
        try directory.write("other-place.jpg", [UInt8](try Data(contentsOf: URL(fileURLWithPath: other.photoPath))))
        expected.append(("other-place.jpg", "read"))

        // A JPEG cut before its first scan, random bytes named .png, a directory named like a picture,
        // a link to nothing and a FIFO (root reads any file whatever its mode, so these stand in for
        // an unreadable file), and a text file that is not named like a picture (skipped).
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: places[3].photoPath)))
        let scan = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA } ?? 100
        try directory.write("truncated.jpg", Array(jpeg[..<scan]))
        expected.append(("truncated.jpg", "bad_image"))
        var generator = SystemRandomNumberGenerator()
        try directory.write("random.png", (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        expected.append(("random.png", "not_an_image"))
        try FileManager.default.createDirectory(atPath: directory.path + "/x.jpg", withIntermediateDirectories: false)
        expected.append(("x.jpg", "directory"))
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/dangling.jpg", withDestinationPath: directory.path + "/no-such-file")
        expected.append(("dangling.jpg", "missing"))
        guard mkfifo(directory.path + "/fifo.jpg", 0o644) == 0 else { throw BatchError.missing(path: "fifo.jpg") }
        expected.append(("fifo.jpg", "not_regular_file"))
        try directory.write("notes.txt", Array("not a picture".utf8))
        self.expected = expected.sorted { $0.0 < $1.0 }
    }

    func path(_ name: String) -> String { directory.path + "/" + name }
}

@Suite(.serialized) struct BatchMatchTests {
    @Test func aNamedLabelModelThatDoesNotExistIsAnErrorBeforeAnyWork() async throws {
        let missing = "/nonexistent-\(UUID().uuidString)/labels.glimpsemodel"
        do {
            var configuration = EngineConfiguration(catalogDirectory: repositoryRoot + "/Images")
            configuration.labelModel = .file(missing)
            _ = try await Engine.load(configuration)
            Issue.record("loading with a missing label model succeeded")
        } catch {
            guard case .labelModelMissing(let path) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == missing)
        }
    }

    @Test func queryPicturesAreDecodedNoLargerThanTheMatcherLooksAt() throws {
        let matcher = try smallMatcher.get()
        let querySize = try #require(matcher.engine.current.matcher).configuration.queryMaxLongSide
        #expect(matcher.engine.decodingOptions.maxDimension == querySize)
        let photo = matcher.catalog.places[0].photoPath
        let full = try ImageDecoder.decode(contentsOfFile: photo).pixelBuffer
        let decoded = try ImageDecoder.decode(contentsOfFile: photo, options: matcher.engine.decodingOptions).pixelBuffer
        #expect(max(full.width, full.height) > querySize)
        #expect(max(decoded.width, decoded.height) == querySize)
        var smaller = VisionConfiguration.default
        smaller.queryMaxLongSide = 320
        let other = Engine(catalog: matcher.catalog, matcher: VisualMatcher(references: [], configuration: smaller))
        #expect(other.decodingOptions.maxDimension == 320)
    }

    @Test func everyEntryIsReportedInOrderAndTheGoodPhotosMatch() async throws {
        let matcher = try smallMatcher.get()
        let folder = try MixedFolder(matcher: matcher)
        let runner = BatchRunner(matcher: matcher, jobs: 2, limit: 3)
        var records: [MatchRecord] = []
        let summary = try await runner.run(try ImageWalker(root: folder.directory.path)) { records.append($0) }

        #expect(records.map(\.path) == folder.expected.map { folder.path($0.name) })
        for (record, (name, outcome)) in zip(records, folder.expected) {
            switch outcome {
            case "read":
                #expect(record.status != .failed, "\(name): \(record.error ?? "")")
            case let kind where record.status == .failed:
                #expect(record.errorKind == kind, "\(name)")
                #expect(record.error?.contains(folder.path(name)) == true)
            default:
                #expect(record.status == .matched, "\(name)")
                #expect(record.best?.id == outcome, "\(name)")
                #expect(record.results.count <= 3)
            }
        }
        #expect(summary.failed == 5)
        #expect(summary.matched >= 3)
        #expect(summary.processed == folder.expected.count)
    }

    @Test func batchRecordsEqualOneByOneQueries() async throws {
        let matcher = try smallMatcher.get()
        let folder = try MixedFolder(matcher: matcher)
        let walker = try ImageWalker(root: folder.directory.path)
        var batch: [MatchRecord] = []
        _ = try await BatchRunner(matcher: matcher, jobs: 3, limit: 4).run(walker) { batch.append($0) }

        let single = BatchRunner(matcher: matcher, jobs: 1, limit: 4)
        var oneByOne: [MatchRecord] = []
        for item in walker { oneByOne.append(await single.record(for: item)) }
        #expect(batch == oneByOne)
        // And the matched ones equal a direct synchronous query of the same bytes.
        for record in batch where record.status != .failed {
            let direct = try await matcher.match(bytes: FileReader().read(record.path), path: record.path, limit: 4)
            #expect(MatchRecord(path: record.path, outcome: direct) == record)
        }
    }

    @Test(arguments: [RecordFormat.jsonl, .csv])
    func resumeAfterAnInterruptionFinishesWithoutRedoingAnything(format: RecordFormat) async throws {
        let matcher = try smallMatcher.get()
        let folder = try MixedFolder(matcher: matcher)
        let walker = try ImageWalker(root: folder.directory.path)
        let runner = BatchRunner(matcher: matcher, jobs: 2, limit: 3)
        let output = folder.directory.path + "/../" + UUID().uuidString + "." + format.rawValue
        defer { try? FileManager.default.removeItem(atPath: output) }

        // First run: killed after four records, in the middle of writing the fifth.
        struct Killed: Error {}
        var sink = try OutputSink.file(output, fresh: true)
        try sink.write(format.header)
        var written = 0
        do {
            _ = try await runner.run(walker) { record in
                if written == 4 {
                    try sink.write(String(format.encode(record).prefix(20)))
                    throw Killed()
                }
                try sink.write(format.encode(record))
                written += 1
            }
        } catch is Killed {}

        // Second run: resumes, skipping the four finished pictures and replacing the torn record. The
        // killed run's descriptor, and with it its lock on the output, goes first.
        sink = OutputSink.standardOutput()
        let state = try ResumeState.load(path: output, format: format)
        #expect(state.finished.count == 4)
        #expect(state.droppedTornRecord)
        sink = try OutputSink.file(output, truncatingTo: state.validLength)
        var redone: [String] = []
        let summary = try await runner.run(walker, resume: state) { record in
            redone.append(record.path)
            try sink.write(format.encode(record))
        }
        #expect(summary.resumed == 4)
        #expect(Set(redone).isDisjoint(with: state.finished))

        // The file now holds exactly what an uninterrupted run writes.
        var full = format.header
        _ = try await runner.run(walker) { full += format.encode($0) }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == full)
    }
}
