/// How batch records are written: JSON Lines, CSV or a human-readable table.
public enum RecordFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One JSON object per line, keys in a fixed order.
    case jsonl
    /// Comma-separated values with a header row, quoted as RFC 4180 says.
    case csv
    /// Fixed-width columns for reading in a terminal.
    case table

    /// The name used on the command line.
    public var description: String { rawValue }

    /// Whether an interrupted run in this format can be resumed from its output.
    public var isResumable: Bool { self != .table }

    /// The text written before the first record (a header row), or an empty string.
    public var header: String {
        switch self {
        case .jsonl: ""
        case .csv: "path,status,best_id,best_title,score,results,labels,error_kind,error\n"
        case .table:
            Self.pad("STATUS", 9) + Self.pad("SCORE", 8) + Self.pad("BEST / ERROR", 36) + Self.pad("LABELS", 26) + "PATH\n"
        }
    }

    /// One record as text, ending with a newline.
    public func encode(_ record: MatchRecord) -> String {
        switch self {
        case .jsonl: Self.json(record) + "\n"
        case .csv: Self.csv(record) + "\n"
        case .table: Self.tableRow(record) + "\n"
        }
    }

    // MARK: JSON Lines

    static func json(_ r: MatchRecord) -> String {
        var out = "{\"path\":" + jsonString(r.path) + ",\"status\":" + jsonString(r.status.rawValue)
        out += ",\"best\":" + (r.best.map(jsonCandidate) ?? "null")
        out += ",\"score\":" + (r.score.map(number) ?? "null")
        out += ",\"results\":[" + r.results.map(jsonCandidate).joined(separator: ",") + "]"
        out += ",\"labels\":[" + r.labels.map {
            "{\"name\":" + jsonString($0.name) + ",\"confidence\":" + number($0.confidence) + "}"
        }.joined(separator: ",") + "]"
        out += ",\"error\":" + (r.error.map(jsonString) ?? "null")
        out += ",\"error_kind\":" + (r.errorKind.map(jsonString) ?? "null") + "}"
        return out
    }

    private static func jsonCandidate(_ c: RankedEntity) -> String {
        "{\"type\":" + jsonString(c.type) + ",\"id\":" + jsonString(c.id) + ",\"title\":" + jsonString(c.title)
            + ",\"score\":" + number(c.score) + ",\"reason\":" + jsonString(c.reason) + "}"
    }

    /// A JSON string literal for `s`, escaping quotes, backslashes and control characters.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A score or confidence rounded to 4 decimals; non-finite values become 0.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 10_000).rounded() / 10_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    // MARK: CSV

    static func csv(_ r: MatchRecord) -> String {
        let fields = [
            r.path, r.status.rawValue, r.best?.id ?? "", r.best?.title ?? "", r.score.map(number) ?? "",
            r.results.map { $0.id + ":" + number($0.score) }.joined(separator: "|"),
            r.labels.map { $0.name + ":" + number($0.confidence) }.joined(separator: "|"),
            r.errorKind ?? "", r.error ?? "",
        ]
        return fields.map(csvField).joined(separator: ",")
    }

    /// A CSV field, quoted when it holds a comma, quote, line break or edge space.
    static func csvField(_ s: String) -> String {
        let needsQuotes = s.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || s.first == " " || s.last == " "
        guard needsQuotes else { return s }
        return "\"" + s.replacingAll("\"", with: "\"\"") + "\""
    }

    // MARK: Table

    static func tableRow(_ r: MatchRecord) -> String {
        let status = switch r.status {
        case .matched: "matched"
        case .noMatch: "no match"
        case .failed: "FAILED"
        }
        let middle = r.status == .failed ? (r.errorKind ?? "error") : (r.best?.title ?? r.results.first.map { "(\($0.title))" } ?? "-")
        let labels = r.labels.prefix(3).map(\.name).joined(separator: ", ")
        return pad(status, 9) + pad(r.score.map(number) ?? "-", 8) + pad(middle, 36) + pad(labels, 26) + r.path
    }

    /// `s` cut or padded to `width - 1` characters, plus a separating space.
    static func pad(_ s: String, _ width: Int) -> String {
        let room = width - 1
        let cut = s.count > room ? String(s.prefix(room - 1)) + "…" : s
        return cut + String(repeating: " ", count: room - cut.count + 1)
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self {
            if c == target { out += replacement } else { out.append(c) }
        }
        return out
    }
}
