public import AppIntentsCore
public import GlimpseImage
public import GlimpseLabels
import GlimpseWire

/// One visual search result: a place or a collection.
public enum VisualSearchResult: Hashable {
    /// A place the picture shows.
    case place(PlaceEntity)
    /// A collection that holds a matched place or fits the picture's labels.
    case collection(CollectionEntity)
}

// The `UnionValue` conformance, written out as `@UnionValue` would write it: this module builds on
// AppIntentsCore, not on the macros, so that nothing above the catalog (the daemon, the CLI) compiles
// swift-syntax. AppIntentsMacrosTests expands `@UnionValue` on the enum above and checks that it gives
// exactly this extension.
extension VisualSearchResult: AppIntentsCore.UnionValue {
    /// The entity types the cases hold, in case order.
    public static var memberTypes: [any AppIntentsCore.AppEntity.Type] {
        [PlaceEntity.self, CollectionEntity.self]
    }
    /// The entity this case holds.
    public var entity: any AppIntentsCore.AppEntity {
        switch self {
        case .place(let value):
            value
        case .collection(let value):
            value
        }
    }
}

extension VisualSearchResult {

    /// `place` or `collection`.
    public var typeName: String {
        switch self {
        case .place: "place"
        case .collection: "collection"
        }
    }
}

/// Where the labels of a visual search came from.
public enum LabelSource: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// No labels were given or could be derived.
    case none = 0
    /// The caller's descriptor.
    case given = 1
    /// The label model, from the pixels.
    case derived = 2
    /// The catalog labels of the best matched place.
    case matchedPlace = 3

    /// `none`, `given`, `derived` or `matched-place`.
    public var description: String {
        switch self {
        case .none: "none"
        case .given: "given"
        case .derived: "derived"
        case .matchedPlace: "matched-place"
        }
    }
}

/// Why a result was returned: which reference matched with which score, which labels voted.
public struct VisualSearchReason: Sendable, Hashable, CustomStringConvertible {
    /// The place whose reference photo matched the picture: the result itself for a place, a member
    /// for a collection; `nil` when no match was involved.
    public var matchedPlaceID: String?
    /// The matcher's score for ``matchedPlaceID``, 0…1.
    public var matchScore: Double?
    /// The matcher's geometric evidence for ``matchedPlaceID``, when it reports one.
    public var inliers: Int?
    /// The query labels that voted for this result (labels of the place, or of the collection's places).
    public var votingLabels: [String]
    /// The weighted share of the query labels that this result carries, 0…1 (see ``VisualSearchQuery``).
    public var labelFit: Double
    /// Where ``matchedPlaceID`` lies in the query picture (normalised to the whole picture), when the
    /// matcher located it.
    public var region: ImageRegion? = nil
    /// Whether the result is over the line: a place the matcher accepted, or a collection holding one.
    /// `false` for a suggestion (a possible place, or a collection that only holds one or fits the labels).
    public var accepted: Bool = true
    /// The feature-print similarity of the picture to ``matchedPlaceID``, when prints were compared.
    public var printSimilarity: Double? = nil
    /// That similarity's margin over the next most similar place (negative when another is closer).
    public var printMargin: Double? = nil
    /// The look-alike place that kept ``matchedPlaceID`` from being accepted on its print: its photo
    /// reaches that place with as much print evidence as the picture, so the print alone is not enough.
    public var heldBackBy: String? = nil

    /// A short sentence, such as `matched eiffel-tower (0.91, 57 inliers); labels tower, building (fit 0.50)`,
    /// or for a suggestion `possible match eiffel-tower (0.31, print 0.62, margin 0.05, 4 inliers), not
    /// accepted: below the line 0.5`.
    public var description: String {
        var parts: [String] = []
        if let matchedPlaceID, let matchScore {
            var evidence: [String] = []
            if let printSimilarity {
                evidence.append("print \(ScoreFormat.twoDecimals(printSimilarity))"
                    + (printMargin.map { ", margin \(ScoreFormat.twoDecimals($0))" } ?? ""))
            }
            if let inliers { evidence.append("\(inliers) inliers") }
            let detail = ([ScoreFormat.twoDecimals(matchScore)] + evidence).joined(separator: ", ")
            parts.append((accepted ? "matched" : "possible match") + " \(matchedPlaceID) (\(detail))")
        }
        if !votingLabels.isEmpty {
            parts.append("labels \(votingLabels.joined(separator: ", ")) (fit \(ScoreFormat.twoDecimals(labelFit)))")
        }
        let text = parts.isEmpty ? "no evidence" : parts.joined(separator: "; ")
        let lookAlike = heldBackBy.map { " (the look-alike \($0) holds its print line higher)" } ?? ""
        return accepted ? text : text + ", not accepted: below the line 0.5" + lookAlike
    }
}

/// A result with its score and reason.
public struct VisualSearchItem: Sendable, Hashable {
    /// The place or collection.
    public var result: VisualSearchResult
    /// The result's score, 0…1, rounded to 4 decimals; see ``VisualSearchQuery`` for its meaning.
    public var score: Double
    /// Why it was returned.
    public var reason: VisualSearchReason
}

/// One page of visual search results and the cursor for the next.
public struct VisualSearchPage: Sendable {
    /// The results on this page, in rank order.
    public var items: [VisualSearchItem]
    /// An opaque cursor for the next page, or `nil` when this page is the last.
    public var nextCursor: String?
    /// The id of the catalog snapshot the results come from.
    public var snapshotID: String
    /// The rank of the first item of this page among all results (0 on the first page).
    public var offset: Int
    /// The number of results across all pages.
    public var totalCount: Int
    /// The labels used, with their weights.
    public var labels: [ScoredLabel]
    /// Where the labels came from.
    public var labelSource: LabelSource
    /// Given labels that are not in the catalog vocabulary and were ignored.
    public var ignoredLabels: [String]
    /// Matcher stage timings (first page only).
    public var timings: [String: Duration]

    /// The results without scores: what `IntentValueQuery.values(for:)` returns.
    public var results: [VisualSearchResult] { items.map(\.result) }
}
