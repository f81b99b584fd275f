/// The JSON of the daemon's catalog-edit routes (docs/api.md, "Editing the catalog"): what an editor
/// sends and what the daemon answers. The daemon decodes requests into these, `glimpse catalog
/// --socket` encodes them; neither depends on the other.

/// One photo uploaded inside a JSON request: its bytes in base64, a file name and its credit.
public struct PhotoUploadJSON: Codable, Sendable, Equatable {
    /// The JPEG or PNG bytes, base64-encoded (RFC 4648, with padding).
    public var data: String
    /// The file name it is exported under (`photos/NAME`); made from the place id and the photo's
    /// hash when absent.
    public var name: String?
    /// Who made it.
    public var credit: PhotoCredit?

    /// Creates an upload.
    public init(data: String, name: String? = nil, credit: PhotoCredit? = nil) {
        self.data = data
        self.name = name
        self.credit = credit
    }
}

/// The body of `PUT /v1/places/{id}`: the place's fields and, optionally, its photos.
///
/// In JSON the fields are flat (`name`, `kind`, `region`, `continent`, `labels`, `collections`, `photos`);
/// absent `labels` or `collections` mean none.
public struct PlaceEditJSON: Codable, Sendable, Equatable {
    /// The place's name, kind, region, continent, labels and collections.
    public var fields: PlaceFields
    /// When present, the place's photos become exactly these, in order; when absent, an existing
    /// place keeps its photos (a new place needs at least one).
    public var photos: [PhotoUploadJSON]?

    /// Creates a place edit.
    public init(_ fields: PlaceFields, photos: [PhotoUploadJSON]? = nil) {
        self.fields = fields
        self.photos = photos
    }

    /// Creates a place edit from its fields.
    public init(
        name: String, kind: String, region: String? = nil, continent: String? = nil, labels: [String] = [],
        collections: [String] = [], photos: [PhotoUploadJSON]? = nil
    ) {
        let fields = PlaceFields(
            name: name, kind: kind, region: region, continent: continent, labels: labels, collections: collections)
        self.init(fields, photos: photos)
    }

    private enum CodingKeys: String, CodingKey {
        case name, kind, region, continent, labels, collections, photos
    }

    /// Decodes the flat form; `labels` and `collections` may be absent. A list longer than
    /// ``CatalogLimits`` allows is refused (``BoundedList``) before its entries are decoded.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fields = PlaceFields(
            name: try c.decode(String.self, forKey: .name), kind: try c.decode(String.self, forKey: .kind),
            region: try c.decodeIfPresent(String.self, forKey: .region),
            continent: try c.decodeIfPresent(String.self, forKey: .continent),
            labels: try c.decodeList(String.self, forKey: .labels, limit: CatalogLimits.labelsPerPlace) ?? [],
            collections: try c.decodeList(String.self, forKey: .collections, limit: CatalogLimits.collectionsPerPlace) ?? [])
        photos = try c.decodeList(PhotoUploadJSON.self, forKey: .photos, limit: CatalogLimits.photosPerPlace)
    }

    /// Encodes the flat form.
    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(photos, forKey: .photos)
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

    private enum CodingKeys: String, CodingKey {
        case labels, revision
    }

    /// Decodes a vocabulary, refusing one longer than ``CatalogLimits/vocabulary`` (``BoundedList``)
    /// before its labels are decoded.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let labels = try c.decodeList(String.self, forKey: .labels, limit: CatalogLimits.vocabulary) else {
            throw DecodingError.keyNotFound(
                CodingKeys.labels, .init(codingPath: c.codingPath, debugDescription: "the vocabulary's labels"))
        }
        self.labels = labels
        revision = try c.decodeIfPresent(Int64.self, forKey: .revision)
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
    public var credit: PhotoCredit?

    /// Creates a photo record.
    public init(id: String, name: String, bytes: Int, credit: PhotoCredit? = nil) {
        self.id = id
        self.name = name
        self.bytes = bytes
        self.credit = credit
    }
}

/// A place as stored: its fields, photos and revision (`GET /v1/places/{id}`, and edit answers).
///
/// In JSON the fields are flat: `id`, `name`, `kind`, `region`, `continent`, `labels`, `collections`,
/// `photos`, `revision`.
public struct StoredPlaceJSON: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The place's name, kind, region, continent, labels and collections.
    public var fields: PlaceFields
    /// The photos, the first one the place's picture.
    public var photos: [StoredPhotoJSON]
    /// Bumped by every change to the place; the `ETag` is this number in quotes.
    public var revision: Int64

    /// The stored form of `place`, with its stored photos and revision.
    public init(_ place: PlaceDefinition, photos: [StoredPhotoJSON], revision: Int64) {
        id = place.id
        fields = place.fields
        self.photos = photos
        self.revision = revision
    }

    private enum CodingKeys: String, CodingKey {
        case id, photos, revision
    }

    /// Decodes the flat form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        fields = try PlaceFields(from: decoder)
        photos = try c.decode([StoredPhotoJSON].self, forKey: .photos)
        revision = try c.decode(Int64.self, forKey: .revision)
    }

    /// Encodes the flat form.
    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(photos, forKey: .photos)
        try c.encode(revision, forKey: .revision)
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
    /// Only in a `202 Accepted`: the edit is stored (durable, and what `place`, `collection` or
    /// `labels` show), but this daemon does not serve it yet, for the reason given here; it serves it
    /// once it catches up with the store. `snapshot` is then the one served before the edit. Do not
    /// send the edit again.
    public var pending: String?

    /// Creates an edit answer.
    public init(
        sequence: Int64, snapshot: String, changed: Bool, place: StoredPlaceJSON? = nil,
        collection: StoredCollectionJSON? = nil, labels: [String]? = nil, pending: String? = nil
    ) {
        self.sequence = sequence
        self.snapshot = snapshot
        self.changed = changed
        self.place = place
        self.collection = collection
        self.labels = labels
        self.pending = pending
    }
}

/// The print-alone accept line measured for the served catalog (`GET /v1/catalog`'s `printLine`, the
/// `glimpse_print_*` metrics; `glimpse catalog calibration` lists the look-alike places).
public struct PrintLineJSON: Codable, Sendable, Equatable {
    /// The print evidence a candidate must pass to be accepted without geometry.
    public var evidence: Double
    /// The null prints the line was set on.
    public var nulls: Int
    /// The null prints left out as copies of the catalog's own photos.
    public var nullsLeftOut: Int
    /// The places whose line a look-alike place raised.
    public var lookAlikePlaces: Int

    /// Creates a line summary.
    public init(evidence: Double, nulls: Int, nullsLeftOut: Int, lookAlikePlaces: Int) {
        self.evidence = evidence
        self.nulls = nulls
        self.nullsLeftOut = nullsLeftOut
        self.lookAlikePlaces = lookAlikePlaces
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
    /// The print-alone accept line measured for the served catalog, when it has one.
    public var printLine: PrintLineJSON?

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
