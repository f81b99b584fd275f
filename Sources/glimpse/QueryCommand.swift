import ArgumentParser
import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseFiles
import GlimpseImage
import GlimpseIntents
import GlimpseTerminalText
import GlimpseWire

/// `glimpse query`: the visual search, from a picture and/or labels to places and collections.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Find the catalog places and collections a picture shows.",
        discussion: """
            Matched places come first (by score), then collections that contain them, then collections \
            that fit the labels. A place's score is the matcher's confidence, 0.5 being the accept line: \
            s / (s + 10) for s reproduced reference keypoints when they are decisive (s ≥ 40), else a \
            calibrated logistic model of s, the feature-print similarity of the picture to the place's \
            photo and its margin over the closest other place (Models/README.md, "Matching with the \
            feature print"). A collection's score is \
            1 − (1 − m)(1 − f), m being the best match among its places and f its label fit (the \
            share of the labels its places carry, each label weighted by its confidence and by how rare \
            it is in the catalog); collections without a matched place need f ≥ 0.2. Scores are in \
            0…1 and can be thresholded.

            Labels come from --labels, else from the matched place's catalog labels, else from the label \
            model (--label-model; else $GLIMPSE_LABEL_MODEL; else Models/labels.glimpsemodel beside the \
            catalog folder or in the current directory, when present).

            Results come in pages of --limit (default 10). The last line prints a cursor for the next \
            page; pass it with --cursor (no FILE needed). Cursors are bound to the catalog contents they \
            came from and are signed with $GLIMPSE_CURSOR_KEY (or a built-in key when unset); a cursor \
            from a catalog that has since changed is refused in this one-shot command (the daemon keeps \
            recent catalogs and pages them exactly).

            --box x,y,w,h limits the search to that region of the picture (fractions 0…1 of its width and \
            height, from the top-left corner): only the region is matched and labelled. Every matched \
            place comes with its region in the picture, in the same form; a picture showing several \
            places returns each, followed by its collections. --explain OUT.png draws the picture beside \
            the reference photo of each place found, with the matched keypoints joined by lines and each \
            photo's outline as the matcher placed it.
            """
    )

    @Argument(help: "The pictures to search with (PNG or JPEG), each answered in turn. Optional with --labels or --cursor.")
    var files: [String] = []

    @OptionGroup var engine: EngineOptions

    @Option(name: .customLong("labels"), help: "Comma-separated labels describing the picture, such as 'tower,sky'.")
    var labels: String?

    @Option(name: .customLong("limit"), help: "Results per page, 1…100.")
    var limit = 10

    @Option(name: .customLong("cursor"), help: "Continue from the cursor a previous page printed.")
    var cursor: String?

    @Option(name: .customLong("box"), help: "Search only this region of the picture: x,y,w,h as fractions 0…1 of its width and height.")
    var box: String?

    @Option(name: .customLong("min-score"), help: """
        List every result scoring at least this, 0…1 (default: the accept line 0.5 for a picture, so only \
        what is accepted; 0 also lists the places the matcher ranked but did not accept, with their evidence).
        """)
    var minScore: Double?

    @Option(name: .customLong("explain"), help: "Write a PNG showing the picture, the matched reference photos and the inlier correspondences.")
    var explain: String?

    @Flag(name: .customLong("json"), help: "Print the page as JSON.")
    var json = false

    @Option(name: .customLong("socket"), help: "Ask the daemon on this socket (glimpse serve) instead of loading the catalog.")
    var socket: String?

    func validate() throws {
        guard !files.isEmpty || labels != nil || cursor != nil else {
            throw ValidationError("give a FILE, --labels or --cursor")
        }
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be in 1…100, got \(limit)") }
        if let minScore, !(0...1).contains(minScore) { throw ValidationError("--min-score must lie in 0…1, got \(minScore)") }
        if box != nil || explain != nil, files.count != 1 {
            throw ValidationError("--box and --explain need exactly one FILE")
        }
        _ = try region()
    }

    /// The region of interest given with --box, or `nil`.
    func region() throws -> ImageRegion? {
        guard let box else { return nil }
        do throws(ImageRegionError) {
            return try ImageRegion(parsing: box)
        } catch {
            throw ValidationError("--box: \(error.description)")
        }
    }

    /// Writes the explain picture to the --explain path.
    func writeExplain(_ png: [UInt8]) throws {
        guard let explain else { return }
        do {
            try AtomicFile.replace(explain, with: png)
        } catch {
            throw IntentsCommandError("cannot write \(explain): \(error.description)")
        }
    }

    func run() async throws {
        if let socket {
            try await runAgainstDaemon(socket: socket)
            return
        }
        let given = givenLabels()
        // A cursor or labels alone need neither the matcher nor the models: only the catalog.
        let picturesOnly = !files.isEmpty
        let loaded: Engine
        do {
            loaded = try await engine.load(command: "query") { configuration in
                configuration.cursorKey = Self.cursorKey()
                configuration.matchesPictures = picturesOnly && cursor == nil
                if !configuration.matchesPictures { configuration.labelModel = .off }
            }
        } catch {
            throw IntentsCommandError(error.description)
        }
        if let cursor {
            let page: VisualSearchPage
            do { page = try loaded.page(after: cursor, limit: limit) } catch { throw IntentsCommandError(error.description) }
            printPage(QueryResponseJSON(page: page), moreCommand: moreCommand())
            return
        }
        if files.isEmpty {
            let page = try await loaded.search(
                SemanticContentDescriptor(labels: given, pixelBuffer: nil), limit: limit, region: nil, minimumScore: minScore)
            printPage(QueryResponseJSON(page: page), moreCommand: moreCommand())
            return
        }
        var failures = 0
        let region = try region()
        for file in files {
            printHeader(file)
            let clock = ContinuousClock()
            let start = clock.now
            let decoded: DecodedImage
            do {
                decoded = try ImageDecoder.decode(contentsOfFile: file, options: loaded.decodingOptions(showing: region))
            } catch {
                failures += reportFailure("\(file): \(error.description)")
                continue
            }
            let decodedAt = clock.now
            let page = try await loaded.search(
                SemanticContentDescriptor(labels: given, pixelBuffer: decoded.pixelBuffer), limit: limit, region: region,
                minimumScore: minScore)
            if explain != nil {
                do {
                    try writeExplain(try loaded.explain(decoded.pixelBuffer, region: region).pngData())
                } catch let error as ImageEncodingError {
                    throw IntentsCommandError(error.description)
                }
            }
            let end = clock.now
            let image = ImageInfoJSON(
                format: decoded.format.rawValue, width: decoded.pixelBuffer.width, height: decoded.pixelBuffer.height)
            let timings = TimingsJSON(body: .zero, decode: decodedAt - start, query: end - decodedAt, total: end - start)
            printPage(QueryResponseJSON(page: page, image: image, timings: timings), moreCommand: moreCommand())
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The labels given with --labels, trimmed, empty ones dropped.
    func givenLabels() -> [String] {
        (labels ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Prints a `==> FILE` line before each picture's page when several pictures were given.
    func printHeader(_ file: String) {
        guard files.count > 1 else { return }
        print(json ? #"{"file":"# + jsonString(file) + "}" : "==> \(file)")
    }

    /// Prints one page, as text or JSON.
    func printPage(_ response: QueryResponseJSON, moreCommand: String) {
        print(json ? response.prettyJSON() : response.text(moreCommand: moreCommand))
    }

    /// Prints `Error: message` on stderr and returns 1, for counting failures.
    func reportFailure(_ message: String) -> Int {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        return 1
    }

    private func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The key cursors are signed with: `$GLIMPSE_CURSOR_KEY`, else a fixed key (integrity only).
    static func cursorKey() -> CursorKey {
        CursorKey(passphrase: ProcessInfo.processInfo.environment["GLIMPSE_CURSOR_KEY"] ?? "glimpse-cli-cursor")
    }

    private func moreCommand() -> String {
        var parts = ["glimpse", "query", "--cursor", "CURSOR"]
        if engine.catalog != "Images" { parts += ["--catalog", engine.catalog] }
        if limit != 10 { parts += ["--limit", String(limit)] }
        return parts.joined(separator: " ")
    }
}

/// A failure of `glimpse query` or `glimpse entities`: printed as `Error: <message>`, exit status 1.
struct IntentsCommandError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    let description: String

    init(_ description: String) { self.description = description }
}
