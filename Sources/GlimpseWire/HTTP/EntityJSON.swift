// The JSON of entities as the daemon's entity routes and visual search answers carry them (docs/api.md).

/// How an entity is shown to people: its title, an optional subtitle and picture.
public struct DisplayRepresentationJSON: Codable, Sendable, Equatable {
    /// The title, such as `Eiffel Tower`.
    public var title: String
    /// A second line, such as `landmark · France`.
    public var subtitle: String?
    /// The URL path at which the daemon serves the entity's picture
    /// (`/v1/entities/{type}/{id}/image`), when it has one. Never a path on the daemon's host.
    public var image: String?

    /// Creates a display representation.
    public init(title: String, subtitle: String? = nil, image: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }
}

/// One catalog entity (a place or a collection) as JSON.
public struct EntityJSON: Codable, Sendable, Equatable {
    /// `place` or `collection`.
    public var type: String
    /// The entity's id, unique within its type.
    public var id: String
    /// How the entity is shown.
    public var displayRepresentation: DisplayRepresentationJSON
    /// The entity's properties by name.
    public var properties: [String: JSONValue]
    /// How well the entity matched a text search, higher is better (results of a text search only).
    public var score: Double?

    /// Creates an entity record.
    public init(
        type: String, id: String, displayRepresentation: DisplayRepresentationJSON, properties: [String: JSONValue],
        score: Double? = nil
    ) {
        self.type = type
        self.id = id
        self.displayRepresentation = displayRepresentation
        self.properties = properties
        self.score = score
    }
}

/// The answer to `GET /v1/entities?q=` and `POST /v1/entities/{type}/query`.
public struct EntityListJSON: Codable, Sendable, Equatable {
    /// The matching entities.
    public var entities: [EntityJSON]

    /// Creates a list.
    public init(entities: [EntityJSON]) {
        self.entities = entities
    }
}
