import Foundation
import GlimpseFiles
import GlimpseTestSupport
import Testing

/// A build of the catalog's features killed part way resumes at the next start.
@Suite("an interrupted build resumes")
struct ResumedBuildTests {
    @Test func aMatchKilledWhileExtractingResumesAndAnswersAsAWholeBuild() async throws {
        let folder = try TemporaryDirectory()
        let pictures = folder.path + "/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Images/photos/002-rows-of-colorful-plastic-cups.jpg", toPath: pictures + "/cups.jpg")
        // The bundled catalog without its models (run from this folder, none is found): keypoints alone keep
        // the debug build's extraction short, and the journal does not depend on the print.
        let catalog = folder.path + "/catalog"
        try FileManager.default.createDirectory(atPath: catalog, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Images/catalog.json", toPath: catalog + "/catalog.json")
        try FileManager.default.createSymbolicLink(atPath: catalog + "/photos", withDestinationPath: repositoryRoot + "/Images/photos")
        let cache = folder.file("features.cache")
        let journal = cache + ".journal"
        let arguments = ["match", pictures, "--catalog", catalog, "--feature-cache", cache, "--format", "jsonl", "--jobs", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["GLIMPSE_LABEL_MODEL"] = nil
        environment["GLIMPSE_FEATUREPRINT_MODEL"] = nil
        let run = { (arguments: [String]) throws -> ProcessOutput in
            try runProcess(try glimpseExecutable(), arguments, in: folder.path, environment: environment)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try glimpseExecutable())
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once the first batch of photos is in the journal (its header alone is under 200 bytes).
        try await poll(every: .milliseconds(20), upTo: .seconds(600), "the first journaled photos") {
            (AtomicFile.size(of: journal) ?? 0) > 1_000 || !process.isRunning
        }
        #expect(process.isRunning, "the build finished before it could be interrupted")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: cache))

        let resumed = try run(arguments)
        #expect(resumed.status == 0, "\(resumed.err)")
        let line = try #require(resumed.err.split(separator: "\n").first { $0.contains("kept from an interrupted build") })
        let kept = try #require(Int(line.split(separator: "(").last?.split(separator: " ").first ?? ""))
        #expect(kept >= 8 && kept < 91, "\(line)")
        #expect(!FileManager.default.fileExists(atPath: journal))
        #expect(FileManager.default.fileExists(atPath: cache))

        let whole = try run(arguments + ["--no-feature-cache"])
        #expect(whole.status == 0)
        #expect(resumed.out == whole.out)
        #expect(resumed.out.contains("colorful-plastic-cups"))
        folder.remove()
    }
}
