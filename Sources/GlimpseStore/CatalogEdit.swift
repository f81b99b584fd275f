public import Foundation
public import GlimpseFiles
import GlimpseCatalog
public import GlimpseWire

/// A photo to add to a store: its bytes, content address, name, credit and features.
public struct NewPhoto: Sendable, Equatable {
    /// The photo file's bytes.
    public var bytes: [UInt8]
    /// The SHA-256 of `bytes`, lowercase hex (computed by the initialiser, so it always matches).
    public let sha256: String
    /// The path relative to a catalog folder, as in `catalog.json`, such as `photos/eiffel-tower.jpg`.
    public var name: String
    /// Who made the photo, when known.
    public var credit: PhotoCredit?
    /// The photo's features in their stored coding: `EncodedFeatures(_:)` of what GlimpseVision's
    /// `ReferenceLoader.features(ofPhotoBytes:name:configuration:printer:)` makes.
    public var features: EncodedFeatures
    /// The key the features were made under (GlimpseVision's `FeatureCoding.key(configuration:printIdentity:)`).
    public var featuresKey: String

    /// Creates a photo, computing its SHA-256.
    public init(bytes: [UInt8], name: String, credit: PhotoCredit?, features: EncodedFeatures, featuresKey: String) {
        self.bytes = bytes
        self.sha256 = SHA256.hex(SHA256.hash(bytes))
        self.name = name
        self.credit = credit
        self.features = features
        self.featuresKey = featuresKey
    }
}

/// What must hold of an entity's current revision for an edit to apply (HTTP's conditional requests).
public enum Precondition: Sendable, Equatable {
    /// Applies whatever the entity's state.
    case none
    /// The entity must exist (`If-Match: *`).
    case mustExist
    /// The entity must not exist (`If-None-Match: *`).
    case mustNotExist
    /// The entity must exist at this revision (`If-Match: "<rev>"`).
    case revision(Int64)

    /// Whether an entity at `current` revision (`nil`: it does not exist) satisfies this precondition.
    public func holds(current: Int64?) -> Bool {
        switch self {
        case .none: true
        case .mustExist: current != nil
        case .mustNotExist: current == nil
        case .revision(let wanted): current == wanted
        }
    }
}

/// One change to a store's catalog, applied in one transaction by ``CatalogStore/apply(_:)``.
public enum CatalogEdit: Sendable {
    /// Creates or replaces a place's fields (`definition.photos` is ignored). With `photos`, the place's
    /// photos become exactly these, in order; a new place needs at least one. Repeating the same put
    /// changes nothing (`changed: false`, no revision bump, no change-log entry).
    case putPlace(PlaceDefinition, photos: [NewPhoto]?, precondition: Precondition)
    /// Deletes a place and its photos.
    case deletePlace(id: String, precondition: Precondition)
    /// Appends a photo to a place; the same SHA-256 already on that place changes nothing.
    case addPhoto(placeID: String, photo: NewPhoto, precondition: Precondition)
    /// Removes a photo from a place; refuses to remove the last one (delete the place instead).
    case removePhoto(placeID: String, sha256: String, precondition: Precondition)
    /// Creates or replaces a collection's fields. With `members`, exactly these places (each must exist)
    /// list it afterwards: it is appended to places that did not, removed from others that did.
    case putCollection(CollectionDefinition, members: [String]?, precondition: Precondition)
    /// Deletes a collection and removes it from the places that list it (bumping their revisions).
    case deleteCollection(id: String, precondition: Precondition)
    /// Replaces the label vocabulary; refuses to drop a label a place uses.
    case setLabels([String], precondition: Precondition)
    /// Fills an empty store with a whole catalog (with `replace`, replaces whatever it holds): `photos[i]`
    /// are the photos of `definition.places[i]`, in order. Used by import; one change-log entry.
    case replaceCatalog(CatalogDefinition, photos: [[NewPhoto]], replace: Bool)
}

extension CatalogEdit {
    /// The photos the edit adds to the store, in order.
    public var newPhotos: [NewPhoto] {
        switch self {
        case .putPlace(_, let photos, _): photos ?? []
        case .addPhoto(_, let photo, _): [photo]
        case .replaceCatalog(_, let photos, _): photos.flatMap { $0 }
        case .deletePlace, .removePhoto, .putCollection, .deleteCollection, .setLabels: []
        }
    }
}

/// What an edit did.
public struct AppliedEdit: Sendable, Equatable {
    /// The store's sequence number after the edit (unchanged when nothing changed).
    public var sequence: Int64
    /// Whether the stored state changed.
    public var changed: Bool
    /// Every place whose stored state changed, by id, with its new state (photos carry the features
    /// stored with them); `nil` for a deleted place. A new place is last in the catalog's order.
    public var places: [String: StoredPlace?]
    /// Every collection whose stored state changed, by id; `nil` for a deleted one. A new one is last.
    public var collections: [String: StoredCollection?]
    /// The label vocabulary, when it changed.
    public var labels: [String]?

    /// Creates an edit's outcome.
    public init(
        sequence: Int64, changed: Bool, places: [String: StoredPlace?] = [:],
        collections: [String: StoredCollection?] = [:], labels: [String]? = nil
    ) {
        self.sequence = sequence
        self.changed = changed
        self.places = places
        self.collections = collections
        self.labels = labels
    }
}

/// One entry of a store's change log.
public struct CatalogChange: Sendable, Equatable {
    /// The change's sequence number, strictly increasing.
    public var sequence: Int64
    /// When it was committed.
    public var at: Date
    /// The edit: `putPlace`, `deletePlace`, `addPhoto`, `removePhoto`, `putCollection`,
    /// `deleteCollection`, `setLabels` or `replaceCatalog`.
    public var kind: String
    /// What it changed: `place`, `collection`, `labels` or `catalog`.
    public var entityType: String
    /// The id of the place or collection (empty for labels and the whole catalog).
    public var entityID: String

    /// Creates a change-log entry.
    public init(sequence: Int64, at: Date, kind: String, entityType: String, entityID: String) {
        self.sequence = sequence
        self.at = at
        self.kind = kind
        self.entityType = entityType
        self.entityID = entityID
    }
}
