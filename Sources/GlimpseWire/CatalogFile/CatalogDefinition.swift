/// A catalog as `catalog.json` writes it and the catalog store keeps it: the label vocabulary, the
/// places and the collections, with photos named by path but not read.
///
/// This is the exchange form of a catalog. ``Catalog`` is built from it and validates it; the store
/// keeps one and edits it; `glimpse catalog export` writes one back to a folder.
public struct CatalogDefinition: Sendable, Hashable, Codable {
    /// The label vocabulary, in order.
    public var labels: [String]
    /// The places, in order.
    public var places: [PlaceDefinition]
    /// The collections, in order.
    public var collections: [CollectionDefinition]

    /// Creates a definition from parts.
    public init(labels: [String], places: [PlaceDefinition], collections: [CollectionDefinition]) {
        self.labels = labels
        self.places = places
        self.collections = collections
    }
}

/// Who made a catalog photo and under which license: in `catalog.json`, in the store and on the wire.
public struct PhotoCredit: Sendable, Hashable, Codable {
    /// The photographer or author.
    public var author: String
    /// The license the photo is shipped under, such as `CC-BY-SA-4.0`.
    public var license: String
    /// Where the photo was taken from.
    public var source: String
    /// The original upstream location, when known.
    public var original: String?

    /// Creates a credit line.
    public init(author: String, license: String, source: String, original: String? = nil) {
        self.author = author
        self.license = license
        self.source = source
        self.original = original
    }
}

/// One reference photo of a place, as the catalog names it.
public struct PhotoDefinition: Sendable, Hashable, Codable {
    /// The photo's path relative to the catalog folder, such as `photos/040-eiffel-tower.jpg`.
    public var image: String
    /// Who made the photo, when the catalog says.
    public var credit: PhotoCredit?

    /// Creates a photo entry.
    public init(image: String, credit: PhotoCredit? = nil) {
        self.image = image
        self.credit = credit
    }
}

/// A place as `catalog.json` lists it.
///
/// A place has one or more reference photos (views: another angle, season or time of day). In JSON
/// the first is written as `image` and `credit`, as catalogs always had it, and any others as
/// `views`, an array of `{"image": …, "credit": …}`. Optional text fields keep the file's spelling
/// (an empty `continent` stays empty here; ``PlaceEntity`` reads it as none).
public struct PlaceDefinition: Sendable, Hashable, Codable {
    /// The stable, unique id, such as `eiffel-tower`.
    public var id: String
    /// Its name, kind, region, continent, labels and collections.
    public var fields: PlaceFields
    /// Its reference photos, the first one the place's picture.
    public var photos: [PhotoDefinition]

    /// The display name.
    public var name: String { get { fields.name } set { fields.name = newValue } }
    /// What the place is: `lake`, `landmark`, `animal`, …
    public var kind: String { get { fields.kind } set { fields.kind = newValue } }
    /// The country, for landmarks.
    public var region: String? { get { fields.region } set { fields.region = newValue } }
    /// The continent.
    public var continent: String? { get { fields.continent } set { fields.continent = newValue } }
    /// The scene labels visible in its photos, all from the vocabulary.
    public var labels: [String] { get { fields.labels } set { fields.labels = newValue } }
    /// The ids of the collections it belongs to.
    public var collections: [String] { get { fields.collections } set { fields.collections = newValue } }

    /// Creates a place entry from its id, fields and photos.
    public init(id: String, fields: PlaceFields, photos: [PhotoDefinition]) {
        self.id = id
        self.fields = fields
        self.photos = photos
    }

    /// Creates a place entry.
    public init(
        id: String, name: String, kind: String, region: String? = nil, continent: String? = nil,
        labels: [String] = [], collections: [String] = [], photos: [PhotoDefinition]
    ) {
        let fields = PlaceFields(
            name: name, kind: kind, region: region, continent: continent, labels: labels, collections: collections)
        self.init(id: id, fields: fields, photos: photos)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, image, labels, collections, kind, region, continent, credit, views
    }

    /// Decodes the `catalog.json` form: `image` (+ `credit`) first, then `views`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        fields = try PlaceFields(from: decoder)
        let first = PhotoDefinition(
            image: try c.decode(String.self, forKey: .image),
            credit: try c.decodeIfPresent(PhotoCredit.self, forKey: .credit))
        photos = [first] + (try c.decodeIfPresent([PhotoDefinition].self, forKey: .views) ?? [])
    }

    /// Encodes the `catalog.json` form; `views` only when there is more than one photo.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(photos.first?.image ?? "", forKey: .image)
        try c.encode(labels, forKey: .labels)
        try c.encode(collections, forKey: .collections)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(region, forKey: .region)
        try c.encodeIfPresent(continent, forKey: .continent)
        try c.encodeIfPresent(photos.first?.credit, forKey: .credit)
        if photos.count > 1 { try c.encode(Array(photos.dropFirst()), forKey: .views) }
    }
}

/// A collection as `catalog.json` lists it; its members are the places that name it.
public struct CollectionDefinition: Sendable, Hashable, Codable {
    /// The stable, unique id, such as `waterside`.
    public var id: String
    /// The display name.
    public var name: String
    /// One sentence describing what the collection holds.
    public var summary: String

    /// Creates a collection entry.
    public init(id: String, name: String, summary: String) {
        self.id = id
        self.name = name
        self.summary = summary
    }
}

/// What one catalog edit changed, entity by entity: the new definition of every place and collection
/// it touched (`nil` for one it deleted) and the new vocabulary when that changed.
public struct CatalogDefinitionChanges: Sendable, Hashable {
    /// Places by id: the new definition, or `nil` when deleted.
    public var places: [String: PlaceDefinition?]
    /// Collections by id: the new definition, or `nil` when deleted.
    public var collections: [String: CollectionDefinition?]
    /// The new label vocabulary, when it changed.
    public var labels: [String]?

    /// Creates a change set.
    public init(
        places: [String: PlaceDefinition?] = [:], collections: [String: CollectionDefinition?] = [:],
        labels: [String]? = nil
    ) {
        self.places = places
        self.collections = collections
        self.labels = labels
    }
}

extension CatalogDefinition {
    /// This definition with `changes` applied: changed entries keep their place in the order, deleted
    /// ones leave it, new ones are appended (by id). Costs one pass over the entries.
    public func applying(_ changes: CatalogDefinitionChanges) -> CatalogDefinition {
        CatalogDefinition(
            labels: changes.labels ?? labels,
            places: Self.apply(changes.places, to: places, id: \.id),
            collections: Self.apply(changes.collections, to: collections, id: \.id))
    }

    private static func apply<Entry>(
        _ changes: [String: Entry?], to entries: [Entry], id: KeyPath<Entry, String>
    ) -> [Entry] {
        guard !changes.isEmpty else { return entries }
        var out: [Entry] = []
        out.reserveCapacity(entries.count + changes.count)
        var seen = Set<String>()
        for entry in entries {
            let key = entry[keyPath: id]
            guard let change = changes[key] else {
                out.append(entry)
                continue
            }
            seen.insert(key)
            if let replacement = change { out.append(replacement) }
        }
        for key in changes.keys.sorted() where !seen.contains(key) {
            if let change = changes[key], let added = change { out.append(added) }
        }
        return out
    }
}
