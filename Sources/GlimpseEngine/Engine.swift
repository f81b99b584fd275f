public import GlimpseCatalog
public import GlimpseFeaturePrint
public import GlimpseImage
public import GlimpseIntents
public import GlimpseLabels
public import GlimpseVision
import Foundation
import Synchronization

/// Glimpse's one pipeline: the catalog, the visual matcher over its reference photos, the feature
/// printer, the label model and the decoding policy, loaded once by one rule and shared by the
/// daemon, `glimpse query`, `glimpse match`, `glimpse eval`, `glimpse bench` and library users.
///
/// ```swift
/// var configuration = EngineConfiguration(catalogDirectory: "Images")
/// configuration.featureCache = "/tmp/glimpse-features.glfeat"
/// let engine = try await Engine.load(configuration)
/// let picture = try engine.decode(contentsOfFile: "query.jpg")
/// let page = try await engine.search(SemanticContentDescriptor(pixelBuffer: picture), limit: 5)
/// ```
///
/// **What is optional.** The catalog must load. Each model is loaded by ``ModelChoice``: a named file
/// must load, a conventional file is used when it exists, and without one the engine runs without
/// it (``labeler`` or ``featurePrinter`` is `nil`).
///
/// **Snapshots.** What a query runs against is one ``Generation``: a catalog snapshot with the matcher
/// built for it. ``install(_:)`` builds a new generation for a changed catalog and swaps it in
/// atomically; queries already running finish on the generation they started with, and cursors of
/// earlier generations keep paging while their snapshot is kept by the ``store``.
///
/// Safe to share between tasks.
public final class Engine: Sendable {
    /// One catalog snapshot with the matcher built for it: what a query runs against.
    public struct Generation: Sendable {
        /// The catalog snapshot.
        public let snapshot: CatalogSnapshot
        /// The matcher over its reference photos; `nil` when the engine does not match pictures.
        public let matcher: VisualMatcher?
        /// The visual search over this snapshot.
        public let query: VisualSearchQuery
        /// Where the matcher's reference features came from (`nil` without a matcher).
        public let referenceSource: ReferenceLoader.Source?
        /// Why the feature cache was not used or not written, when it was not.
        public let cacheProblem: VisionError?

        /// The catalog.
        public var catalog: Catalog { snapshot.catalog }
    }

    /// What was asked for.
    public let configuration: EngineConfiguration
    /// The feature printer, when a feature-print model was loaded.
    public let featurePrinter: FeaturePrinterPool?
    /// The null prints of the feature printer's network (`nil` when none were found beside it): the
    /// matcher's print-alone accept line is measured with them for each catalog served.
    public let nullPrints: NullPrints?
    /// The scene labeller, when a label model was loaded.
    public let labeler: LabelPredictor?
    /// The recent catalog snapshots, for paging, and the cursor key.
    public let store: SnapshotStore
    let generation: Mutex<Generation>
    /// Held while an update builds and installs a generation, so updates apply one at a time.
    let updates = Mutex(())
    /// Whether a background compaction of the matcher is running.
    let compacting = Mutex(false)
    /// Counts updates, so that a compaction waiting for a quiet period knows whether one came meanwhile.
    let updateCount = Mutex<UInt64>(0)
    /// Saves the matcher to ``EngineConfiguration/matcherIndex`` after each compaction, for an engine on a
    /// catalog store; `nil` otherwise.
    let indexSaver: MatcherIndexSaver?
    /// The keypoint slots found damaged and what became of their references (see
    /// ``keypointSlotHealth``).
    let slotRepair = Mutex(KeypointSlotRepairState())

    /// Loads everything `configuration` names.
    ///
    /// Reference features are read from the feature cache when it matches the photos and settings,
    /// and extracted (on all cores) otherwise.
    ///
    /// - Throws: ``EngineError`` naming the file at fault.
    public static func load(_ configuration: EngineConfiguration) async throws(EngineError) -> Engine {
        let catalog: Catalog
        do throws(CatalogError) {
            catalog = try Catalog.load(directory: configuration.catalogDirectory)
        } catch {
            throw .catalog(error)
        }
        return try await load(configuration, catalog: catalog, features: nil)
    }

    /// Loads the models `configuration` names (unless `models` are given) and serves `catalog`, whose reference features a catalog
    /// store already holds: `features` by reference key (`Catalog.referenceKey(placeID:photoPath:)`),
    /// extracted with this configuration's settings. A photo missing from `features` is extracted from
    /// its file. With `features` `nil`, every photo's features come from the feature cache or are
    /// extracted, as for a catalog folder.
    ///
    /// With ``EngineConfiguration/matcherIndex`` and `features`, the matcher is loaded from that file when it
    /// was saved with these settings, and brought up to date with `catalog` (photos added since are added,
    /// photos gone are removed); otherwise it is built. A built matcher is saved to the file in the background;
    /// a loaded one that changed is saved once it is folded whole, as is the matcher after every later whole
    /// fold (see ``update(to:features:changedPlaces:)``).
    ///
    /// - Throws: ``EngineError`` naming the file at fault.
    public static func load(
        _ configuration: EngineConfiguration, catalog: Catalog, features: [String: ImageFeatures]?,
        models given: EngineModels? = nil
    ) async throws(EngineError) -> Engine {
        guard let features else {
            let models: EngineModels
            if let given { models = given } else { models = try EngineModels.load(configuration) }
            let store = SnapshotStore(cursorKey: configuration.cursorKey)
            let generation = try await Self.generation(
                for: catalog, configuration: configuration, printer: models.featurePrinter, nullPrints: models.nullPrints,
                labeler: models.labeler, store: store)
            let engine = Engine(configuration: configuration, models: models, generation: generation, indexSaver: nil)
            engine.watchKeypointSlots()
            return engine
        }
        return try await load(
            configuration, catalog: catalog, storedFeatures: { features[$0] }, photoFolder: catalog.directory, models: given)
    }

    /// ``load(_:catalog:features:models:)`` for a catalog store whose photo files are in `photoFolder`, with
    /// each photo's stored features read only when the matcher needs them: a matcher loaded from its index
    /// needs only the photos added since.
    static func load(
        _ configuration: EngineConfiguration, catalog: Catalog, storedFeatures: StoredFeatureLookup, photoFolder: String,
        models given: EngineModels? = nil
    ) async throws(EngineError) -> Engine {
        let models: EngineModels
        if let given { models = given } else { models = try EngineModels.load(configuration) }
        let printer = models.featurePrinter
        let store = SnapshotStore(cursorKey: configuration.cursorKey)
        let indexTag = storeIndexTag(configuration: configuration, printer: printer, photoFolder: photoFolder)
        var matcher: VisualMatcher?
        var origin = StoreMatcherOrigin.built
        var problem: VisionError?
        if configuration.matchesPictures {
            (matcher, origin, problem) = try await storeMatcher(
                for: catalog, features: storedFeatures, indexTag: indexTag, configuration: configuration, printer: printer,
                nullPrints: models.nullPrints)
        }
        let snapshot = store.publish(catalog)
        let query = VisualSearchQuery(
            snapshot: snapshot, store: store, matcher: matcher, labeler: models.labeler, configuration: configuration.search)
        let source: ReferenceLoader.Source? = switch origin {
        case .built: matcher == nil ? nil : .cache
        case .index: .matcherIndex
        }
        let generation = Generation(
            snapshot: snapshot, matcher: matcher, query: query, referenceSource: source, cacheProblem: problem)
        let saver = configuration.matcherIndex.map { MatcherIndexSaver(path: $0, tag: indexTag, progress: configuration.buildProgress) }
        let engine = Engine(configuration: configuration, models: models, generation: generation, indexSaver: saver)
        if let matcher, let saver {
            switch origin {
            case .built: saver.save(matcher)
            // The changes are folded into one segment first, which is then saved (a save would fold them anyway);
            // a large matcher with few changes is left as it is, and the next start catches up the same way.
            case .index(changed: true): if matcher.foldsWhenQuiet { engine.compactInBackground(matcher) }
            case .index(changed: false): break
            }
        }
        engine.watchKeypointSlots()
        return engine
    }

    /// An engine from parts already built (tests, and callers with their own matcher). `matcher`'s
    /// reference ids must be place ids of `catalog`.
    public convenience init(
        catalog: Catalog, matcher: VisualMatcher?, labeler: LabelPredictor? = nil,
        configuration: EngineConfiguration? = nil
    ) {
        var settings = configuration ?? EngineConfiguration(catalogDirectory: catalog.directory)
        if let matcher { settings.vision = matcher.configuration }
        settings.matchesPictures = matcher != nil
        let store = SnapshotStore(cursorKey: settings.cursorKey)
        let snapshot = store.publish(catalog)
        let query = VisualSearchQuery(
            snapshot: snapshot, store: store, matcher: matcher, labeler: labeler, configuration: settings.search)
        self.init(
            configuration: settings, featurePrinter: matcher?.printer as? FeaturePrinterPool,
            nullPrints: matcher?.nullPrints, labeler: labeler, generation: Generation(
                snapshot: snapshot, matcher: matcher, query: query, referenceSource: nil, cacheProblem: nil),
            indexSaver: nil)
        watchKeypointSlots()
    }

    private convenience init(
        configuration: EngineConfiguration, models: EngineModels, generation: Generation, indexSaver: MatcherIndexSaver?
    ) {
        self.init(
            configuration: configuration, featurePrinter: models.featurePrinter, nullPrints: models.nullPrints,
            labeler: models.labeler, generation: generation, indexSaver: indexSaver)
    }

    private init(
        configuration: EngineConfiguration, featurePrinter: FeaturePrinterPool?, nullPrints: NullPrints?,
        labeler: LabelPredictor?, generation: Generation, indexSaver: MatcherIndexSaver?
    ) {
        self.configuration = configuration
        self.featurePrinter = featurePrinter
        self.nullPrints = nullPrints
        self.labeler = labeler
        self.store = generation.query.store
        self.generation = Mutex(generation)
        self.indexSaver = indexSaver
    }

    // MARK: - The current generation

    /// The generation new queries run against.
    public var current: Generation { generation.withLock { $0 } }

    /// The current catalog.
    public var catalog: Catalog { current.catalog }

    /// How many background saves of the matcher index have ended, saved or failed (each is reported to
    /// ``EngineConfiguration/buildProgress``); 0 for an engine that saves none (see
    /// ``load(_:catalog:features:models:)``).
    public var matcherIndexSaves: Int { indexSaver?.savesFinished ?? 0 }

    /// Builds the matcher for `catalog` (reading the feature cache, extracting what it lacks) and makes
    /// it the current generation. Queries already running finish on the previous one.
    ///
    /// - Returns: the new generation.
    /// - Throws: ``EngineError/catalog(_:)`` when a reference photo cannot be decoded; the current
    ///   generation is then left as it was.
    @discardableResult
    public func install(_ catalog: Catalog) async throws(EngineError) -> Generation {
        let next = try await Self.generation(
            for: catalog, configuration: configuration, printer: featurePrinter, nullPrints: nullPrints, labeler: labeler,
            store: store)
        generation.withLock { $0 = next }
        watchKeypointSlots()
        return next
    }

    // MARK: - Queries

    /// How query pictures are decoded: no larger than the matcher looks at, orientation applied.
    /// `glimpse query`, `glimpse match` and the daemon all decode this way, so their answers agree.
    public var decodingOptions: DecodingOptions { configuration.vision.queryDecoding }

    /// Decodes an encoded query picture with ``decodingOptions``.
    public func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> PixelBuffer {
        try ImageDecoder.decode(bytes, options: decodingOptions).pixelBuffer
    }

    /// Decodes a query picture file with ``decodingOptions``.
    public func decode(contentsOfFile path: String) throws(ImageDecodingError) -> PixelBuffer {
        try ImageDecoder.decode(contentsOfFile: path, options: decodingOptions).pixelBuffer
    }

    /// The first page of the visual search for a picture and/or labels, on the current generation.
    ///
    /// - Parameters:
    ///   - input: the picture and/or labels searched with.
    ///   - limit: the page size; `nil` for the default.
    public func search(_ input: SemanticContentDescriptor, limit: Int? = nil) async throws -> VisualSearchPage {
        try await current.query.search(input, limit: limit)
    }

    /// The page after the one that returned `cursor`, from the snapshot the cursor belongs to.
    public func page(after cursor: String, limit: Int? = nil) throws(VisualSearchError) -> VisualSearchPage {
        try current.query.page(after: cursor, limit: limit)
    }

    // MARK: - Loading

    private static func generation(
        for catalog: Catalog, configuration: EngineConfiguration, printer: FeaturePrinterPool?,
        nullPrints: NullPrints?, labeler: LabelPredictor?, store: SnapshotStore
    ) async throws(EngineError) -> Generation {
        var matcher: VisualMatcher?
        var source: ReferenceLoader.Source?
        var cacheProblem: VisionError?
        if configuration.matchesPictures {
            do throws(CatalogError) {
                (matcher, source, cacheProblem) = try await catalog.buildVisualMatcher(
                    configuration: configuration.vision, placeIDs: configuration.placeIDs,
                    featureCache: configuration.featureCache, printer: printer, nullPrints: nullPrints,
                    syntheticReferences: configuration.syntheticReferences, distractorPool: configuration.distractorPool,
                    keypointSlots: configuration.keypointSlots, matcherIndex: configuration.matcherIndex,
                    progress: configuration.buildProgress)
            } catch {
                throw .catalog(error)
            }
        }
        let snapshot = store.publish(catalog)
        let query = VisualSearchQuery(
            snapshot: snapshot, store: store, matcher: matcher, labeler: labeler, configuration: configuration.search)
        return Generation(
            snapshot: snapshot, matcher: matcher, query: query, referenceSource: source, cacheProblem: cacheProblem)
    }

    /// The features of `photos` (key, place, path), extracted on all cores; the first failure in
    /// order is thrown.
    static func extract(
        _ photos: [(key: String, placeID: String, path: String)], configuration: VisionConfiguration,
        printer: (any FeaturePrinting)?
    ) throws(EngineError) -> [String: ImageFeatures] {
        guard !photos.isEmpty else { return [:] }
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, photos.count))
        let results = Mutex([Result<ImageFeatures, VisionError>?](repeating: nil, count: photos.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: photos.count, by: workers) {
                let outcome = Result { () throws(VisionError) in
                    try ReferenceLoader.features(ofPhotoAt: photos[index].path, configuration: configuration, printer: printer)
                }
                results.withLock { $0[index] = outcome }
            }
        }
        var out: [String: ImageFeatures] = [:]
        for (photo, outcome) in zip(photos, results.withLock { $0 }) {
            switch outcome {
            case .success(let features)?: out[photo.key] = features
            case .failure(let error)?:
                throw .catalog(.undecodablePhoto(placeID: photo.placeID, path: photo.path, reason: error.description))
            case nil: continue
            }
        }
        return out
    }

    static func loadPrinter(
        _ choice: ModelChoice, catalogDirectory: String
    ) throws(EngineError) -> FeaturePrinterPool? {
        guard choice != .off else { return nil }
        do throws(FeaturePrintModelError) {
            return try FeaturePrinterPool.load(explicit: choice.namedFile, catalogDirectory: catalogDirectory)
        } catch {
            throw .featurePrintModel(error)
        }
    }

    static func loadLabeler(
        _ choice: ModelChoice, catalogDirectory: String, printer: FeaturePrinterPool?
    ) throws(EngineError) -> LabelPredictor? {
        let path: String
        switch choice {
        case .off:
            return nil
        case .automatic:
            path = LabelModel.defaultPath(catalogDirectory: catalogDirectory)
            guard FileManager.default.fileExists(atPath: path) else { return nil }
        case .file(let named):
            path = named
            guard FileManager.default.fileExists(atPath: path) else { throw .labelModelMissing(path: path) }
        }
        do throws(LabelModelError) {
            return LabelPredictor(model: try LabelModel.load(from: path, featurePrinter: printer))
        } catch {
            throw .labelModel(error)
        }
    }
}
