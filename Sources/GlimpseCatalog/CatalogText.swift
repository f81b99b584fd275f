public import GlimpseWire

/// The one rule for the text a catalog holds, whether it comes from `catalog.json`, an edit or a store's
/// rows: every backend stores what this rule accepts unchanged, so what an edit was validated as is what
/// a restart loads.
///
/// Refused everywhere: C0 and C1 control characters (NUL among them: SQLite would cut the text there),
/// the bidirectional formatting characters that make text display in another order than it is stored
/// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), and text longer than the field's limit.
/// A collection's summary may hold line breaks and tabs; no other field may.
public enum CatalogText {
    /// The longest id, in UTF-8 bytes.
    public static let maxIDBytes = 128
    /// The longest name, kind, region, continent or label, in UTF-8 bytes.
    public static let maxNameBytes = 256
    /// The longest collection summary or photo credit field, in UTF-8 bytes.
    public static let maxTextBytes = 4096

    /// Why `text` cannot be stored in a field of at most `maxBytes` UTF-8 bytes, or `nil` when it can.
    /// With `multiline`, line feeds, carriage returns and tabs are allowed.
    public static func problem(in text: String, maxBytes: Int, multiline: Bool = false) -> String? {
        if text.utf8.count > maxBytes { return "is \(text.utf8.count) bytes long; keep it to \(maxBytes)" }
        for scalar in text.unicodeScalars where isRefused(scalar, multiline: multiline) {
            return "holds the character \(codePoint(scalar)); remove control and bidirectional formatting characters"
        }
        return nil
    }

    /// Whether `scalar` is refused in catalog text.
    public static func isRefused(_ scalar: Unicode.Scalar, multiline: Bool = false) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: !multiline
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `U+XXXX`, the form a message names a refused character by.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Checks every text field of a place entry, and its counts of labels, photos and collections (a
    /// place's labels and collections against the vocabulary are ``Catalog``'s to check).
    ///
    /// - Throws: ``CatalogError/invalidText(kind:id:field:reason:)`` naming the first field at fault.
    public static func checkPlace(_ entry: PlaceDefinition, offset: Int) throws(CatalogError) {
        let id = entry.id.isEmpty ? "#\(offset)" : String(entry.id.prefix(64))
        try check(entry.id, kind: "place", id: id, field: "id", maxBytes: maxIDBytes)
        try check(entry.name, kind: "place", id: id, field: "name", maxBytes: maxNameBytes)
        try check(entry.kind, kind: "place", id: id, field: "kind", maxBytes: maxNameBytes)
        try check(entry.region ?? "", kind: "place", id: id, field: "region", maxBytes: maxNameBytes)
        try check(entry.continent ?? "", kind: "place", id: id, field: "continent", maxBytes: maxNameBytes)
        try checkCount(entry.labels.count, kind: "place", id: id, field: "labels", limit: CatalogLimits.labelsPerPlace)
        try checkCount(entry.photos.count, kind: "place", id: id, field: "photos", limit: CatalogLimits.photosPerPlace)
        try checkCount(entry.collections.count, kind: "place", id: id, field: "collections", limit: CatalogLimits.collectionsPerPlace)
        var seen = Set<String>()
        for label in entry.labels where !seen.insert(label).inserted {
            throw .invalidText(kind: "place", id: id, field: "labels", reason: "lists label '\(label.prefix(64))' twice; list each once")
        }
        for photo in entry.photos {
            try check(photo.image, kind: "place", id: id, field: "image", maxBytes: maxTextBytes)
            guard let credit = photo.credit else { continue }
            for (field, text) in [("credit author", credit.author), ("credit license", credit.license),
                                  ("credit source", credit.source), ("credit original", credit.original ?? "")] {
                try check(text, kind: "place", id: id, field: field, maxBytes: maxTextBytes)
            }
        }
    }

    /// Checks a collection entry's id, name and summary.
    ///
    /// - Throws: ``CatalogError/invalidText(kind:id:field:reason:)`` naming the first field at fault.
    public static func checkCollection(_ entry: CollectionDefinition, offset: Int) throws(CatalogError) {
        let id = entry.id.isEmpty ? "#\(offset)" : String(entry.id.prefix(64))
        try check(entry.id, kind: "collection", id: id, field: "id", maxBytes: maxIDBytes)
        try check(entry.name, kind: "collection", id: id, field: "name", maxBytes: maxNameBytes)
        try check(entry.summary, kind: "collection", id: id, field: "summary", maxBytes: maxTextBytes, multiline: true)
    }

    /// Checks the label vocabulary's size and each label's text.
    ///
    /// - Throws: ``CatalogError/invalidText(kind:id:field:reason:)`` naming the first label at fault.
    public static func checkVocabulary(_ labels: [String]) throws(CatalogError) {
        try checkCount(labels.count, kind: "catalog", id: "labels", field: "labels", limit: CatalogLimits.vocabulary)
        for label in labels {
            if label.isEmpty { throw .invalidText(kind: "label", id: "", field: "text", reason: "is empty; remove it") }
            try check(label, kind: "label", id: String(label.prefix(64)), field: "text", maxBytes: maxNameBytes)
        }
    }

    private static func check(
        _ text: String, kind: String, id: String, field: String, maxBytes: Int, multiline: Bool = false
    ) throws(CatalogError) {
        if let reason = problem(in: text, maxBytes: maxBytes, multiline: multiline) {
            throw .invalidText(kind: kind, id: id.unicodeScalars.contains { isRefused($0) } ? "(unprintable)" : id,
                               field: field, reason: reason)
        }
    }

    private static func checkCount(_ count: Int, kind: String, id: String, field: String, limit: Int) throws(CatalogError) {
        if count > limit {
            throw .invalidText(kind: kind, id: id, field: field, reason: "has \(count) entries; at most \(limit) are allowed")
        }
    }
}
