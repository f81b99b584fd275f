import Foundation
public import GlimpseWire

extension QueryResponseJSON {
    /// Pretty-printed JSON with sorted keys: what `glimpse query --json` prints, the same document the
    /// daemon sends.
    public func prettyJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Human-readable lines: one block per result, then the labels, the range shown and how to get more.
    /// `glimpse query` prints pages this way, whether they were computed in process or by the daemon.
    ///
    /// - Parameter moreCommand: the command that fetches the next page, with `CURSOR` standing for the
    ///   cursor, such as `glimpse query --cursor CURSOR`.
    public func text(moreCommand: String = "glimpse query --cursor CURSOR") -> String {
        var lines: [String] = []
        if results.isEmpty { lines.append("no results") }
        let idWidth = min(results.map(\.entity.id.count).max() ?? 0, 32)
        for (index, result) in results.enumerated() {
            let rank = String(offset + index + 1)
            let display = result.entity.displayRepresentation
            let title = display.subtitle.map { "\(display.title) — \($0)" } ?? display.title
            lines.append(
                Self.pad(rank, 3, left: true) + ". " + Self.pad(result.type, 10) + " " + Self.pad(result.entity.id, idWidth)
                    + "  " + ScoreFormat.fourDecimals(result.score) + "  " + title)
            lines.append(String(repeating: " ", count: 5) + result.reason)
        }
        let labelText = labels.isEmpty ? "none"
            : labels.map { "\($0.label) \(ScoreFormat.twoDecimals($0.score))" }.joined(separator: ", ")
        lines.append("labels (\(labelSource)): \(labelText)"
            + (ignoredLabels.isEmpty ? "" : "; ignored: \(ignoredLabels.joined(separator: ", "))"))
        let range = results.isEmpty ? "0" : "\(offset + 1)–\(offset + results.count)"
        lines.append("snapshot \(snapshot): results \(range) of \(total)")
        if let next {
            lines.append("more: " + moreCommand.replacingOccurrences(of: "CURSOR", with: next))
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }
}
