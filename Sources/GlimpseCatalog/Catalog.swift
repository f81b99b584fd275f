import Foundation
public import GlimpseWire

/// The validated catalog: places, collections and the label vocabulary, loaded from `catalog.json`.
///
/// Loading checks the whole file before anything uses it: ids are unique, every collection a place
/// lists exists, every photo exists, and every label is in the vocabulary. A `Catalog` is an
/// immutable value and can be shared between tasks.
public struct Catalog: Sendable {
    /// The file name looked for inside a catalog folder.
    public static let fileName = "catalog.json"

    /// The absolute path of the folder holding `catalog.json`; photo paths are resolved against it.
    public let directory: String
    /// Every place, in file order.
    public let places: [PlaceEntity]
    /// Every collection, in file order, each with the ids of the places that list it.
    public let collections: [CollectionEntity]
    /// The label vocabulary, in file order.
    public let labels: [String]
    /// The bytes the snapshot id is derived from: `catalog.json`'s exact bytes for a catalog folder;
    /// the store's id and change sequence for a catalog store.
    public let contents: [UInt8]
    /// The catalog as written: what `CatalogDefinition` export and edits start from.
    public let definition: CatalogDefinition

    private let placeIndex: [String: Int]
    private let collectionIndex: [String: Int]

    /// Loads and validates `catalog.json` from a catalog folder such as `Images`.
    ///
    /// - Parameters:
    ///   - directory: the catalog folder.
    ///   - checkPhotos: when `true` (the default), every place's photo must exist.
    /// - Throws: ``CatalogError`` naming the first entry at fault.
    public static func load(directory: String, checkPhotos: Bool = true) throws(CatalogError) -> Catalog {
        let folder = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        let file = folder.appendingPathComponent(fileName)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadable(path: file.path, reason: DecodingProblem.sentence(for: error))
        }
        return try Catalog(json: Array(data), directory: folder.path, sourcePath: file.path, checkPhotos: checkPhotos)
    }

    /// Parses and validates catalog JSON whose photo paths are relative to `directory`.
    ///
    /// - Parameters:
    ///   - json: the bytes of a `catalog.json`.
    ///   - directory: the folder its photo paths are relative to.
    ///   - sourcePath: the name used for the file in error messages.
    ///   - checkPhotos: when `true`, every place's photo must exist.
    /// - Throws: ``CatalogError`` naming the first entry at fault.
    public init(json: [UInt8], directory: String, sourcePath: String = "catalog.json", checkPhotos: Bool = true)
        throws(CatalogError)
    {
        let definition: CatalogDefinition
        do {
            definition = try JSONDecoder().decode(CatalogDefinition.self, from: Data(json))
        } catch {
            throw .malformed(path: sourcePath, reason: DecodingProblem.sentence(for: error))
        }
        let folder = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        try self.init(definition: definition, directory: folder.path, identity: json, checkPhotos: checkPhotos) {
            place, index in folder.appendingPathComponent(place.photos[index].image).standardizedFileURL.path
        }
    }

    /// Validates a catalog definition whose photos are found by `photoPath`.
    ///
    /// - Parameters:
    ///   - definition: the catalog as written.
    ///   - directory: the folder the catalog is said to live in (a folder catalog's own folder; a
    ///     store's photo folder).
    ///   - identity: the bytes the snapshot id is derived from: `catalog.json`'s bytes for a folder,
    ///     the store's id and change sequence for a store, so equal catalogs get equal ids.
    ///   - checkPhotos: when `true`, every photo file must exist.
    ///   - photoPath: the absolute path of a place's photo, given the place and the photo's position in
    ///     its `photos`.
    /// - Throws: ``CatalogError`` naming the first entry at fault.
    public init(
        definition: CatalogDefinition, directory: String, identity: [UInt8], checkPhotos: Bool = true,
        photoPath: (PlaceDefinition, Int) -> String
    ) throws(CatalogError) {
        self.directory = directory
        self.contents = identity
        self.definition = definition

        try CatalogText.checkVocabulary(definition.labels)
        var vocabulary = Set<String>()
        for label in definition.labels {
            guard vocabulary.insert(label).inserted else { throw .duplicateLabel(label: label) }
        }
        self.labels = definition.labels

        var collectionIndex: [String: Int] = [:]
        collectionIndex.reserveCapacity(definition.collections.count)
        for (offset, collection) in definition.collections.enumerated() {
            try CatalogText.checkCollection(collection, offset: offset)
            guard !collection.id.isEmpty else { throw .missingField(kind: "collection", id: "#\(offset)", field: "id") }
            guard !collection.name.isEmpty else {
                throw .missingField(kind: "collection", id: collection.id, field: "name")
            }
            guard collectionIndex.updateValue(offset, forKey: collection.id) == nil else {
                throw .duplicateID(kind: "collection", id: collection.id)
            }
        }

        var placeIndex: [String: Int] = [:]
        placeIndex.reserveCapacity(definition.places.count)
        var places: [PlaceEntity] = []
        places.reserveCapacity(definition.places.count)
        for (offset, entry) in definition.places.enumerated() {
            let place = try Self.validatedPlace(
                entry, offset: offset, vocabulary: vocabulary, collectionIndex: collectionIndex,
                checkPhotos: checkPhotos, photoPath: photoPath)
            guard placeIndex.updateValue(offset, forKey: entry.id) == nil else {
                throw .duplicateID(kind: "place", id: entry.id)
            }
            places.append(place)
        }
        self.places = places
        self.placeIndex = placeIndex
        self.collectionIndex = collectionIndex
        self.collections = Self.collectionEntities(definition.collections, places: places, placeIndex: placeIndex)
    }

    /// A catalog made of parts already validated together.
    private init(
        directory: String, contents: [UInt8], definition: CatalogDefinition, places: [PlaceEntity],
        collections: [CollectionEntity], placeIndex: [String: Int], collectionIndex: [String: Int]
    ) {
        self.directory = directory
        self.contents = contents
        self.definition = definition
        self.labels = definition.labels
        self.places = places
        self.collections = collections
        self.placeIndex = placeIndex
        self.collectionIndex = collectionIndex
    }

    /// Checks one place entry against the vocabulary and the collections, and resolves its photos.
    private static func validatedPlace(
        _ entry: PlaceDefinition, offset: Int, vocabulary: Set<String>, collectionIndex: [String: Int],
        checkPhotos: Bool, photoPath: (PlaceDefinition, Int) -> String
    ) throws(CatalogError) -> PlaceEntity {
        guard !entry.id.isEmpty else { throw .missingField(kind: "place", id: "#\(offset)", field: "id") }
        guard !entry.name.isEmpty else { throw .missingField(kind: "place", id: entry.id, field: "name") }
        try CatalogText.checkPlace(entry, offset: offset)
        guard !entry.photos.isEmpty, entry.photos.allSatisfy({ !$0.image.isEmpty }) else {
            throw .missingField(kind: "place", id: entry.id, field: "image")
        }
        for label in entry.labels where !vocabulary.contains(label) {
            throw .unknownLabel(placeID: entry.id, label: label)
        }
        for collectionID in entry.collections where collectionIndex[collectionID] == nil {
            throw .danglingCollection(placeID: entry.id, collectionID: collectionID)
        }
        var photos: [PlacePhoto] = []
        photos.reserveCapacity(entry.photos.count)
        for (index, photo) in entry.photos.enumerated() {
            let path = photoPath(entry, index)
            if checkPhotos, !FileManager.default.fileExists(atPath: path) {
                throw .missingPhoto(placeID: entry.id, path: path)
            }
            photos.append(PlacePhoto(path: path, credit: photo.credit ?? Self.noCredit))
        }
        return PlaceEntity(entry, photos: photos)
    }

    private static let noCredit = PhotoCredit(author: "", license: "", source: "")

    /// The collections with their members (the places that list them, in place order) and cover photos.
    private static func collectionEntities(
        _ entries: [CollectionDefinition], places: [PlaceEntity], placeIndex: [String: Int]
    ) -> [CollectionEntity] {
        guard !entries.isEmpty else { return [] }
        var offsets: [String: Int] = [:]
        for (offset, entry) in entries.enumerated() { offsets[entry.id] = offset }
        var members = [[String]](repeating: [], count: entries.count)
        for place in places {
            for collectionID in place.collections {
                if let offset = offsets[collectionID] { members[offset].append(place.id) }
            }
        }
        return entries.enumerated().map { offset, entry in
            CollectionEntity(
                id: entry.id, name: entry.name, summary: entry.summary, places: members[offset],
                coverPhotoPath: members[offset].first.flatMap { placeIndex[$0] }.map { places[$0].photoPath })
        }
    }

    /// This catalog with `changes` applied, as `CatalogDefinition/applying(_:)` orders them, validated
    /// like a whole catalog. When only places change (the common edit), only those places are checked
    /// and resolved again, so the cost does not grow with the catalog; a change of the vocabulary or of
    /// a collection checks everything.
    ///
    /// - Parameters:
    ///   - changes: the places, collections and vocabulary that change.
    ///   - identity: the new catalog's snapshot bytes (see ``init(definition:directory:identity:checkPhotos:photoPath:)``).
    ///   - checkPhotos: when `true`, every checked place's photo file must exist.
    ///   - photoPath: the absolute path of a changed place's photo; only called for changed places
    ///     unless everything is checked.
    /// - Throws: ``CatalogError`` naming the first entry at fault; this catalog is unchanged.
    public func applying(
        _ changes: CatalogDefinitionChanges, identity: [UInt8], checkPhotos: Bool = false,
        photoPath: (PlaceDefinition, Int) -> String
    ) throws(CatalogError) -> Catalog {
        guard changes.labels == nil, changes.collections.isEmpty else {
            return try Catalog(
                definition: definition.applying(changes), directory: directory, identity: identity,
                checkPhotos: checkPhotos, photoPath: photoPath)
        }
        let vocabulary = Set(labels)
        var entries = definition.places
        var places = self.places
        var placeIndex = self.placeIndex
        var removed = false
        var collectionsTouched = false
        // The same order as CatalogDefinition.applying: changed entries in place, new ones by id.
        for id in changes.places.keys.sorted() {
            guard let change = changes.places[id] else { continue }
            let offset = placeIndex[id]
            if let old = offset.map({ places[$0] }), !old.collections.isEmpty { collectionsTouched = true }
            guard let entry = change else {
                if offset != nil { removed = true }
                continue
            }
            guard entry.id == id else { throw .duplicateID(kind: "place", id: entry.id) }
            let place = try Self.validatedPlace(
                entry, offset: offset ?? places.count, vocabulary: vocabulary, collectionIndex: collectionIndex,
                checkPhotos: checkPhotos, photoPath: photoPath)
            if !place.collections.isEmpty { collectionsTouched = true }
            if let offset {
                entries[offset] = entry
                places[offset] = place
            } else {
                placeIndex[id] = places.count
                entries.append(entry)
                places.append(place)
            }
        }
        if removed {
            let gone = Set(changes.places.compactMap { id, change in change == nil ? id : nil })
            entries.removeAll { gone.contains($0.id) }
            places.removeAll { gone.contains($0.id) }
            placeIndex = [:]
            placeIndex.reserveCapacity(places.count)
            for (offset, place) in places.enumerated() { placeIndex[place.id] = offset }
        }
        let definition = CatalogDefinition(labels: labels, places: entries, collections: definition.collections)
        return Catalog(
            directory: directory, contents: identity, definition: definition, places: places,
            collections: collectionsTouched || removed
                ? Self.collectionEntities(definition.collections, places: places, placeIndex: placeIndex)
                : collections,
            placeIndex: placeIndex, collectionIndex: collectionIndex)
    }

    /// The place with this id, or `nil`.
    public func place(id: String) -> PlaceEntity? {
        placeIndex[id].map { places[$0] }
    }

    /// The collection with this id, or `nil`.
    public func collection(id: String) -> CollectionEntity? {
        collectionIndex[id].map { collections[$0] }
    }

    /// The position of a place in file order, or `nil`.
    public func placeOffset(id: String) -> Int? { placeIndex[id] }

    /// The position of a collection in file order, or `nil`.
    public func collectionOffset(id: String) -> Int? { collectionIndex[id] }
}
