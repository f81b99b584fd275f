/// Why a catalog could not be loaded: each case names the file or entry at fault and says what to fix.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The catalog file could not be read.
    case unreadable(path: String, reason: String)
    /// The catalog file is not valid JSON of the expected shape.
    case malformed(path: String, reason: String)
    /// Two places, or two collections, share an id.
    case duplicateID(kind: String, id: String)
    /// An entry has an empty id or name.
    case missingField(kind: String, id: String, field: String)
    /// A place lists a collection id that the catalog does not define.
    case danglingCollection(placeID: String, collectionID: String)
    /// A place's photo does not exist.
    case missingPhoto(placeID: String, path: String)
    /// A place uses a label that is not in the catalog's label vocabulary.
    case unknownLabel(placeID: String, label: String)
    /// The label vocabulary lists a label twice.
    case duplicateLabel(label: String)
    /// A place's photo exists but cannot be decoded.
    case undecodablePhoto(placeID: String, path: String, reason: String)
    /// A text field holds what no catalog may hold (a control or bidirectional formatting character,
    /// too many bytes), or a list is too long or repeats an entry (``CatalogText``).
    case invalidText(kind: String, id: String, field: String, reason: String)
    /// A file made from the catalog (`what`, such as the keypoint slot file) cannot be made; `reason`
    /// names the file and says why.
    case derivedFile(what: String, reason: String)

    /// A sentence that says what is wrong and what to do about it.
    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read catalog \(path): \(reason); pass --catalog with a folder holding catalog.json"
        case let .malformed(path, reason):
            "catalog \(path) is not a valid catalog: \(reason); see Images/README.md for the schema"
        case let .duplicateID(kind, id):
            "\(kind) id '\(id)' is used more than once; give each \(kind) a unique id"
        case let .missingField(kind, id, field):
            "\(kind) '\(id)' has an empty \(field); every \(kind) needs one"
        case let .danglingCollection(placeID, collectionID):
            "place '\(placeID)' lists collection '\(collectionID)', which the catalog does not define; "
                + "add it to \"collections\" or remove it from the place"
        case let .missingPhoto(placeID, path):
            "place '\(placeID)' points to photo \(path), which does not exist; fix its \"image\" path"
        case let .unknownLabel(placeID, label):
            "place '\(placeID)' has label '\(label)', which is not in the catalog's \"labels\" vocabulary; "
                + "add it there or correct the spelling"
        case let .undecodablePhoto(placeID, path, reason):
            "place '\(placeID)' has photo \(path), which cannot be decoded (\(reason)); replace it with a PNG or JPEG"
        case let .duplicateLabel(label):
            "label '\(label)' appears twice in the catalog's \"labels\" vocabulary; list each label once"
        case let .invalidText(kind, id, field, reason):
            "\(kind) '\(id)': its \(field) \(reason)"
        case let .derivedFile(what, reason):
            "cannot make the \(what): \(reason)"
        }
    }

    /// The sentence a client of the daemon is given: like ``description`` without host paths.
    public var publicDescription: String {
        switch self {
        case .unreadable, .malformed:
            "the catalog cannot be read; the daemon's log says why"
        case let .derivedFile(what, _):
            "the \(what) cannot be made; the daemon's log says why"
        case let .missingPhoto(placeID, _):
            "place '\(placeID)' points to a photo that does not exist"
        case let .undecodablePhoto(placeID, _, _):
            "place '\(placeID)' has a photo that cannot be decoded; replace it with a PNG or JPEG"
        case .duplicateID, .missingField, .danglingCollection, .unknownLabel, .duplicateLabel, .invalidText:
            description
        }
    }
}
