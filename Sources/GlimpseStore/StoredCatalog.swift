import Foundation
public import GlimpseCatalog
public import GlimpseFiles
public import GlimpseWire

/// A catalog as a store holds it: the definition, with revisions and the photos' content addresses.
public struct StoredCatalog: Sendable, Equatable {
    /// The store's id, a UUID made when the store was created.
    public var storeID: String
    /// The sequence number of the last change; 0 for a store never changed.
    public var sequence: Int64
    /// The label vocabulary, in order.
    public var labels: [String]
    /// The label vocabulary's revision.
    public var labelsRevision: Int64
    /// The places, in order.
    public var places: [StoredPlace]
    /// The collections, in order.
    public var collections: [StoredCollection]

    /// Creates a stored catalog from parts.
    public init(
        storeID: String, sequence: Int64, labels: [String], labelsRevision: Int64, places: [StoredPlace],
        collections: [StoredCollection]
    ) {
        self.storeID = storeID
        self.sequence = sequence
        self.labels = labels
        self.labelsRevision = labelsRevision
        self.places = places
        self.collections = collections
    }

    /// The exchange form, as `catalog.json` writes it.
    public var definition: CatalogDefinition {
        CatalogDefinition(labels: labels, places: places.map(\.definition), collections: collections.map(\.definition))
    }

    /// The bytes a store-backed catalog's snapshot id is derived from: `"<storeID>:<sequence>"`.
    public var identity: [UInt8] { Array("\(storeID):\(sequence)".utf8) }

    /// `id` read from a store's metadata, refused unless it is a store id as Glimpse makes them (a
    /// lowercase UUID: `0-9`, `a-f` and `-`, at most 64 characters), since it names the photo cache's folder.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)``.
    package static func checkedStoreID(_ id: String, of what: String) throws(StoreError) -> String {
        guard (1...64).contains(id.utf8.count),
              id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2d })
        else { throw .corrupt(path: what, reason: "its store id is not a UUID") }
        return id
    }

    /// The validated ``Catalog`` whose photo paths point into `photoFolder`, the store's materialised
    /// photo folder (files named by ``StoredPhoto/fileName``).
    ///
    /// - Throws: ``CatalogError`` when the stored catalog does not validate (the store validates every
    ///   edit, so this means a damaged store) or, with `checkPhotos`, a photo file is missing.
    public func catalog(photoFolder: String, checkPhotos: Bool = false) throws(CatalogError) -> Catalog {
        var files: [String: [String]] = [:]
        files.reserveCapacity(places.count)
        for place in places { files[place.definition.id] = place.photos.map(\.fileName) }
        return try Catalog(
            definition: definition, directory: photoFolder, identity: identity, checkPhotos: checkPhotos
        ) { place, index in
            let stored = files[place.id] ?? []
            return photoFolder + "/" + (index < stored.count ? stored[index] : place.photos[index].image)
        }
    }
}

/// A place as a store holds it.
public struct StoredPlace: Sendable, Equatable {
    /// The place's fields; `photos` are the stored photos' names and credits, in order.
    public var definition: PlaceDefinition
    /// Bumps on every change of the place's stored state (fields, photos, collections listed).
    public var revision: Int64
    /// The stored photos, aligned with `definition.photos`.
    public var photos: [StoredPhoto]

    /// Creates a stored place.
    public init(definition: PlaceDefinition, revision: Int64, photos: [StoredPhoto]) {
        self.definition = definition
        self.revision = revision
        self.photos = photos
    }
    /// The stored place `id` with `fields` and `photos`, its definition's photos named and credited as
    /// the stored ones are: how a backend assembles a place from its rows.
    public init(id: String, fields: PlaceFields, revision: Int64, photos: [StoredPhoto]) {
        let named = photos.map { PhotoDefinition(image: $0.name, credit: $0.credit) }
        self.init(definition: PlaceDefinition(id: id, fields: fields, photos: named), revision: revision, photos: photos)
    }
}

/// A photo as a store holds it (without its bytes: ``CatalogStore/photoBytes(sha256:)`` reads them).
public struct StoredPhoto: Sendable, Equatable {
    /// The SHA-256 of the bytes, lowercase hex: the photo's content address.
    public var sha256: String
    /// The path relative to a catalog folder, as in `catalog.json`, such as `photos/040-eiffel-tower.jpg`.
    public var name: String
    /// Who made the photo, when known.
    public var credit: PhotoCredit?
    /// The size of the bytes.
    public var byteCount: Int
    /// The features in their stored coding (read at the engine's edge), when stored under the key asked
    /// for; `nil` when stored under another or never.
    public var features: EncodedFeatures?
    /// The key ``features`` were made under (GlimpseVision's `FeatureCoding.key(configuration:printIdentity:)`); `nil`
    /// without features. An ``AppliedEdit`` carries whatever features are stored: compare this key
    /// with one's own before using them.
    public var featuresKey: String?

    /// Creates a stored photo.
    public init(
        sha256: String, name: String, credit: PhotoCredit?, byteCount: Int, features: EncodedFeatures?,
        featuresKey: String? = nil
    ) {
        self.sha256 = sha256
        self.name = name
        self.credit = credit
        self.byteCount = byteCount
        self.features = features
        self.featuresKey = features == nil ? nil : featuresKey
    }

    /// Whether `text` is a content address: 64 lowercase hexadecimal digits, as ``SHA256/hex(_:)`` writes.
    /// Nothing read from a store is used as a file name before this holds.
    public static func isContentAddress(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `sha256` read from a store's row, refused unless it is a content address.
    ///
    /// - Throws: ``StoreError/corrupt(path:reason:)`` naming the row, never the text it holds.
    package static func checkedAddress(_ sha256: String, of what: String) throws(StoreError) -> String {
        guard isContentAddress(sha256) else {
            throw .corrupt(path: what, reason: "a photo's SHA-256 is not 64 hexadecimal digits")
        }
        return sha256
    }

    /// The file name in a store's photo folder: the SHA-256 and the name's extension (`.jpg` when it has none).
    public var fileName: String { Self.fileName(sha256: sha256, name: name) }

    /// The file name in a store's photo folder of the photo with this content address and name.
    /// A text that is not a content address (which no row that decoded can hold) is named by its own
    /// hash instead, so no name can leave the folder.
    public static func fileName(sha256: String, name: String) -> String {
        (isContentAddress(sha256) ? sha256 : "invalid-" + SHA256.hex(SHA256.hash(Array(sha256.utf8)))) + "." + fileExtension(of: name)
    }

    /// The lowercase extension of `name`, `jpg` when it has none.
    static func fileExtension(of name: String) -> String {
        let ext = (name as NSString).pathExtension.lowercased()
        return ext.isEmpty || ext.count > 8 || !ext.allSatisfy({ $0.isLetter || $0.isNumber }) ? "jpg" : ext
    }
}

/// A collection as a store holds it; its members are the places that list it.
public struct StoredCollection: Sendable, Equatable {
    /// The collection's fields.
    public var definition: CollectionDefinition
    /// Bumps on every change of the collection's fields.
    public var revision: Int64

    /// Creates a stored collection.
    public init(definition: CollectionDefinition, revision: Int64) {
        self.definition = definition
        self.revision = revision
    }
}
