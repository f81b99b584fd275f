/// What the catalog says of a place besides its id and photos: its name, kind, region, continent,
/// labels and collections.
///
/// The one home of these six fields: a ``PlaceDefinition`` holds them with its id and photos, a place
/// edit (``PlaceEditJSON``) sends them, a stored place (``StoredPlaceJSON``) reports them, and the
/// catalog stores keep them as one JSON column. In JSON they are the keys `name`, `kind`, `region`,
/// `continent`, `labels` and `collections`, written flat beside the holder's own keys.
public struct PlaceFields: Sendable, Hashable, Codable {
    /// The display name.
    public var name: String
    /// What the place is: `lake`, `landmark`, `animal`, …
    public var kind: String
    /// The country, for landmarks.
    public var region: String?
    /// The continent.
    public var continent: String?
    /// The scene labels visible in its photos, all from the catalog's vocabulary.
    public var labels: [String]
    /// The ids of the collections it belongs to.
    public var collections: [String]

    /// Creates the fields of a place.
    public init(
        name: String, kind: String, region: String? = nil, continent: String? = nil, labels: [String] = [],
        collections: [String] = []
    ) {
        self.name = name
        self.kind = kind
        self.region = region
        self.continent = continent
        self.labels = labels
        self.collections = collections
    }
}
