import Foundation
public import GlimpseCatalog
public import GlimpseEngine
package import GlimpseImage
import GlimpseIntents
import GlimpseLabels

/// Matches pictures against a catalog with the ``Engine``'s visual search: the place matcher over the
/// catalog's reference photos, scene labels when a label model is present, and the union of matching
/// places and collections, scored and explained.
///
/// Immutable and safe to share between tasks.
public struct CatalogMatcher: ImageMatching {
    /// The pipeline pictures are matched with.
    public let engine: Engine
    /// The least score a result needs to be kept (`nil`: the accept line, so only what is accepted).
    public let minimumScore: Double?

    /// The catalog matched against.
    public var catalog: Catalog { engine.catalog }

    /// Matches with `engine`, keeping results down to `minimumScore`.
    public init(engine: Engine, minimumScore: Double? = nil) {
        self.engine = engine
        self.minimumScore = minimumScore
    }

    /// Matches one encoded picture.
    public func match(bytes: [UInt8], path: String, limit: Int) async throws(BatchError) -> MatchOutcome {
        let image = try decode(bytes, path: path)
        do {
            return outcome(try await engine.search(
                SemanticContentDescriptor(pixelBuffer: image), limit: limit, region: nil, minimumScore: minimumScore))
        } catch {
            throw .matchFailed(path: path, reason: "\(error)")
        }
    }

    /// Decodes one picture through the engine, as a match does; a failure names the file.
    package func decode(_ bytes: [UInt8], path: String) throws(BatchError) -> PixelBuffer {
        do {
            return try engine.decode(bytes)
        } catch {
            switch error {
            case .empty, .unsupportedFormat: throw .notAnImage(path: path, reason: error.description)
            default: throw .badImage(path: path, reason: error.description)
            }
        }
    }

    /// The record fields of a search page: a place is the accepted match when the page's evidence
    /// says it matched itself and is over the line (below it, with `minimumScore`, it is a suggestion).
    private func outcome(_ page: VisualSearchPage) -> MatchOutcome {
        var results: [RankedEntity] = []
        var best: RankedEntity?
        for item in page.items {
            let id = item.result.entityIdentifierString
            let ranked = RankedEntity(
                type: item.result.typeName, id: id, title: String(localized: item.result.displayRepresentation.title), score: item.score,
                reason: item.reason.description)
            if best == nil, item.reason.accepted, case .place = item.result, item.reason.matchedPlaceID == id {
                best = ranked
            }
            results.append(ranked)
        }
        let labels = page.labels.map { MatchLabel(name: $0.label, confidence: $0.score) }
        return MatchOutcome(results: results, best: best, labels: labels)
    }
}
