import Foundation
import GlimpseIntents
import GlimpseWire

/// Entities as plain data for `glimpse entities`: JSON or aligned text.
public struct EntityListing: Sendable, Hashable, Codable {
    /// One place or collection with its display representation and fields.
    public struct Entry: Sendable, Hashable, Codable {
        /// `place` or `collection`.
        public var type: String
        /// The id.
        public var id: String
        /// The display title.
        public var title: String
        /// The display subtitle.
        public var subtitle: String?
        /// The absolute path of the picture.
        public var image: String?
        /// The string-search score, for search results.
        public var score: Double?
        /// Place kind.
        public var kind: String?
        /// Place region.
        public var region: String?
        /// Place continent.
        public var continent: String?
        /// Place labels.
        public var labels: [String]?
        /// Place collections, or collection places.
        public var collections: [String]?
        /// Collection members.
        public var places: [String]?
        /// Collection summary.
        public var summary: String?

        /// An entry for a place.
        public init(_ place: PlaceEntity, score: Double? = nil) {
            type = "place"
            id = place.id
            title = place.displayRepresentation.title
            subtitle = place.displayRepresentation.subtitle
            image = place.photoPath
            self.score = score.map(VisualSearchRanking.round)
            kind = place.kind
            region = place.region
            continent = place.continent
            labels = place.labels
            collections = place.collections
        }

        /// An entry for a collection.
        public init(_ collection: CollectionEntity, score: Double? = nil) {
            type = "collection"
            id = collection.id
            title = collection.name
            subtitle = collection.summary
            image = collection.coverPhotoPath
            self.score = score.map(VisualSearchRanking.round)
            places = collection.places
            summary = collection.summary
        }
    }

    /// The entries, in the order found.
    public var entities: [Entry]

    /// Creates a listing.
    public init(_ entities: [Entry]) { self.entities = entities }

    /// Pretty-printed JSON with sorted keys.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// One line per entity: type, id, optional score, title — subtitle; then a count.
    public func text() -> String {
        let idWidth = min(entities.map(\.id.count).max() ?? 0, 32)
        var lines = entities.map { entry in
            let score = entry.score.map { ScoreFormat.twoDecimals($0) + "  " } ?? ""
            let title = entry.subtitle.map { "\(entry.title) — \($0)" } ?? entry.title
            return entry.type.padding(toLength: 10, withPad: " ", startingAt: 0) + " "
                + entry.id.padding(toLength: max(idWidth, entry.id.count), withPad: " ", startingAt: 0) + "  "
                + score + title
        }
        lines.append("\(entities.count) \(entities.count == 1 ? "entity" : "entities")")
        return lines.joined(separator: "\n")
    }
}
