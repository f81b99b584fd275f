/// The JSON of the daemon's catalog-edit routes (docs/api.md, "Editing the catalog"): what an editor
/// sends and what the daemon answers. The daemon decodes requests into these, `glimpse catalog
/// --socket` encodes them; neither depends on the other.

/// Who made a photo and under which license.
public struct CreditJSON: Codable, Sendable, Equatable {
    /// The photographer or author.
    public var author: String
    /// The license, such as `CC-BY-SA-4.0`.
    public var license: String
    /// Where the photo was taken from.
    public var source: String
    /// The original upstream location, when known.
    public var original: String?

    /// Creates a credit.
    public init(author: String, license: String, source: String, original: String? = nil) {
        self.author = author
        self.license = license
        self.source = source
        self.original = original
    }
}

/// One photo uploaded inside a JSON request: its bytes in base64, a file name and its credit.
public struct PhotoUploadJSON: Codable, Sendable, Equatable {
    /// The JPEG or PNG bytes, base64-encoded (RFC 4648, with padding).
    public var data: String
    /// The file name it is exported under (`photos/NAME`); made from the place id and the photo's
    /// hash when absent.
    public var name: String?
    /// Who made it.
    public var credit: CreditJSON?

    /// Creates an upload.
    public init(data: String, name: String? = nil, credit: CreditJSON? = nil) {
        self.data = data
        self.name = name
        self.credit = credit
    }
}

/// The body of `PUT /v1/places/{id}`: the place's fields and, optionally, its photos.
public struct PlaceEditJSON: Codable, Sendable, Equatable {
    /// The display name.
    public var name: String
    /// What the place is: `lake`, `landmark`, …
    public var kind: String
    /// The country, for landmarks.
    public var region: String?
    /// The continent.
    public var continent: String?
    /// Scene labels, all from the catalog's vocabulary; none when absent.
    public var labels: [String]?
    /// Ids of the collections it belongs to; none when absent.
    public var collections: [String]?
    /// When present, the place's photos become exactly these, in order; when absent, an existing
    /// place keeps its photos (a new place needs at least one).
    public var photos: [PhotoUploadJSON]?

    /// Creates a place edit.
    public init(
        name: String, kind: String, region: String? = nil, continent: String? = nil, labels: [String]? = nil,
        collections: [String]? = nil, photos: [PhotoUploadJSON]? = nil
    ) {
        self.name = name
        self.kind = kind
        self.region = region
        self.continent = continent
        self.labels = labels
        self.collections = collections
        self.photos = photos
    }
}

/// The body of `PUT /v1/collections/{id}`.
public struct CollectionEditJSON: Codable, Sendable, Equatable {
    /// The display name.
    public var name: String
    /// One sentence describing what it holds.
    public var summary: String
    /// When present, exactly these places list the collection afterwards.
    public var places: [String]?

    /// Creates a collection edit.
    public init(name: String, summary: String, places: [String]? = nil) {
        self.name = name
        self.summary = summary
        self.places = places
    }
}

/// The body of `PUT /v1/labels` and the answer of `GET /v1/labels`: the label vocabulary.
public struct LabelsJSON: Codable, Sendable, Equatable {
    /// The labels, in order.
    public var labels: [String]
    /// The vocabulary's revision (answers only).
    public var revision: Int64?

    /// Creates a vocabulary.
    public init(labels: [String], revision: Int64? = nil) {
        self.labels = labels
        self.revision = revision
    }
}

/// A stored photo of a place, as the edit routes report it.
public struct StoredPhotoJSON: Codable, Sendable, Equatable {
    /// The photo's id: the SHA-256 of its bytes, lowercase hex.
    public var id: String
    /// The file name it is exported under.
    public var name: String
    /// Its size in bytes.
    public var bytes: Int
    /// Who made it.
    public var credit: CreditJSON?

    /// Creates a photo record.
    public init(id: String, name: String, bytes: Int, credit: CreditJSON? = nil) {
        self.id = id
        self.name = name
        self.bytes = bytes
        self.credit = credit
    }
}

/// A place as stored: its fields, photos and revision (`GET /v1/places/{id}`, and edit answers).
public struct StoredPlaceJSON: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The display name.
    public var name: String
    /// What the place is.
    public var kind: String
    /// The country.
    public var region: String?
    /// The continent.
    public var continent: String?
    /// Scene labels.
    public var labels: [String]
    /// Collection ids.
    public var collections: [String]
    /// The photos, the first one the place's picture.
    public var photos: [StoredPhotoJSON]
    /// Bumped by every change to the place; the `ETag` is this number in quotes.
    public var revision: Int64

    /// Creates a stored place.
    public init(
        id: String, name: String, kind: String, region: String?, continent: String?, labels: [String],
        collections: [String], photos: [StoredPhotoJSON], revision: Int64
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.region = region
        self.continent = continent
        self.labels = labels
        self.collections = collections
        self.photos = photos
        self.revision = revision
    }
}

/// A collection as stored (`GET /v1/collections/{id}`, and edit answers).
public struct StoredCollectionJSON: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The display name.
    public var name: String
    /// One sentence describing what it holds.
    public var summary: String
    /// The ids of the places that list it, in catalog order.
    public var places: [String]
    /// Bumped by every change to the collection; the `ETag` is this number in quotes.
    public var revision: Int64

    /// Creates a stored collection.
    public init(id: String, name: String, summary: String, places: [String], revision: Int64) {
        self.id = id
        self.name = name
        self.summary = summary
        self.places = places
        self.revision = revision
    }
}

/// The answer to an acknowledged edit: it is durable and the next query sees it.
public struct EditResultJSON: Codable, Sendable, Equatable {
    /// The store's change sequence number after the edit.
    public var sequence: Int64
    /// The catalog snapshot queries now run against.
    public var snapshot: String
    /// `false` when the edit repeated the stored state and changed nothing.
    public var changed: Bool
    /// The place as stored after the edit (place edits; absent after a deletion).
    public var place: StoredPlaceJSON?
    /// The collection as stored after the edit (collection edits; absent after a deletion).
    public var collection: StoredCollectionJSON?
    /// The vocabulary after the edit (label edits).
    public var labels: [String]?

    /// Creates an edit answer.
    public init(
        sequence: Int64, snapshot: String, changed: Bool, place: StoredPlaceJSON? = nil,
        collection: StoredCollectionJSON? = nil, labels: [String]? = nil
    ) {
        self.sequence = sequence
        self.snapshot = snapshot
        self.changed = changed
        self.place = place
        self.collection = collection
        self.labels = labels
    }
}

/// `GET /v1/catalog`: where the catalog lives and which state is served.
public struct CatalogInfoJSON: Codable, Sendable, Equatable {
    /// `sqlite`, `postgres` or `folder` (a folder catalog cannot be edited).
    public var store: String
    /// The store's id (absent for a folder).
    public var storeID: String?
    /// The last change applied (0 for a folder).
    public var sequence: Int64
    /// The snapshot queries run against.
    public var snapshot: String
    /// Counts of what is served.
    public var places: Int
    /// The number of collections.
    public var collections: Int
    /// The number of reference photos.
    public var photos: Int
    /// Whether this daemon refuses edits (`--read-only`, or a folder catalog).
    public var readOnly: Bool
    /// Why edits cannot be stored now (the catalog database cannot be reached), while they cannot.
    public var storeProblem: String?

    /// Creates a catalog summary.
    public init(
        store: String, storeID: String?, sequence: Int64, snapshot: String, places: Int, collections: Int,
        photos: Int, readOnly: Bool, storeProblem: String? = nil
    ) {
        self.storeProblem = storeProblem
        self.store = store
        self.storeID = storeID
        self.sequence = sequence
        self.snapshot = snapshot
        self.places = places
        self.collections = collections
        self.photos = photos
        self.readOnly = readOnly
    }
}
