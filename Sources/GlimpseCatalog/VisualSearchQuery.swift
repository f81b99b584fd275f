import GlimpseFeaturePrint
public import GlimpseImage
import GlimpseIntents
public import VisualIntelligence
import GlimpseLabels

/// Why a visual search could not run or page.
public enum VisualSearchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The page size is outside 1…maximum.
    case invalidLimit(Int, maximum: Int)
    /// The cursor is damaged, forged, or was signed with another key.
    case invalidCursor
    /// The cursor belongs to a catalog snapshot that is no longer kept.
    case expiredCursor(snapshotID: String)

    /// A sentence that says what was wrong and what to do.
    public var description: String {
        switch self {
        case let .invalidLimit(limit, maximum):
            "limit \(limit) is outside 1…\(maximum); pass a page size in that range"
        case .invalidCursor:
            "the cursor is damaged or was not issued by this catalog service; run the query again without a cursor"
        case let .expiredCursor(snapshotID):
            "the cursor belongs to catalog snapshot \(snapshotID), which is no longer kept (the catalog has changed "
                + "since); run the query again"
        }
    }
}

/// Glimpse's visual search: an `IntentValueQuery` from a `SemanticContentDescriptor` to places
/// and collections.
///
/// **What it does.** If the descriptor has pixels and a matcher is set, the matcher ranks catalog
/// places. If the descriptor has no labels, they are derived: from the hand-written catalog labels of
/// the best accepted place when the picture matched one, else from the label model when one is set.
/// Labels outside the catalog vocabulary are ignored (case and accents do not matter).
///
/// **Order.** Accepted places first (by score), each followed by the collections whose best accepted
/// member it is; then, below the line, the suggestions: places the matcher ranked but did not accept,
/// collections that only hold such a place or only fit the labels, by score (places first on a tie,
/// then catalog order). The order is deterministic.
///
/// **Regions.** Each matched place comes with where it lies in the picture
/// (``VisualSearchReason/region``, normalised `ImageRegion`); after the best place, the matcher
/// looks for further places on the keypoints the places found so far leave over.
///
/// **Scores** are in 0…1, rounded to 4 decimals. 0.5 is the accept line: a result at or above it is
/// accepted (``VisualSearchReason/accepted``), one below it is a suggestion. By default only accepted
/// results are listed for a picture (`minimumScore`).
/// - a place's score is the matcher's confidence (`MatchDecision`): over the line only when the
///   matcher accepts it (on geometry, on the calibrated print line, or both); a place it ranked but did
///   not accept scores at most 0.4999;
/// - a collection holding an accepted place scores `1 − (1 − m)(1 − f)`, where `m` is the best
///   accepted member's score and `f` its label fit: `Σ wₗ·pₗ / Σ wₗ` over the query labels, where `pₗ` is
///   the fraction of the collection's places that carry label `l` and `wₗ` is the label's
///   confidence times its informativeness `ln((N + 1) / (nₗ + 0.5))` (`N` places in the catalog,
///   `nₗ` of them carrying `l`), so a common label such as `sky` counts less than `boat`;
/// - any other collection is a suggestion: `0.4999 · (1 − (1 − 2m′)(1 − f))`, with `m′` the best
///   member's score among the places ranked but not accepted (0 if none), so a collection that fits the
///   labels alone never ties one holding an accepted place. Collections with no ranked member need
///   `f ≥ minimumLabelFit`.
/// - a place's ``VisualSearchReason/labelFit`` is the same weighted share of the query labels that
///   the place itself carries.
///
/// **Paging.** At most `limit` results are returned per page (default 10). The page's cursor is
/// opaque, signed, and bound to the catalog snapshot the results came from: later pages come from
/// that same snapshot even if the catalog has been reloaded since, so pages never repeat or skip a
/// result. A cursor fails with ``VisualSearchError/expiredCursor(snapshotID:)`` once its snapshot
/// has left the ``SnapshotStore``, and with ``VisualSearchError/invalidCursor`` when tampered with.
public struct VisualSearchQuery: IntentValueQuery {
    /// The input: a picture and/or labels.
    public typealias Input = SemanticContentDescriptor
    /// The output: places and collections.
    public typealias Result = VisualSearchResult

    /// Tunable limits.
    public struct Configuration: Sendable, Hashable {
        /// Page size when none is given.
        public var defaultLimit = 10
        /// The largest page size accepted.
        public var maximumLimit = 100
        /// How many candidates to ask the matcher for.
        public var matchCandidates = 5
        /// The smallest label fit (0…1) that admits a collection without a matched place.
        public var minimumLabelFit = 0.2

        /// The default configuration.
        public init() {}
    }

    /// The snapshot searched.
    public let snapshot: CatalogSnapshot
    /// Where earlier snapshots are kept for paging, and the cursor key.
    public let store: SnapshotStore
    /// Recognises places in pixels; `nil` means pixels are not matched.
    public let matcher: (any PlaceMatching)?
    /// Derives labels from pixels; `nil` means labels come from the descriptor or the matched place.
    public let labeler: (any LabelDeriving)?
    /// Limits.
    public let configuration: Configuration

    /// Creates a search over `snapshot` (which should have been published to `store`).
    public init(
        snapshot: CatalogSnapshot, store: SnapshotStore, matcher: (any PlaceMatching)? = nil,
        labeler: (any LabelDeriving)? = nil, configuration: Configuration = Configuration()
    ) {
        self.snapshot = snapshot
        self.store = store
        self.matcher = matcher
        self.labeler = labeler
        self.configuration = configuration
    }

    /// The first page of results, without scores (`IntentValueQuery` conformance).
    public func values(for input: SemanticContentDescriptor) async throws -> [VisualSearchResult] {
        try await search(input).results
    }

    /// The first page of results with scores, reasons and a cursor for the next page.
    ///
    /// - Parameters:
    ///   - input: the picture and the labels the caller already knows.
    ///   - limit: the page size; `nil` means ``Configuration/defaultLimit``.
    ///   - region: the part of the picture to search (the region of interest a person selected);
    ///     only it is matched and labelled. Regions of found places are still given in the whole
    ///     picture's coordinates. `nil` means the whole picture.
    ///   - minimumScore: the least score listed, 0…1. `nil` means the accept line (0.5) for a picture,
    ///     so that only what is accepted comes back (`[]` when nothing is), and 0 for labels alone, whose
    ///     results are all suggestions. Below the line come the places the matcher ranked but did not
    ///     accept and the collections that only hold one or only fit the labels, each with its evidence.
    public func search(
        _ input: SemanticContentDescriptor, limit: Int? = nil, region: ImageRegion? = nil, minimumScore: Double? = nil
    ) async throws -> VisualSearchPage {
        let pageSize = try checkedLimit(limit)
        let catalog = snapshot.catalog
        var matches: [VisualSearchEvidence.Match] = []
        var timings: [String: Duration] = [:]
        var featurePrint: FeaturePrint?
        let crop = region == .whole ? nil : region
        let picture = input.pixelBuffer.map { pixels in crop.map { pixels.cropped(to: $0) } ?? pixels }
        try Task.checkCancellation()
        if let pixels = picture, let matcher {
            let report = try await matcher.matchPlaces(in: pixels, limit: configuration.matchCandidates)
            timings = report.timings
            featurePrint = report.featurePrint
            matches = report.candidates.compactMap { candidate in
                catalog.placeOffset(id: candidate.placeID).map {
                    .init(placeOffset: $0, score: VisualSearchEvidence.quantise(candidate.score),
                          accepted: candidate.accepted, inliers: candidate.inliers,
                          region: candidate.region.map { VisualSearchEvidence.Region(crop?.mapping($0) ?? $0) },
                          similarity: candidate.similarity.map(VisualSearchEvidence.quantise),
                          margin: candidate.margin.map(VisualSearchEvidence.quantiseSigned),
                          heldBackBy: candidate.heldBackBy.flatMap(catalog.placeOffset(id:)))
                }
            }
        }

        var source = LabelSource.none
        var scored: [ScoredLabel] = []
        let bestMatch = matches.filter(\.accepted).max { a, b in
            a.score != b.score ? a.score < b.score : a.placeOffset > b.placeOffset
        }
        if !input.labels.isEmpty {
            source = .given
            scored = input.labels.map { ScoredLabel(label: $0, score: 1) }
        } else if let bestMatch {
            source = .matchedPlace
            scored = catalog.places[bestMatch.placeOffset].labels.map { ScoredLabel(label: $0, score: 1) }
        } else if let pixels = picture, let labeler {
            source = .derived
            try Task.checkCancellation()
            scored = try await labeler.labels(for: pixels, featurePrint: featurePrint)
        }
        try Task.checkCancellation()

        // Map onto the vocabulary; merge duplicates keeping the highest weight.
        var weights: [Int: Int] = [:]
        var order: [Int] = []
        var ignored: [String] = []
        for label in scored {
            guard let name = snapshot.vocabulary[TextFolding.fold(label.label)],
                  let offset = snapshot.labelOffsets[name] else {
                ignored.append(label.label)
                continue
            }
            let weight = VisualSearchEvidence.quantise(label.score)
            guard weight > 0 else { continue }
            if let existing = weights[offset] { weights[offset] = max(existing, weight) } else {
                weights[offset] = weight
                order.append(offset)
            }
        }
        let evidence = VisualSearchEvidence(
            labels: order.map { .init(offset: $0, weight: weights[$0] ?? 0) }, labelSource: source,
            matches: matches, minimumLabelFit: VisualSearchEvidence.quantise(configuration.minimumLabelFit),
            minimumScore: VisualSearchEvidence.quantise(minimumScore ?? (input.pixelBuffer == nil ? 0 : 0.5)))
        var page = makePage(evidence, snapshot: snapshot, offset: 0, pageSize: pageSize)
        page.ignoredLabels = ignored
        page.timings = timings
        return page
    }

    /// The page after the one `cursor` came with, from the same catalog snapshot.
    ///
    /// - Throws: ``VisualSearchError`` for a bad limit, a damaged or forged cursor, or a cursor whose
    ///   snapshot is no longer kept by the store.
    public func page(after cursor: String, limit: Int? = nil) throws(VisualSearchError) -> VisualSearchPage {
        let pageSize = try checkedLimit(limit)
        guard let contents = VisualSearchCursorCodec.decode(cursor, key: store.cursorKey) else {
            throw .invalidCursor
        }
        let id = SHA256.hex(contents.snapshotID)
        let bound: CatalogSnapshot
        if id == snapshot.id {
            bound = snapshot
        } else if let kept = store.snapshot(id: id) {
            bound = kept
        } else {
            throw .expiredCursor(snapshotID: id)
        }
        return makePage(contents.evidence, snapshot: bound, offset: contents.offset, pageSize: pageSize)
    }

    private func checkedLimit(_ limit: Int?) throws(VisualSearchError) -> Int {
        let value = limit ?? configuration.defaultLimit
        guard value >= 1, value <= configuration.maximumLimit else {
            throw .invalidLimit(value, maximum: configuration.maximumLimit)
        }
        return value
    }

    private func makePage(
        _ evidence: VisualSearchEvidence, snapshot: CatalogSnapshot, offset: Int, pageSize: Int
    ) -> VisualSearchPage {
        let ranked = VisualSearchRanking.rank(evidence, in: snapshot)
        let start = min(offset, ranked.count)
        let end = min(start + pageSize, ranked.count)
        let next = end < ranked.count
            ? VisualSearchCursorCodec.encode(.init(snapshotID: snapshot.idBytes, offset: end, evidence: evidence),
                                             key: store.cursorKey)
            : nil
        let labels = evidence.labels.compactMap { label in
            snapshot.catalog.labels.indices.contains(label.offset)
                ? ScoredLabel(label: snapshot.catalog.labels[label.offset],
                              score: Double(label.weight) / VisualSearchEvidence.scale)
                : nil
        }
        return VisualSearchPage(
            items: Array(ranked[start..<end]), nextCursor: next, snapshotID: snapshot.id, offset: start,
            totalCount: ranked.count, labels: labels, labelSource: evidence.labelSource, ignoredLabels: [],
            timings: [:])
    }
}
