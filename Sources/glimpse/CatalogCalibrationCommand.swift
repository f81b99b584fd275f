import ArgumentParser
import Foundation
import GlimpseEngine
import GlimpseVision

/// `glimpse catalog calibration`: the print-alone accept line measured for a catalog, for operators.
struct CatalogCalibrationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibration",
        abstract: "Show the print-alone accept line measured for the catalog, and its closest look-alike places.",
        discussion: """
            Loads the catalog as `glimpse serve` does and reports the line a photo's print evidence must \
            pass to be accepted without geometry: the null prints it was set on (photos of no place beside \
            the feature-print model), those left out as copies of the catalog's own photos, and the places \
            with the closest look-alikes, each with the line it needs: where another place's photo reaches \
            it with more evidence than the catalog's line, its own line lies just above that evidence, so \
            the print alone is not enough for it (geometry still accepts). Exits with status 1 when the \
            catalog has no line (no feature-print model, no null prints, or a single place).
            """
    )

    @OptionGroup var engine: EngineOptions

    @Option(name: .customLong("false-match-rate"), help: """
        The share of null prints the line lets over it (default 0.01, as served).
        """)
    var falseMatchRate: Double?

    @Option(help: "How many places to list, closest look-alike first (0: all).")
    var top = 20

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if let falseMatchRate, !(0...1).contains(falseMatchRate) {
            throw ValidationError("--false-match-rate must lie in 0…1, got \(falseMatchRate)")
        }
        guard top >= 0 else { throw ValidationError("--top must be 0 or more, got \(top)") }
    }

    func run() async throws {
        let loaded: Engine
        do {
            loaded = try await engine.load(command: "catalog calibration") { configuration in
                if let falseMatchRate { configuration.vision.decision.falseMatchRate = falseMatchRate }
                configuration.labelModel = .off
            }
        } catch {
            throw IntentsCommandError(error.description)
        }
        guard let calibration = loaded.current.matcher?.printCalibration else {
            throw IntentsCommandError(
                "the catalog has no print line: it needs a feature-print model with null prints beside it "
                    + "(see Models/README.md) and at least two places")
        }
        let report = CalibrationReport(calibration, top: top)
        print(json ? try report.json() : report.text)
    }
}

/// What `glimpse catalog calibration` prints: the line, its nulls, and the look-alike lines.
struct CalibrationReport: Encodable {
    /// One place, its closest look-alike, and the line it needs.
    struct LookAlikeLine: Encodable {
        var place: String
        var line: Double
        var lookAlike: String
        var evidence: Double
        var raised: Bool

        enum CodingKeys: String, CodingKey {
            case place, line, evidence, raised
            case lookAlike = "look_alike"
        }
    }

    var line: Double
    var falseMatchRate: Double
    var places: Int
    var nulls: Int
    var nullsOver: Int
    var nullsLeftOut: Int
    var catalogViews: Int
    var raisedLines: Int
    var lookAlikes: [LookAlikeLine]
    /// The places reached, listed or not.
    var allReached: Int

    enum CodingKeys: String, CodingKey {
        case line, places, nulls
        case falseMatchRate = "false_match_rate"
        case nullsOver = "nulls_over"
        case nullsLeftOut = "nulls_left_out"
        case catalogViews = "catalog_views"
        case raisedLines = "raised_lines"
        case allReached = "places_reached"
        case lookAlikes = "look_alikes"
    }

    /// The report of `calibration`, listing the `top` places with the closest look-alikes (all for 0).
    init(_ calibration: PrintCalibration, top: Int) {
        line = calibration.threshold
        falseMatchRate = calibration.falseMatchRate
        places = calibration.places
        nulls = calibration.nullCount
        nullsOver = calibration.nullsOverLine
        nullsLeftOut = calibration.nullsLeftOut
        catalogViews = calibration.catalogViewsMeasured
        raisedLines = calibration.raisedLines.count
        let sorted = calibration.lookAlikes
            .map { LookAlikeLine(place: $0.key, line: $0.value.line, lookAlike: $0.value.place, evidence: $0.value.evidence,
                                 raised: $0.value.line > calibration.threshold) }
            .sorted { $0.evidence != $1.evidence ? $0.evidence > $1.evidence : $0.place < $1.place }
        lookAlikes = top == 0 ? sorted : Array(sorted.prefix(top))
        allReached = sorted.count
    }

    /// The report as lines of text.
    var text: String {
        let f = { (value: Double) in String(format: "%.3f", value) }
        var lines = [
            "print line     evidence \(f(line)) over \(places) places (e = c + 5·m; a candidate over it is accepted on its print)",
            "null prints    \(nulls) measured, \(nullsOver) over the line (target \(f(falseMatchRate))), "
                + "\(nullsLeftOut) left out as copies of catalog photos",
            "catalog views  \(catalogViews) measured against the other places; \(raisedLines) places have a raised line",
        ]
        if !lookAlikes.isEmpty {
            lines.append("")
            lines.append("closest look-alikes (a raised line: the print alone must beat the look-alike; geometry still accepts):")
            let width = lookAlikes.map(\.place.count).max() ?? 0
            let otherWidth = lookAlikes.map(\.lookAlike.count).max() ?? 0
            for entry in lookAlikes {
                let name = entry.place.padding(toLength: width, withPad: " ", startingAt: 0)
                let other = entry.lookAlike.padding(toLength: otherWidth, withPad: " ", startingAt: 0)
                lines.append("  \(name)  reached by \(other) at \(f(entry.evidence))  line \(f(entry.line))"
                    + (entry.raised ? " (raised)" : ""))
            }
            if lookAlikes.count < allReached {
                lines.append("  … \(allReached - lookAlikes.count) more (--top 0 lists all)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object (sorted keys).
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
