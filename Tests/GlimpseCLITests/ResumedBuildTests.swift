import Foundation
import GlimpseTestSupport
import Testing

/// A build of the catalog's features that stops part way resumes at the next start.
@Suite("an interrupted build resumes")
struct ResumedBuildTests {
    /// The build is stopped where a test can be sure of it: by a catalog photo that cannot be decoded (a kill
    /// at a chosen moment would race the build on a busy machine). The journal's last record is then cut
    /// short, as a kill in the middle of a write leaves it. Once the photo is fixed, the next run keeps
    /// what the journal holds whole and answers as a build from nothing.
    @Test func aMatchStoppedPartWayResumesAndAnswersAsAWholeBuild() async throws {
        let folder = try TemporaryDirectory()
        let pictures = folder.path + "/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Images/photos/002-rows-of-colorful-plastic-cups.jpg", toPath: pictures + "/cups.jpg")
        // The bundled catalog without its models (run from this folder, none is found): keypoints alone keep
        // the debug build's extraction short, and the journal does not depend on the print. Its 51st photo
        // in catalog order is replaced by bytes that are no picture.
        let catalog = folder.path + "/catalog"
        try FileManager.default.createDirectory(atPath: catalog + "/photos", withIntermediateDirectories: true)
        let definition = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Images/catalog.json"))
        try definition.write(to: URL(fileURLWithPath: catalog + "/catalog.json"))
        let places = try #require(
            (try JSONSerialization.jsonObject(with: definition) as? [String: Any])?["places"] as? [[String: Any]])
        let names = places.compactMap { ($0["image"] as? String).map { ($0 as NSString).lastPathComponent } }
        #expect(names.count == 91)
        let broken = names[50]
        for name in Set(names) where name != broken {
            try FileManager.default.createSymbolicLink(
                atPath: catalog + "/photos/" + name, withDestinationPath: repositoryRoot + "/Images/photos/" + name)
        }
        try Data("no picture".utf8).write(to: URL(fileURLWithPath: catalog + "/photos/" + broken))

        let cache = folder.file("features.cache")
        let journal = cache + ".journal"
        let arguments = ["match", pictures, "--catalog", catalog, "--feature-cache", cache, "--format", "jsonl", "--jobs", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["GLIMPSE_LABEL_MODEL"] = nil
        environment["GLIMPSE_FEATUREPRINT_MODEL"] = nil
        let run = { (arguments: [String]) async throws -> ProcessOutput in
            try await runProcess(try glimpseExecutable(), arguments, in: folder.path, environment: environment)
        }

        let stopped = try await run(arguments)
        #expect(stopped.status != 0)
        #expect(stopped.err.contains(broken), "\(stopped.err)")
        #expect(!FileManager.default.fileExists(atPath: cache))
        var kept = try Data(contentsOf: URL(fileURLWithPath: journal))
        kept.removeLast(100)
        try kept.write(to: URL(fileURLWithPath: journal))

        try FileManager.default.removeItem(atPath: catalog + "/photos/" + broken)
        try FileManager.default.createSymbolicLink(
            atPath: catalog + "/photos/" + broken, withDestinationPath: repositoryRoot + "/Images/photos/" + broken)
        let resumed = try await run(arguments)
        #expect(resumed.status == 0, "\(resumed.err)")
        let line = try #require(resumed.err.split(separator: "\n").first { $0.contains("kept from an interrupted build") })
        let count = try #require(Int(line.split(separator: "(").last?.split(separator: " ").first ?? ""))
        // The 50 photos before the broken one were journaled, less the record cut short; more when a
        // thread got past the broken one in its batch.
        #expect(count >= 49 && count < 91, "\(line)")
        #expect(!FileManager.default.fileExists(atPath: journal))
        #expect(FileManager.default.fileExists(atPath: cache))

        let whole = try await run(arguments + ["--no-feature-cache"])
        #expect(whole.status == 0)
        #expect(resumed.out == whole.out)
        #expect(resumed.out.contains("colorful-plastic-cups"))
        folder.remove()
    }
}
