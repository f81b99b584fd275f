public import GlimpseWire

/// A photo sent with an edit: its bytes, the name it is exported under, and its credit.
public struct PhotoUpload: Sendable, Equatable {
    /// The JPEG or PNG bytes.
    public var bytes: [UInt8]
    /// The file name it is exported under; made from the place id and the photo's hash when `nil`.
    public var name: String?
    /// Who made it.
    public var credit: PhotoCredit?

    /// Creates an upload.
    public init(bytes: [UInt8], name: String? = nil, credit: PhotoCredit? = nil) {
        self.bytes = bytes
        self.name = name
        self.credit = credit
    }
}

/// The precondition an editor puts on an edit with `If-Match` / `If-None-Match` (RFC 9110 § 13.1).
public enum EditCondition: Sendable, Equatable {
    /// No precondition: the edit applies to whatever is stored.
    case none
    /// `If-Match: *`: the entity must exist.
    case exists
    /// `If-None-Match: *`: the entity must not exist yet.
    case absent
    /// `If-Match: "N"`: the entity must still be at revision `N` (its `ETag`).
    case revision(Int64)
}

/// What an acknowledged edit did: the answer's body, whether it created the entity (`201`), and the
/// entity's revision afterwards (its `ETag`; `nil` once deleted).
public struct EditOutcome: Sendable, Equatable {
    /// The answer's body.
    public var result: EditResultJSON
    /// Whether the edit created the entity.
    public var created: Bool
    /// The entity's revision after the edit.
    public var revision: Int64?
    /// From the store's commit to the moment the next query saw the edit (`nil` when nothing changed,
    /// or when the edit is not served yet).
    public var commitToVisible: Duration?
    /// Whether the next query sees the edit; `false` when it is stored but not served yet (answered
    /// `202 Accepted`, with ``EditResultJSON/pending`` saying why).
    public var served: Bool { result.pending == nil }

    /// Creates an outcome.
    public init(result: EditResultJSON, created: Bool, revision: Int64?, commitToVisible: Duration? = nil) {
        self.result = result
        self.created = created
        self.revision = revision
        self.commitToVisible = commitToVisible
    }
}

/// What the daemon's catalog-edit routes call: a catalog that can be edited while it is served.
///
/// An edit returns only once it is durable and the next query sees it. Every method runs on the query
/// threads (never on an event loop) and may do CPU-bound work (decoding photos, extracting features).
/// Errors meant for the client are the store's own or an ``APIError``; the daemon's middleware turns
/// them into statuses (`404`, `409`, `412`, `422`, …).
public protocol CatalogEditService: Sendable {
    /// Where the catalog lives and which state is served.
    func info() async -> CatalogInfoJSON
    /// Why edits cannot be stored now (the catalog database cannot be reached), or `nil` when they can.
    func storeProblem() async -> String?
    /// The picture of a place or collection when the store holds it (read from the store, not a file),
    /// or `nil` to look in the catalog's folder.
    func entityImage(type: String, id: String) async throws -> EntityImage?
    /// The place as stored, or `nil`.
    func place(id: String) async throws -> StoredPlaceJSON?
    /// The collection as stored, or `nil`.
    func collection(id: String) async throws -> StoredCollectionJSON?
    /// The label vocabulary and its revision.
    func labels() async throws -> LabelsJSON
    /// Creates or replaces a place; with `photos`, its photos become exactly these.
    func putPlace(id: String, _ place: PlaceEditJSON, photos: [PhotoUpload]?, condition: EditCondition)
        async throws -> EditOutcome
    /// Deletes a place.
    func deletePlace(id: String, condition: EditCondition) async throws -> EditOutcome
    /// Adds a photo to a place.
    func addPhoto(placeID: String, _ photo: PhotoUpload, condition: EditCondition) async throws -> EditOutcome
    /// Removes one of a place's photos by its id (the SHA-256 of its bytes).
    func removePhoto(placeID: String, photoID: String, condition: EditCondition) async throws -> EditOutcome
    /// Creates or replaces a collection.
    func putCollection(id: String, _ collection: CollectionEditJSON, condition: EditCondition)
        async throws -> EditOutcome
    /// Deletes a collection (it leaves the places that list it).
    func deleteCollection(id: String, condition: EditCondition) async throws -> EditOutcome
    /// Replaces the label vocabulary.
    func putLabels(_ labels: [String], condition: EditCondition) async throws -> EditOutcome
}

/// Who may edit the catalog a daemon serves.
public struct EditPolicy: Sendable, Equatable {
    /// Peers allowed to edit (user ids, primary or supplementary group ids).
    public var admins: PeerPolicy
    /// Whether every edit is refused with `403 read_only`.
    public var readOnly: Bool

    /// Creates a policy.
    public init(admins: PeerPolicy, readOnly: Bool) {
        self.admins = admins
        self.readOnly = readOnly
    }
}
