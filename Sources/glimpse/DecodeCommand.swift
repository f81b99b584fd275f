import ArgumentParser
import Foundation
import GlimpseBasics
import GlimpseFiles
import GlimpseImage

/// `glimpse decode`: decodes image files and reports size, pixel format, orientation and time.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode PNG and JPEG files and report their size, pixel format, orientation and decode time.",
        discussion: """
            A FILE is decoded whatever its name (the format is read from its first bytes). A DIRECTORY is \
            walked recursively in sorted order for *.jpg, *.jpeg and *.png files (any case). A file that \
            fails prints an error line and decoding goes on. Exit status 0 only when every file decoded.
            """
    )

    @Argument(help: "Image files, or directories to search for *.jpg, *.jpeg and *.png files.")
    var paths: [String]

    @Option(name: .customLong("max-size"), help: "Decode so that the longer side is at most N pixels.")
    var maxSize: Int?

    @Flag(name: .customLong("json"), help: "Print one JSON object per file and line (JSON Lines).")
    var json = false

    func validate() throws {
        if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1, got \(maxSize)") }
    }

    func run() throws {
        let options = DecodingOptions(maxDimension: maxSize)
        let clock = ContinuousClock()
        let started = clock.now
        var attempted = 0, decoded = 0, failures = 0
        for path in paths {
            let files: [String]
            switch ImageFileList.expand(path) {
            case .success(let found): files = found
            case .failure(let error):
                failures += 1
                report(DecodeReport(path: path, error: error.description))
                continue
            }
            for file in files {
                attempted += 1
                let start = clock.now
                do {
                    let image = try ImageDecoder.decode(contentsOfFile: file, options: options)
                    let elapsed = clock.now - start
                    decoded += 1
                    report(DecodeReport(path: file, image: image, orientationApplied: options.appliesOrientation,
                                        milliseconds: elapsed.milliseconds))
                } catch {
                    failures += 1
                    report(DecodeReport(path: file, error: error.description))
                }
            }
        }
        let total = (clock.now - started).milliseconds
        let summary = "decoded \(decoded) of \(attempted) files in \(String(format: "%.1f", total)) ms"
            + (failures > 0 ? "; \(failures) failed" : "")
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        if failures > 0 { throw ExitCode(1) }
    }

    private func report(_ entry: DecodeReport) {
        if json {
            print(entry.jsonLine())
        } else if entry.ok {
            print(entry.textLine())
        } else {
            FileHandle.standardError.write(Data((entry.textLine() + "\n").utf8))
        }
    }
}

/// One line of `glimpse decode` output.
struct DecodeReport: Encodable {
    var path: String
    var ok: Bool
    var format: String?
    var width: Int?
    var height: Int?
    var sourceWidth: Int?
    var sourceHeight: Int?
    var pixelFormat: String?
    var orientation: Int?
    var orientationApplied: Bool?
    var decodeMilliseconds: Double?
    var error: String?

    init(path: String, image: DecodedImage, orientationApplied: Bool, milliseconds: Double) {
        self.path = path
        ok = true
        format = image.format.rawValue
        width = image.pixelBuffer.width
        height = image.pixelBuffer.height
        sourceWidth = image.sourceWidth
        sourceHeight = image.sourceHeight
        pixelFormat = image.pixelBuffer.pixelFormat.rawValue
        orientation = image.orientation
        self.orientationApplied = orientationApplied && image.orientation != 1
        decodeMilliseconds = (milliseconds * 1000).rounded() / 1000
    }

    init(path: String, error: String) {
        self.path = path
        ok = false
        self.error = error
    }

    func textLine() -> String {
        guard ok, let format, let width, let height, let pixelFormat, let orientation, let decodeMilliseconds else {
            return "error: \(path): \(error ?? "unknown error")"
        }
        let turned = orientation == 1 ? "" : orientationApplied == true ? " applied" : " not applied"
        return "\(path): \(format) \(width)×\(height) \(pixelFormat) orientation \(orientation)\(turned) "
            + String(format: "%.2f ms", decodeMilliseconds)
    }

    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{\"ok\":false,\"error\":\"encoding failed\"}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Expands command-line paths into image files.
enum ImageFileList {
    /// Why a path could not be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    /// A directory becomes its image files (GlimpseFiles' folder walk: recursive, sorted, hidden
    /// entries skipped; sorted by path); anything else is returned as is.
    static func expand(_ path: String) -> Result<[String], Failure> {
        guard AtomicFile.size(of: path) != nil else {
            return .failure(Failure(description: "no such file or directory; check the path"))
        }
        guard FolderWalk.isDirectory(path) else { return .success([path]) }
        var found: [String] = []
        for entry in FolderWalk(root: path, recursive: true) {
            if let reason = entry.listingError {
                let which = entry.path == path ? "this directory" : entry.path
                return .failure(Failure(description: "cannot list \(which) (\(reason)); check its permissions"))
            }
            guard !entry.isDirectory, let dot = entry.name.lastIndex(of: "."),
                  extensions.contains(entry.name[entry.name.index(after: dot)...].lowercased()) else { continue }
            found.append(entry.path)
        }
        return .success(found.sorted())
    }
}
