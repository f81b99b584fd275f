import Foundation
import GlimpseCatalog

extension QueryResponseJSON {
    /// The same page as ``VisualSearchResponse``, the type `glimpse query` prints, so a daemon answer
    /// prints exactly like an in-process one.
    ///
    /// - Throws: when the response cannot be represented (a field `VisualSearchResponse` requires is
    ///   missing); not expected for answers from this version of the daemon.
    public func visualSearchResponse() throws -> VisualSearchResponse {
        let mirror = Mirror(
            snapshot: snapshot, offset: offset, total: total, nextCursor: next,
            labels: labels.map { .init(label: $0.label, score: $0.score) },
            labelSource: labelSource, ignoredLabels: ignoredLabels, timingsMs: matcherTimingsMs,
            results: results.map { result in
                .init(
                    type: result.type, id: result.entity.id, title: result.entity.displayRepresentation.title,
                    subtitle: result.entity.displayRepresentation.subtitle,
                    image: result.entity.displayRepresentation.image, score: result.score, reason: result.reason,
                    matchedPlace: result.evidence.matchedPlace, matchScore: result.evidence.matchScore,
                    inliers: result.evidence.inliers, votingLabels: result.evidence.votingLabels,
                    labelFit: result.evidence.labelFit
                )
            }
        )
        // VisualSearchResponse is built from a page or read from its JSON form; the JSON form is the
        // public way to build one from values.
        let encoder = JSONEncoder()
        return try VisualSearchResponse(json: Array(try encoder.encode(mirror)))
    }

    /// The JSON shape of ``VisualSearchResponse``.
    private struct Mirror: Encodable {
        struct Label: Encodable {
            var label: String
            var score: Double
        }

        struct Result: Encodable {
            var type: String
            var id: String
            var title: String
            var subtitle: String?
            var image: String?
            var score: Double
            var reason: String
            var matchedPlace: String?
            var matchScore: Double?
            var inliers: Int?
            var votingLabels: [String]
            var labelFit: Double
        }

        var snapshot: String
        var offset: Int
        var total: Int
        var nextCursor: String?
        var labels: [Label]
        var labelSource: String
        var ignoredLabels: [String]
        var timingsMs: [String: Double]
        var results: [Result]
    }
}
