import Foundation
import GlimpseImage
import GlimpseTestSupport
import Testing

/// Runs `glimpse` from the repository root; returns its exit status, stdout and stderr (shared by this target's suites).
func glimpse(_ arguments: [String]) async throws -> ProcessOutput {
    // The catalog's feature cache goes under the build folder, not into the user's cache folder.
    try await runProcess(
        try glimpseExecutable(), arguments, in: repositoryRoot,
        environment: ProcessInfo.processInfo.environment
            .merging(["GLIMPSE_CACHE_DIR": repositoryRoot + "/.build/test-feature-cache"]) { $1 })
}

@Suite("glimpse command line")
struct CommandLineTests {
    @Test func labelsOnlyQueryReturnsFittingCollections() async throws {
        let run = try await glimpse(["query", "--labels", "tower,sky", "--limit", "3", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let page = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let results = page?["results"] as? [[String: Any]] ?? []
        #expect(results.count == 3)
        #expect(results.allSatisfy { $0["type"] as? String == "collection" })
        // The daemon's document: each result carries its entity.
        let ids = results.compactMap { ($0["entity"] as? [String: Any])?["id"] as? String }
        #expect(ids.contains("towers"), "\(ids)")
    }

    @Test func entitySearchIsCaseAndAccentInsensitive() async throws {
        let run = try await glimpse(["entities", "--search", "ÉIFFEL"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("eiffel-tower"))
    }

    @Test func propertyQueryFiltersAndSorts() async throws {
        let run = try await glimpse(["entities", "--where", "kind == landmark", "--where", "continent == Asia",
                               "--sort", "name", "--limit", "2"])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").filter { $0.hasPrefix("place") }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("Asia") })
    }

    @Test func unknownPropertyIsAClearError() async throws {
        let run = try await glimpse(["entities", "--where", "colour == red"])
        #expect(run.status != 0)
        #expect((run.out + run.err).contains("colour"))
    }

    @Test func severalFilesAreAnsweredInTurnAndABadOneIsReportedAndSkipped() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]).write(to: broken)
        let photo = "Images/photos/040-eiffel-tower.jpg"
        let run = try await glimpse(["query", broken.path, photo, "--limit", "2"])
        #expect(run.status == 1)
        #expect(run.err.contains("broken.jpg"))
        #expect(run.out.contains("==> \(photo)"))
        let page = run.out.components(separatedBy: "==> \(photo)").last ?? ""
        let first = page.split(separator: "\n").first { $0.contains("1. ") } ?? ""
        #expect(first.contains("place") && first.contains("eiffel-tower"), "\(page)")
    }

    @Test func explainWritesAPNGAndTheBoxLimitsTheSearch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The Eiffel Tower on the left, the Colosseum on the right.
        let pair = TestImages.sideBySide(
            try ImageDecoder.decode(contentsOfFile: "\(repositoryRoot)/Images/photos/040-eiffel-tower.jpg",
                                    options: DecodingOptions(maxDimension: 640)).pixelBuffer,
            try ImageDecoder.decode(contentsOfFile: "\(repositoryRoot)/Images/photos/050-colosseum.jpg",
                                    options: DecodingOptions(maxDimension: 640)).pixelBuffer,
            height: 480)
        let picture = directory.appendingPathComponent("pair.png").path
        try Data(try pair.pngData()).write(to: URL(fileURLWithPath: picture))
        let out = directory.appendingPathComponent("why.png").path
        let run = try await glimpse(["query", picture, "--explain", out, "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("eiffel-tower") && run.out.contains("colosseum") && run.out.contains("\"region\""))
        let drawn = try ImageDecoder.decode(contentsOfFile: out)
        #expect(drawn.format == .png && drawn.pixelBuffer.width > drawn.pixelBuffer.height)

        let right = try await glimpse(["query", picture, "--box", "0.5,0,0.5,1", "--limit", "1"])
        #expect(right.status == 0, "\(right.err)")
        #expect(right.out.contains("colosseum") && !right.out.contains("eiffel-tower"), "\(right.out)")
        let bad = try await glimpse(["query", picture, "--box", "0.5,0,0.6,1"])
        #expect(bad.status != 0 && bad.err.contains("--box"))
    }

    @Test func minScoreListsThePlacesRankedBelowTheLine() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A gradient with noise: no catalog place.
        var state: UInt32 = 4_242
        let nothing = try TestImages.image(width: 640, height: 480) { x, y in
            state = state &* 1_103_515_245 &+ 12_345
            let noise = UInt8(truncatingIfNeeded: state >> 24) / 4
            return (UInt8(x / 3 % 256) &+ noise, 60 &+ noise, UInt8(y / 2 % 256) &+ noise)
        }
        let picture = directory.appendingPathComponent("nothing.png").path
        try Data(try nothing.pngData()).write(to: URL(fileURLWithPath: picture))
        let plain = try await glimpse(["query", picture])
        #expect(plain.status == 0, "\(plain.err)")
        #expect(plain.out.contains("no results"), "\(plain.out)")
        let open = try await glimpse(["query", picture, "--min-score", "0", "--limit", "20"])
        #expect(open.status == 0, "\(open.err)")
        #expect(open.out.contains("possible match") && open.out.contains("not accepted: below the line 0.5"), "\(open.out)")
        let bad = try await glimpse(["query", picture, "--min-score", "1.5"])
        #expect(bad.status != 0 && bad.err.contains("--min-score"))
    }

    @Test func modelsEvaluateReportsTheGainOverTheBaselineWithAnInterval() async throws {
        // A labelled folder of 36 catalog photos (its photos/ a link to the catalog's), leave-one-out:
        // both extractors, and the paired bootstrap of their difference.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("photos"),
                                                   withDestinationURL: URL(fileURLWithPath: repositoryRoot + "/Images/photos"))
        let catalog = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Images/catalog.json"))) as? [String: Any]
        let places = (catalog?["places"] as? [[String: Any]] ?? []).prefix(36)
        let entries = places.map { ["id": $0["id"] ?? "", "image": $0["image"] ?? "", "labels": $0["labels"] ?? []] }
        try JSONSerialization.data(withJSONObject: Array(entries)).write(to: directory.appendingPathComponent("labels.json"))
        let run = try await glimpse(["models", "evaluate", "--no-catalog-photos", "--labelled", directory.path, "--json"])
        #expect(run.status == 0, "\(run.err)")
        let report = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let methods = report?["methods"] as? [[String: Any]] ?? []
        #expect(methods.compactMap { ($0["extractor"] as? String)?.split(separator: " ").first }
            == ["featureprint", "scene", "colour-histogram"])
        let gains = report?["gains"] as? [[String: Any]] ?? []
        #expect(gains.count == 2)
        let gain = gains.first?["microF1"] as? [String: Any] ?? [:]
        #expect(gains.first?["testSet"] as? String == "leave-one-out")
        #expect(gain["groups"] as? Int == 36 && gain["resamples"] as? Int == 2000)
        let low = gain["low"] as? Double ?? .nan, value = gain["gain"] as? Double ?? .nan
        let high = gain["high"] as? Double ?? .nan
        #expect(low <= value && value <= high && high - low > 0, "\(gain)")
        let f1 = methods.compactMap { (($0["leaveOneOut"] as? [String: Any])?["micro"] as? [String: Any])?["f1"] as? Double }
        #expect(f1.count == 3 && abs((f1[0] - f1[1]) - value) < 1e-9)
    }
}

/// The committed command-line reference (scripts/generate-docs.sh) is in step with the CLI.
@Suite("command-line reference")
struct CommandLineReferenceTests {
    /// Every command path (`glimpse`, `glimpse serve`, …) and the long options its help shows, from
    /// `glimpse --experimental-dump-help`.
    private func commands() async throws -> [(path: String, options: [String])] {
        let run = try await glimpse(["--experimental-dump-help"])
        #expect(run.status == 0, "\(run.err)")
        let root = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        var found: [(String, [String])] = []
        func visit(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as? String ?? ""
            let here = path + [name]
            // Hidden options (`shouldDisplay: false`) are in neither help nor the man page.
            let shown = (command["arguments"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool != false }
            let options = shown.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).compactMap { name in
                    name["kind"] as? String == "long" ? name["name"] as? String : nil
                }
            }
            found.append((here.joined(separator: " "), options))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { visit(sub, path: here) }
        }
        if let command = root?["command"] as? [String: Any] { visit(command, path: []) }
        return found
    }

    @Test func completionScriptsMatchTheCLI() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try await glimpse(["--generate-completion-script", shell])
            #expect(run.status == 0, "\(run.err)")
            let committed = try String(contentsOfFile: repositoryRoot + "/docs/completions/glimpse.\(shell)", encoding: .utf8)
            #expect(run.out == committed, "docs/completions/glimpse.\(shell) is out of date: run scripts/generate-docs.sh")
        }
    }

    @Test func manPageDescribesEveryCommandAndOption() async throws {
        let page = try String(contentsOfFile: repositoryRoot + "/docs/man/glimpse.1", encoding: .utf8)
        let text = page.replacingOccurrences(of: "\\-", with: "-")
        let all = try await commands()
        #expect(all.count >= 10)
        for (path, options) in all {
            // The page is the root command's (`.Nm glimpse`); each subcommand is an item `.It Em NAME`.
            let name = path.split(separator: " ").last.map(String.init) ?? path
            let heading = path == name ? ".Nm \(name)" : ".It Em \(name)"
            #expect(text.contains(heading + "\n"), "docs/man/glimpse.1 does not describe `\(path)`: run scripts/generate-docs.sh")
            for option in options where option != "help" && option != "version" {
                #expect(text.contains("-\(option)"), "docs/man/glimpse.1 lacks --\(option) of `\(path)`: run scripts/generate-docs.sh")
            }
        }
    }
}
