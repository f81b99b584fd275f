import Foundation

/// Case- and diacritic-insensitive text: what string comparators and string queries compare.
public enum TextFolding {
    /// `text` with case, diacritics and character width removed: `"Crème Brûlée"` → `"creme brulee"`.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The folded words of `text`: runs of letters and digits; everything else separates words.
    public static func words(_ text: String) -> [String] {
        fold(text).split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}

/// One searchable text of an entity and how much a hit in it counts.
public struct TextSearchField: Sendable, Hashable {
    /// The text, such as a name.
    public var text: String
    /// The weight of a hit in this field; the name usually weighs most.
    public var weight: Double

    /// Creates a field.
    public init(_ text: String, weight: Double) {
        self.text = text
        self.weight = weight
    }
}

/// Ranked word-prefix search: the matching rule of every `EntityStringQuery` in Glimpse.
///
/// The query is folded (case and diacritics) and split into words. An entity matches when **every**
/// query word is a prefix of some word of one of its fields (`"eif tow"` finds "Eiffel Tower").
/// Each query word scores its best hit: the field's weight, times 1 for a whole-word hit or 0.75
/// for a prefix-only hit, times a small bonus for earlier words (1 / (1 + 0.05 × position)).
/// Results are sorted by total score, high first; ties keep the input order. A query without
/// words matches nothing.
public struct TextSearch: Sendable {
    private let queryWords: [String]

    /// Prepares a search for `query`.
    public init(_ query: String) {
        queryWords = TextFolding.words(query)
    }

    /// Whether the query has any words at all.
    public var isEmpty: Bool { queryWords.isEmpty }

    /// The score of an entity with these fields, or `nil` when some query word has no hit.
    public func score(_ fields: [TextSearchField]) -> Double? {
        guard !queryWords.isEmpty else { return nil }
        let fieldWords = fields.map { (TextFolding.words($0.text), $0.weight) }
        var total = 0.0
        for queryWord in queryWords {
            var best = 0.0
            for (words, weight) in fieldWords {
                for (position, word) in words.enumerated() where word.hasPrefix(queryWord) {
                    let exactness = word.count == queryWord.count ? 1.0 : 0.75
                    best = max(best, weight * exactness / (1 + 0.05 * Double(position)))
                }
            }
            guard best > 0 else { return nil }
            total += best
        }
        return total
    }

    /// The matching elements with their scores, best first; equal scores keep the input order.
    public func rank<Element>(
        _ elements: [Element], fields: (Element) -> [TextSearchField]
    ) -> [(element: Element, score: Double)] {
        let hits = elements.enumerated().compactMap { offset, element in
            score(fields(element)).map { (offset: offset, element: element, score: $0) }
        }
        return hits.sorted { $0.score != $1.score ? $0.score > $1.score : $0.offset < $1.offset }
            .map { (element: $0.element, score: $0.score) }
    }
}
