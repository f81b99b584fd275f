import Foundation
public import GlimpseWire

extension EntityListJSON {
    /// Pretty-printed JSON with sorted keys: what `glimpse entities --json` prints, the same document
    /// the daemon's entity routes answer with.
    public func prettyJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// One line per entity (type, id, the text-search score when there is one, title — subtitle), then a
    /// count: what `glimpse entities` prints.
    public func text() -> String {
        let idWidth = min(entities.map(\.id.count).max() ?? 0, 32)
        var lines = entities.map { entity in
            let score = entity.score.map { ScoreFormat.twoDecimals($0) + "  " } ?? ""
            let display = entity.displayRepresentation
            let title = display.subtitle.map { "\(display.title) — \($0)" } ?? display.title
            return entity.type.padding(toLength: 10, withPad: " ", startingAt: 0) + " "
                + entity.id.padding(toLength: max(idWidth, entity.id.count), withPad: " ", startingAt: 0) + "  "
                + score + title
        }
        lines.append("\(entities.count) \(entities.count == 1 ? "entity" : "entities")")
        return lines.joined(separator: "\n")
    }
}
