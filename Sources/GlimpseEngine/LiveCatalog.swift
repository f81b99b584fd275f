import GlimpseCatalog
import GlimpseFiles
public import GlimpseImage
public import GlimpseStore
import GlimpseVision
import Foundation
public import GlimpseWire
import Synchronization

/// A catalog served from a catalog store and edited while it serves.
///
/// Every edit is applied to the store first, in one durable transaction; then the engine is given the
/// new catalog (``Engine/update(to:features:changedPlaces:)``: the matcher gains and loses references without a
/// rebuild); only then does ``apply(_:)`` return. So an edit that returned is durable and the next
/// query sees it (unless its outcome says it is not served yet: ``Outcome/notServed``); a query
/// already running finishes on the snapshot it started with, and a cursor keeps paging its own
/// snapshot while the engine's ``Engine/store`` keeps it. Edits apply one at a time.
public actor LiveCatalog {
    /// The pipeline that serves the catalog.
    public nonisolated let engine: Engine
    /// Where the catalog lives.
    public nonisolated let store: any CatalogStore
    /// Where the store's photos are materialised as files, for the catalog's photo paths.
    public nonisolated let photoFolder: PhotoFolder
    /// The store's id, fixed at its creation.
    public nonisolated let storeID: String
    /// The key the engine's reference features are stored under.
    public nonisolated let featuresKey: String
    /// The store's last change the engine serves.
    public internal(set) var sequence: Int64
    /// Why the store cannot be reached, while it cannot (edits then fail; queries are answered from the
    /// state served); `nil` when it can.
    public internal(set) var storeProblem: String?
    /// How many stored photos had no features under this engine's key when the catalog opened (stored
    /// with another feature-print model or other settings, or never) and were extracted again.
    public nonisolated let photosExtractedAtOpen: Int
    /// Why the served catalog is behind the store (a stored change that could not be served), or `nil`.
    public internal(set) var servingProblem: String?
    /// What an operator or a client may be told is wrong, naming no host path, URL or user: the store
    /// cannot be reached, a stored change cannot be served, or the photo cache cannot be written; `nil`
    /// when all is well. `/healthz` says `degraded` with this reason.
    public var healthProblem: String? {
        if storeProblem != nil {
            return StoreError.unavailable(reason: "").publicDescription
        }
        return servingProblem ?? photoCacheProblem
    }
    /// Why the photo cache could not be written the last time it was (a full disk, a read-only
    /// folder), or `nil`: queries are still served, and the photos' bytes are read from the store.
    public internal(set) var photoCacheProblem: String?
    /// Whether ``follow(poll:onEvent:)`` is running (it notices when the store is reachable again).
    var isFollowing = false
    /// How many times following noted the store unreachable: a catch-up that began before the last
    /// of these does not clear ``storeProblem``.
    var storeLosses = 0
    var places: [String: StoredPlace]
    var collections: [String: StoredCollection]
    var labelsRevision: Int64

    /// What one edit did, once it is durable and visible.
    public struct Outcome: Sendable {
        /// What the store reports.
        public let applied: AppliedEdit
        /// The snapshot queries run against now.
        public let snapshotID: String
        /// From the store's commit to the engine's publication of the new snapshot (`nil` when nothing
        /// changed, or when the edit is not served yet).
        public let commitToVisible: Duration?
        /// Why the edit, stored, is not served yet (`snapshotID` is then the snapshot served before it),
        /// or `nil` when the next query sees it. The edit is durable either way: the daemon serves it as
        /// soon as it catches up with the store (the next signal or poll), and a restart serves it too.
        public let notServed: String?

        init(applied: AppliedEdit, snapshotID: String, commitToVisible: Duration?, notServed: String? = nil) {
            self.applied = applied
            self.snapshotID = snapshotID
            self.commitToVisible = commitToVisible
            self.notServed = notServed
        }
    }

    /// Loads the models `configuration` names (unless `models` are given), reads the catalog `store` holds, writes its photos into
    /// `photoFolder`, and starts the engine on it. Photos whose features were stored under another key
    /// (other extraction settings or another feature-print model) are extracted again and the features
    /// written back, so the next start reads them.
    ///
    /// - Throws: ``LiveCatalogError`` naming what could not be read or loaded.
    public static func open(
        store: any CatalogStore, photoFolder: PhotoFolder, configuration: EngineConfiguration,
        models given: EngineModels? = nil
    ) async throws(LiveCatalogError) -> LiveCatalog {
        let models: EngineModels
        if let given { models = given } else {
            do { models = try EngineModels.load(configuration) } catch { throw .engine(error) }
        }
        let key = models.featuresKey
        let stored: StoredCatalog
        let catalog: Catalog
        var cacheProblem: String?
        do throws(StoreError) {
            stored = try await store.read(featuresKey: key)
            // A photo cache that cannot be written (a full disk) does not keep the daemon from starting:
            // queries need only the stored features, and pictures are read from the store.
            do throws(StoreError) { try await photoFolder.materialize(stored.places, from: store) } catch {
                guard case .photoCache = error else { throw error }
                cacheProblem = error.publicDescription
            }
        } catch {
            throw .store(error)
        }
        do throws(CatalogError) {
            catalog = try stored.catalog(photoFolder: photoFolder.path)
        } catch {
            throw .store(.invalidCatalog(error))
        }
        let (stores, missing) = storedFeatures(of: stored.places, in: photoFolder)
        var features: [String: ImageFeatures] = [:]
        if configuration.matchesPictures, !missing.isEmpty {
            let extracted: [String: ImageFeatures]
            do {
                extracted = try Engine.extract(
                    missing.map { ($0.key, $0.placeID, $0.path) }, configuration: configuration.vision,
                    printer: models.featurePrinter)
            } catch {
                throw .engine(error)
            }
            for entry in missing {
                guard let made = extracted[entry.key] else { continue }
                features[entry.key] = made
                do { try await store.storeFeatures(EncodedFeatures(made), sha256: entry.sha256, featuresKey: key) } catch { throw .store(error) }
            }
        }
        // Stored features are decoded only as the matcher asks for them (a matcher index holds most of them);
        // the first damaged one is the error, once the engine is loaded.
        let damaged = Mutex<StoreError?>(nil)
        let extracted = features
        let lookup: StoredFeatureLookup = { key in
            if let made = extracted[key] { return made }
            guard let photo = stores[key] else { return nil }
            do throws(StoreError) { return try photo.decodedFeatures() } catch {
                damaged.withLock { $0 = $0 ?? error }
                return nil
            }
        }
        let engine: Engine
        do {
            engine = try await Engine.load(
                configuration, catalog: catalog, storedFeatures: lookup, photoFolder: photoFolder.path, models: models)
        } catch {
            throw .engine(error)
        }
        if let error = damaged.withLock({ $0 }) { throw .store(error) }
        return LiveCatalog(
            engine: engine, store: store, photoFolder: photoFolder, featuresKey: key, stored: stored, photoCacheProblem: cacheProblem,
            photosExtractedAtOpen: configuration.matchesPictures ? missing.count : 0)
    }

    private init(
        engine: Engine, store: any CatalogStore, photoFolder: PhotoFolder, featuresKey: String, stored: StoredCatalog,
        photoCacheProblem: String?, photosExtractedAtOpen: Int
    ) {
        self.photoCacheProblem = photoCacheProblem
        self.photosExtractedAtOpen = photosExtractedAtOpen
        self.engine = engine
        self.store = store
        self.photoFolder = photoFolder
        self.storeID = stored.storeID
        self.featuresKey = featuresKey
        self.sequence = stored.sequence
        self.places = Dictionary(stored.places.map { ($0.definition.id, $0.withoutFeatures) }, uniquingKeysWith: { $1 })
        self.collections = Dictionary(stored.collections.map { ($0.definition.id, $0) }, uniquingKeysWith: { $1 })
        self.labelsRevision = stored.labelsRevision
    }

    /// Closes the store: after this, edits fail and another process (or a reopened live catalog) may
    /// write the store. Queries keep running on the served snapshot.
    public func close() async {
        await store.close()
    }

    // MARK: - Reading

    /// The place as stored (without its photos' features), or `nil`.
    public func place(id: String) -> StoredPlace? { places[id] }

    /// The collection as stored, or `nil`.
    public func collection(id: String) -> StoredCollection? { collections[id] }

    /// The label vocabulary and its revision.
    public var labels: (labels: [String], revision: Int64) { (engine.catalog.labels, labelsRevision) }

    /// The bytes of the stored photo the served catalog places at `path` (a file of the photo folder),
    /// read from the store, so that a picture sent to a client never depends on the cache (a file the
    /// full disk kept from being written, or one changed behind the daemon's back); the cache file is
    /// written again when it is missing. `nil` for a path that names no stored photo.
    ///
    /// - Throws: the store's error when the bytes cannot be read.
    public nonisolated func storedPhotoBytes(atPath path: String) async throws(StoreError) -> [UInt8]? {
        let prefix = photoFolder.path + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let file = path.dropFirst(prefix.count)
        guard let dot = file.firstIndex(of: "."), StoredPhoto.isContentAddress(String(file[..<dot])) else { return nil }
        let bytes = try await store.photoBytes(sha256: String(file[..<dot]))
        // The cache is filled again when space returns; a file that still cannot be written is no error here.
        try? photoFolder.refill(String(file), with: bytes)
        return bytes
    }

    // MARK: - Editing

    /// The photo `bytes` as the store takes it: decoded at the reference size with `limits`, its
    /// features extracted with the engine's settings and feature printer.
    ///
    /// CPU-bound (tens of milliseconds); runs on the caller's thread, outside the edit queue.
    /// - Throws: the decoder's error for bytes that are not a usable picture; `VisionError` when the
    ///   feature print fails.
    public nonisolated func newPhoto(
        bytes: [UInt8], name: String, credit: PhotoCredit?, limits: DecodingLimits
    ) throws -> NewPhoto {
        var options = DecodingOptions(maxDimension: engine.configuration.vision.maxLongSide)
        options.limits = limits
        let image = try ImageDecoder.decode(bytes, options: options).pixelBuffer
        let features = try ReferenceLoader.features(
            ofDecoded: image, name: name, configuration: engine.configuration.vision, printer: engine.featurePrinter)
        return NewPhoto(
            bytes: bytes, name: name, credit: credit, features: EncodedFeatures(features), featuresKey: featuresKey)
    }

    /// Applies `edit`: durably to the store, then to the engine. Returns once the next query sees it,
    /// or once serving it failed (``Outcome/notServed``): an edit the store committed is never an error.
    ///
    /// - Throws: ``LiveCatalogError/store(_:)`` when the store refuses or fails (nothing was applied).
    public func apply(_ edit: CatalogEdit) async throws(LiveCatalogError) -> Outcome {
        // While the store is known to be unreachable, edits are refused at once rather than after a
        // connection timeout; following the store clears this as soon as it is reachable again.
        if let storeProblem, isFollowing { throw .store(.unavailable(reason: storeProblem)) }
        let applied: AppliedEdit
        do {
            applied = try await store.apply(edit)
            storeProblem = nil
        } catch {
            if case .unavailable(let reason) = error { storeProblem = reason }
            throw .store(error)
        }
        let committed = ContinuousClock.now
        // New photos' files are written only now, so a refused edit leaves none behind. The folder is a
        // cache: a file that cannot be written (a full disk) is missed until the next materialisation,
        // and the photo's bytes stay readable from the store.
        if applied.changed { photoCacheProblem = Self.problem(writing: { () throws(StoreError) in try photoFolder.write(edit.newPhotos) }) }
        guard applied.changed else {
            return Outcome(applied: applied, snapshotID: engine.current.snapshot.id, commitToVisible: nil)
        }
        // From here on the edit is stored: what fails now is serving it, which a later catch-up does.
        do throws(LiveCatalogError) {
            guard applied.sequence == sequence + 1 else {
                // Another process wrote the store since this one last caught up: serve everything up to
                // and including this edit.
                try await catchUp()
                guard sequence >= applied.sequence else {
                    return Outcome(applied: applied, snapshotID: engine.current.snapshot.id, commitToVisible: nil,
                                   notServed: "the store's changes up to this edit could not be read yet")
                }
                return Outcome(applied: applied, snapshotID: engine.current.snapshot.id, commitToVisible: ContinuousClock.now - committed)
            }
            let generation = try await absorb(
                places: applied.places, collections: applied.collections, labels: applied.labels,
                labelsRevision: applied.labels == nil ? nil : applied.sequence, sequence: applied.sequence)
            return Outcome(applied: applied, snapshotID: generation.snapshot.id, commitToVisible: ContinuousClock.now - committed)
        } catch {
            if case .store(.unavailable(let reason)) = error { storeProblem = reason }
            let why = switch error {
            case .store(let error): error.publicDescription
            case .engine: "this daemon cannot serve the store's state yet (its log and /healthz say why)"
            }
            return Outcome(applied: applied, snapshotID: engine.current.snapshot.id, commitToVisible: nil, notServed: why)
        }
    }

    /// Serves `stored`, a whole catalog read from the store (after a catalog was replaced elsewhere).
    func serveWhole(_ stored: StoredCatalog) async throws(LiveCatalogError) {
        do { try await photoFolder.materialize(stored.places, from: store) } catch { throw .store(error) }
        let catalog: Catalog
        do throws(CatalogError) {
            catalog = try stored.catalog(photoFolder: photoFolder.path)
        } catch {
            throw .store(.invalidCatalog(error))
        }
        // Photos stored without features for this engine's key are extracted by the update.
        let features: [String: ImageFeatures]
        do throws(StoreError) { features = try Self.knownFeatures(of: stored.places, in: photoFolder).known } catch {
            throw .store(error)
        }
        do { try engine.update(to: catalog, features: features) } catch { throw .engine(error) }
        sequence = stored.sequence
        places = Dictionary(stored.places.map { ($0.definition.id, $0.withoutFeatures) }, uniquingKeysWith: { $1 })
        collections = Dictionary(stored.collections.map { ($0.definition.id, $0) }, uniquingKeysWith: { $1 })
        labelsRevision = stored.labelsRevision
    }

    /// Serves the store's state at `sequence`, given everything that changed since the state served:
    /// the new state of each changed place and collection (`nil` when deleted) and the new vocabulary.
    func absorb(
        places changedPlaces: [String: StoredPlace?], collections changedCollections: [String: StoredCollection?],
        labels: [String]?, labelsRevision newLabelsRevision: Int64?, sequence newSequence: Int64
    ) async throws(LiveCatalogError) -> Engine.Generation {
        // Photo files are a cache: one that cannot be written now is written at the next start.
        // While the cache could not be written, every place's files are looked for again: missing ones
        // are filled once there is space.
        let changedRecords = changedPlaces.values.compactMap { $0 } + (photoCacheProblem == nil ? [] : Array(places.values))
        var cacheProblem: String?
        do throws(StoreError) { try await photoFolder.materialize(changedRecords, from: store) } catch {
            cacheProblem = error.publicDescription
        }
        var changes = CatalogDefinitionChanges(labels: labels)
        var features: [String: ImageFeatures] = [:]
        // The served state changes only once the new catalog is served: a change that cannot be served
        // leaves the daemon on the state before it.
        var records = places
        for (id, place) in changedPlaces {
            changes.places.updateValue(place?.definition, forKey: id)
            guard let place else {
                records[id] = nil
                continue
            }
            for photo in place.photos {
                // Features made under another key (another model or settings) are extracted again.
                guard photo.featuresKey == featuresKey else { continue }
                let decoded: ImageFeatures?
                do throws(StoreError) { decoded = try photo.decodedFeatures() } catch { throw .store(error) }
                guard let made = decoded else { continue }
                features[Catalog.referenceKey(placeID: id, photoPath: photoFolder.file(for: photo))] = made
            }
            records[id] = place.withoutFeatures
        }
        for (id, collection) in changedCollections {
            changes.collections.updateValue(collection?.definition, forKey: id)
        }
        let folder = photoFolder, placeRecords = records
        // Another catch-up may have served a later state while the photos were written: never go back.
        guard newSequence > sequence else { return engine.current }
        do {
            // Only the changed places are validated and resolved again, and only their photos compared.
            let catalog = try engine.current.catalog.applying(
                changes, identity: Array("\(storeID):\(newSequence)".utf8)
            ) { place, index in
                let photos = placeRecords[place.id]?.photos ?? []
                return index < photos.count ? folder.file(for: photos[index]) : folder.path + "/" + place.photos[index].image
            }
            let generation = try engine.update(
                to: catalog, features: features, changedPlaces: Set(changedPlaces.keys))
            sequence = newSequence
            places = placeRecords
            for (id, collection) in changedCollections { collections[id] = collection }
            if let newLabelsRevision { labelsRevision = newLabelsRevision }
            photoCacheProblem = cacheProblem
            return generation
        } catch let error as CatalogError {
            throw .engine(.catalog(error))
        } catch let error as EngineError {
            throw .engine(error)
        } catch {
            throw .engine(.catalog(.unreadable(path: "the catalog store", reason: "\(error)")))
        }
    }
}
