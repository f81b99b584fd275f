public import AppIntentsCore
public import GlimpseWire

/// A place in the catalog: one photographed subject, such as a landmark, a lake or an animal.
///
/// This is the app entity that visual search returns for a recognised picture
/// (see the `AppEntity` conformance in `PlaceEntity+AppEntity.swift`).
public struct PlaceEntity: Sendable, Hashable, Identifiable {
    /// The stable, unique, kebab-case id, such as `eiffel-tower`.
    public let id: String
    /// The display name, such as `Eiffel Tower`.
    @Property(title: "Name", indexingKey: .title)
    public var name: String
    /// What the place is: `lake`, `landmark`, `animal`, …
    @Property(title: "Kind")
    public var kind: String
    /// The country, for landmarks; `nil` when the catalog gives none.
    @Property(title: "Region", indexingKey: .country)
    public var region: String?
    /// The continent; `nil` when the catalog gives none (an empty string in the file).
    @Property(title: "Continent")
    public var continent: String?
    /// The scene labels visible in the photo, all from the catalog's vocabulary, in catalog order.
    @Property(title: "Labels", indexingKey: .keywords)
    public var labels: [String]
    /// The ids of the collections this place belongs to, in catalog order.
    @Property(title: "Collections")
    public var collections: [String]
    /// Its reference photos (one or more views), the first one the place's picture.
    public let photos: [PlacePhoto]

    /// The absolute path of the place's first reference photo.
    public var photoPath: String { photos.first?.path ?? "" }
    /// Who made the first photo.
    public var credit: PhotoCredit { photos.first?.credit ?? PhotoCredit(author: "", license: "", source: "") }

    /// The entity `definition` describes, with its photos resolved to `photos`; an empty region or
    /// continent in the definition is read as none. ``Catalog`` validates places loaded from a file or
    /// store.
    public init(_ definition: PlaceDefinition, photos: [PlacePhoto]) {
        id = definition.id
        self.photos = photos
        name = definition.name
        kind = definition.kind
        region = definition.region.flatMap { $0.isEmpty ? nil : $0 }
        continent = definition.continent.flatMap { $0.isEmpty ? nil : $0 }
        labels = definition.labels
        collections = definition.collections
    }
}

/// One reference photo of a place: where its file is and who made it.
public struct PlacePhoto: Sendable, Hashable {
    /// The absolute path of the photo file.
    public let path: String
    /// Who made the photo.
    public let credit: PhotoCredit

    /// Creates a photo entry.
    public init(path: String, credit: PhotoCredit) {
        self.path = path
        self.credit = credit
    }
}

/// A named group of places, such as `Waterside` or `Landmarks of Europe`.
public struct CollectionEntity: Sendable, Hashable, Identifiable {
    /// The stable, unique id, such as `waterside`.
    public let id: String
    /// The display name.
    @Property(title: "Name", indexingKey: .title)
    public var name: String
    /// One sentence describing what the collection holds.
    @Property(title: "Summary", indexingKey: .description)
    public var summary: String
    /// The ids of the places in this collection, in catalog order.
    @Property(title: "Places")
    public var places: [String]
    /// The absolute path of the first member's photo, used as the collection's picture.
    public let coverPhotoPath: String?

    /// Creates a collection; ``Catalog`` fills `places` from the places that list it.
    public init(id: String, name: String, summary: String, places: [String], coverPhotoPath: String? = nil) {
        self.id = id
        self.coverPhotoPath = coverPhotoPath
        self.name = name
        self.summary = summary
        self.places = places
    }
}
