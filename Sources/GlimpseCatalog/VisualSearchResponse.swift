import Foundation
import GlimpseIntents

/// A visual search page as plain data: what `glimpse query --json` prints and what the daemon sends,
/// so both print the same text through ``text(moreCommand:)``.
public struct VisualSearchResponse: Sendable, Hashable, Codable {
    /// One result.
    public struct Result: Sendable, Hashable, Codable {
        /// `place` or `collection`.
        public var type: String
        /// The entity id.
        public var id: String
        /// The display title.
        public var title: String
        /// The display subtitle.
        public var subtitle: String?
        /// The absolute path of the entity's picture.
        public var image: String?
        /// The score, 0…1 (see `VisualSearchQuery`).
        public var score: Double
        /// The reason as one sentence.
        public var reason: String
        /// The place whose photo matched, if any.
        public var matchedPlace: String?
        /// That match's score, 0…1.
        public var matchScore: Double?
        /// That match's geometric evidence.
        public var inliers: Int?
        /// The labels that voted.
        public var votingLabels: [String]
        /// The label fit, 0…1.
        public var labelFit: Double
    }

    /// A label used by the search, with its weight.
    public struct Label: Sendable, Hashable, Codable {
        /// The label.
        public var label: String
        /// Its weight, 0…1.
        public var score: Double
    }

    /// The catalog snapshot the results come from.
    public var snapshot: String
    /// The rank of the first result of this page.
    public var offset: Int
    /// The number of results over all pages.
    public var total: Int
    /// The cursor for the next page, or `nil` on the last page.
    public var nextCursor: String?
    /// The labels used.
    public var labels: [Label]
    /// Where they came from: `none`, `given`, `derived`, `matched-place`.
    public var labelSource: String
    /// Given labels outside the vocabulary.
    public var ignoredLabels: [String]
    /// Matcher stage timings in milliseconds (first page only).
    public var timingsMs: [String: Double]
    /// The results.
    public var results: [Result]

    /// Converts a page.
    public init(_ page: VisualSearchPage) {
        snapshot = page.snapshotID
        offset = page.offset
        total = page.totalCount
        nextCursor = page.nextCursor
        labels = page.labels.map { Label(label: $0.label, score: $0.score) }
        labelSource = page.labelSource.description
        ignoredLabels = page.ignoredLabels
        timingsMs = page.timings.mapValues { duration in
            let (seconds, attoseconds) = duration.components
            return (Double(seconds) * 1000 + Double(attoseconds) / 1e15 * 1000).rounded() / 1000
        }
        results = page.items.map { item in
            let display = item.result.displayRepresentation
            var image: String?
            if case let .file(path)? = display.image?.source { image = path }
            return Result(
                type: item.result.typeName, id: item.result.entityIdentifierString, title: display.title,
                subtitle: display.subtitle, image: image, score: item.score, reason: item.reason.description,
                matchedPlace: item.reason.matchedPlaceID, matchScore: item.reason.matchScore,
                inliers: item.reason.inliers, votingLabels: item.reason.votingLabels, labelFit: item.reason.labelFit)
        }
    }

    /// Reads a response from JSON.
    public init(json: [UInt8]) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(json))
    }

    /// Pretty-printed JSON with sorted keys.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Human-readable lines: one block per result, then the labels, the range shown and how to get more.
    ///
    /// - Parameter moreCommand: the command that fetches the next page, with `CURSOR` standing for the
    ///   cursor, such as `glimpse query --cursor CURSOR`.
    public func text(moreCommand: String = "glimpse query --cursor CURSOR") -> String {
        var lines: [String] = []
        if results.isEmpty { lines.append("no results") }
        let idWidth = min(results.map(\.id.count).max() ?? 0, 32)
        for (index, result) in results.enumerated() {
            let rank = String(offset + index + 1)
            let title = result.subtitle.map { "\(result.title) — \($0)" } ?? result.title
            lines.append(
                pad(rank, 3, left: true) + ". " + pad(result.type, 10) + " " + pad(result.id, idWidth) + "  "
                    + VisualSearchReason.format4(result.score) + "  " + title)
            lines.append(String(repeating: " ", count: 5) + result.reason)
        }
        let labelText = labels.isEmpty ? "none"
            : labels.map { "\($0.label) \(VisualSearchReason.format($0.score))" }.joined(separator: ", ")
        lines.append("labels (\(labelSource)): \(labelText)"
            + (ignoredLabels.isEmpty ? "" : "; ignored: \(ignoredLabels.joined(separator: ", "))"))
        let range = results.isEmpty ? "0" : "\(offset + 1)–\(offset + results.count)"
        lines.append("snapshot \(snapshot): results \(range) of \(total)")
        if let nextCursor {
            lines.append("more: " + moreCommand.replacingOccurrences(of: "CURSOR", with: nextCursor))
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }
}

extension VisualSearchReason {
    /// A score with exactly four decimals.
    static func format4(_ value: Double) -> String {
        let scaled = Int((value * 10_000).rounded())
        let fraction = String(scaled % 10_000)
        return "\(scaled / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
