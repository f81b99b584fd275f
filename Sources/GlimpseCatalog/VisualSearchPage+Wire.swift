import Foundation
import AppIntentsCore
public import GlimpseWire
import GlimpseImage
import GlimpseLabels

extension QueryResponseJSON {
    /// The wire form of a visual search page: what the daemon sends and what `glimpse query` prints,
    /// built in this one place.
    ///
    /// - Parameters:
    ///   - page: the page of results.
    ///   - image: the decoded query picture, when the page answers one (absent for a next page).
    ///   - timings: where the time of the request went; zeros when the caller does not measure it.
    public init(
        page: VisualSearchPage, image: ImageInfoJSON? = nil,
        timings: TimingsJSON = TimingsJSON(bodyMs: 0, decodeMs: 0, queryMs: 0, totalMs: 0)
    ) {
        self.init(
            results: page.items.map { item in
                let reason = item.reason
                return SearchResultJSON(
                    type: item.result.typeName, entity: EntityJSON(item.result), score: item.score,
                    reason: reason.description,
                    evidence: EvidenceJSON(
                        matchedPlace: reason.matchedPlaceID, matchScore: reason.matchScore, inliers: reason.inliers,
                        votingLabels: reason.votingLabels, labelFit: reason.labelFit,
                        region: reason.region.map { region in
                            RegionJSON(x: Self.rounded(region.x), y: Self.rounded(region.y),
                                       width: Self.rounded(region.width), height: Self.rounded(region.height))
                        },
                        accepted: reason.accepted, printSimilarity: reason.printSimilarity.map(Self.rounded),
                        printMargin: reason.printMargin.map(Self.rounded), lookAlike: reason.heldBackBy
                    )
                )
            },
            labels: page.labels.map { LabelScoreJSON(label: $0.label, score: $0.score) },
            labelSource: page.labelSource.description,
            ignoredLabels: page.ignoredLabels,
            next: page.nextCursor,
            snapshot: page.snapshotID,
            offset: page.offset,
            total: page.totalCount,
            image: image,
            timings: timings,
            matcherTimingsMs: QueryResponseJSON.matcherTimingsMs(page.timings)
        )
    }
}

extension QueryResponseJSON {
    /// A region value with four decimals, the precision regions are kept with.
    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

extension EntityJSON {
    /// The wire form of a search result's entity.
    public init(_ result: VisualSearchResult) {
        switch result {
        case .place(let place): self.init(place)
        case .collection(let collection): self.init(collection)
        }
    }

    /// The wire form of a place: its display representation and properties.
    public init(_ place: PlaceEntity) {
        let display = place.displayRepresentation
        var properties: [String: JSONValue] = [
            "name": .string(place.name), "kind": .string(place.kind),
            "labels": .array(place.labels.map(JSONValue.string)),
            "collections": .array(place.collections.map(JSONValue.string)),
        ]
        properties["region"] = place.region.map(JSONValue.string) ?? .null
        properties["continent"] = place.continent.map(JSONValue.string) ?? .null
        self.init(
            type: "place", id: place.id,
            displayRepresentation: DisplayRepresentationJSON(
                title: String(localized: display.title), subtitle: display.subtitle.map { String(localized: $0) },
                image: Self.imageURLPath(display, type: "place", id: place.id)
            ),
            properties: properties
        )
    }

    /// The wire form of a collection: its display representation and properties.
    public init(_ collection: CollectionEntity) {
        let display = collection.displayRepresentation
        self.init(
            type: "collection", id: collection.id,
            displayRepresentation: DisplayRepresentationJSON(
                title: String(localized: display.title), subtitle: display.subtitle.map { String(localized: $0) },
                image: Self.imageURLPath(display, type: "collection", id: collection.id)
            ),
            properties: [
                "name": .string(collection.name), "summary": .string(collection.summary),
                "places": .array(collection.places.map(JSONValue.string)),
            ]
        )
    }

    /// The daemon's URL path of the entity's picture (``APIPaths/entityImage(type:id:)``; never a path on
    /// the daemon's host), when it has one.
    private static func imageURLPath(_ display: DisplayRepresentation, type: String, id: String) -> String? {
        switch display.image?.source {
        case .file?, .data?: APIPaths.entityImage(type: type, id: id)
        case .named?, nil: nil
        }
    }
}
