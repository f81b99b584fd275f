import GlimpseCatalog
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseVision
import Foundation
import Synchronization

/// The features of a catalog store's photos by reference key, read only when asked: `nil` when the store
/// holds none for that photo (it is then extracted from its file).
typealias StoredFeatureLookup = @Sendable (_ key: String) -> ImageFeatures?

/// A matcher index for an engine that serves a catalog store (`EngineConfiguration.matcherIndex`): loaded at
/// start and brought up to date with the store, saved again in the background once the matcher that serves
/// differs from the file.
///
/// Which photos the file holds is not part of its tag: a store's photo files are named by their SHA-256, so
/// a reference key names the photo's content, and a loaded index is brought up to date by comparing its keys
/// with the catalog's (photos added since are added, photos gone are removed). A file saved before a crash,
/// or by a daemon that stopped before it saved, is thus still used, and never trusted for what it does not
/// hold.
extension Engine {
    /// Where the matcher of a store-served engine came from.
    enum StoreMatcherOrigin {
        /// Built from the photos' features: the index is saved for the next start.
        case built
        /// Loaded from the index, then updated with the photos added and removed since (when `changed`).
        case index(changed: Bool)
    }

    /// The tag a matcher index of a catalog store's photos is saved under: the extraction and index settings,
    /// the print network, the places served and `photoFolder`, where the photo files are (reference keys name
    /// photos by their path there: an index of another folder would match none of them and is rebuilt).
    static func storeIndexTag(configuration: EngineConfiguration, printer: (any FeaturePrinting)?, photoFolder: String) -> String {
        let places = configuration.placeIDs.map { $0.sorted().joined(separator: ",") } ?? "all"
        return MatcherIndexFile.tag(
            configuration: configuration.vision, printer: printer,
            source: "catalog-store;places=\(places);photos=\(photoFolder)")
    }

    /// The matcher over `catalog`'s reference photos for an engine on a catalog store: loaded from the matcher
    /// index when there is a usable one saved under `indexTag` and brought up to date, otherwise built from
    /// `features` (photos the store has none for are extracted from their files on all cores).
    ///
    /// - Returns: the matcher, where it came from, and why an index file that exists was not used.
    static func storeMatcher(
        for catalog: Catalog, features: StoredFeatureLookup, indexTag: String, configuration: EngineConfiguration,
        printer: (any FeaturePrinting)?, nullPrints: NullPrints?
    ) async throws(EngineError) -> (matcher: VisualMatcher, origin: StoreMatcherOrigin, problem: VisionError?) {
        let photos = referencePhotos(of: catalog, placeIDs: configuration.placeIDs).sorted { $0.value.order < $1.value.order }
        let progress = configuration.buildProgress
        var problem: VisionError?
        if let path = configuration.matcherIndex {
            var loaded: VisualMatcher?
            do throws(MatcherIndexError) {
                if AtomicFile.size(of: path) != nil { progress?(MatcherBuildProgress(stage: .loadingIndex, done: 0, total: 1)) }
                loaded = try VisualMatcher.loadIndex(
                    from: path, tag: indexTag, configuration: configuration.vision, printer: printer,
                    nullPrints: nullPrints, keypointSlots: configuration.keypointSlots)
                progress?(MatcherBuildProgress(stage: .loadingIndex, done: 1, total: 1))
            } catch {
                if !error.isMissing { problem = .matcherIndex(error) }
            }
            if let loaded {
                let held = Set(loaded.referenceKeys)
                let removed = held.subtracting(photos.lazy.map(\.key))
                let fresh = photos.filter { !held.contains($0.key) }
                let changes = removed.count + fresh.count
                guard changes > 0 else { return (loaded, .index(changed: false), nil) }
                progress?(MatcherBuildProgress(stage: .catchingUp, done: 0, total: changes))
                let added = try await references(for: fresh, features: features, configuration: configuration, printer: printer)
                progress?(MatcherBuildProgress(stage: .catchingUp, done: changes, total: changes))
                return (loaded.updated(adding: added, removingKeys: removed), .index(changed: true), nil)
            }
        }
        // A batch at a time: with keypoint slots, a batch's keypoints are written to the slot file and only
        // what the matcher keeps in memory is held for every photo.
        var builder = VisualMatcherBuilder(
            configuration: configuration.vision, printer: printer, nullPrints: nullPrints,
            keypointSlots: try createKeypointSlots(configuration))
        builder.reserveCapacity(references: photos.count)
        progress?(MatcherBuildProgress(stage: .references, done: 0, total: photos.count))
        var next = 0
        while next < photos.count {
            let batch = Array(photos[next..<min(photos.count, next + storeBuildBatch)])
            builder.add(try await references(for: batch, features: features, configuration: configuration, printer: printer))
            next += batch.count
            progress?(MatcherBuildProgress(stage: .references, done: next, total: photos.count))
        }
        progress?(MatcherBuildProgress(stage: .index, done: 0, total: 1))
        let matcher = builder.build()
        progress?(MatcherBuildProgress(stage: .index, done: 1, total: 1))
        return (matcher, .built, problem)
    }

    /// How many of a store's photos a build reads (and extracts, when the store holds no features for them)
    /// at a time.
    static let storeBuildBatch = 1_024

    /// A new keypoint slot file at `configuration.keypointSlots` for a build, or `nil` without one.
    ///
    /// - Throws: ``EngineError/catalog(_:)`` with ``CatalogError/derivedFile(what:reason:)`` when it cannot
    ///   be made (a folder in the way, a folder that refuses writes, a full disk).
    private static func createKeypointSlots(_ configuration: EngineConfiguration) throws(EngineError) -> KeypointSlots? {
        guard let path = configuration.keypointSlots else { return nil }
        do throws(SlotFileError) {
            return try KeypointSlots.create(path: path, configuration: configuration.vision)
        } catch {
            throw .catalog(.derivedFile(what: KeypointSlots.fileDescription, reason: error.description))
        }
    }

    /// The matcher's references for `photos` (by key, in order): their stored features, or features
    /// extracted from their files on all cores off Swift concurrency's threads.
    private static func references(
        for photos: [(key: String, value: (placeID: String, path: String, order: Int))], features: StoredFeatureLookup,
        configuration: EngineConfiguration, printer: (any FeaturePrinting)?
    ) async throws(EngineError) -> [MatcherReference] {
        var known: [String: ImageFeatures] = [:]
        var missing: [(key: String, placeID: String, path: String)] = []
        for (key, photo) in photos {
            if let stored = features(key) { known[key] = stored } else { missing.append((key, photo.placeID, photo.path)) }
        }
        let vision = configuration.vision
        let pending = missing
        let extracted = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(EngineError) -> [String: ImageFeatures] in
                    try extract(pending, configuration: vision, printer: printer)
                })
            }
        }
        let found = try extracted.get()
        return photos.compactMap { key, photo in
            (known[key] ?? found[key]).map { MatcherReference(id: photo.placeID, key: key, features: $0) }
        }
    }
}

/// Saves an engine's matcher to its matcher index in the background, one save at a time: a matcher handed in
/// while a save runs is saved after it (only the latest one handed in), so a burst of edits costs one or two
/// saves. The file is replaced atomically, so a crash mid-save leaves the previous one.
final class MatcherIndexSaver: Sendable {
    /// The index file.
    let path: String
    /// The tag it is saved under.
    let tag: String
    /// Told when a save starts and ends, and why it failed.
    let progress: (@Sendable (MatcherBuildProgress) -> Void)?
    /// Whether a save runs, the matcher to save once it ends, and how many saves have ended.
    private let state = Mutex<(running: Bool, next: VisualMatcher?, finished: Int)>((false, nil, 0))

    /// A saver of `path` under `tag`.
    init(path: String, tag: String, progress: (@Sendable (MatcherBuildProgress) -> Void)?) {
        self.path = path
        self.tag = tag
        self.progress = progress
    }

    /// The number of saves that have ended, successfully or not.
    var savesFinished: Int { state.withLock { $0.finished } }

    /// Saves `matcher` on a utility thread, after any save under way.
    func save(_ matcher: VisualMatcher) {
        let start = state.withLock { state -> Bool in
            if state.running {
                state.next = matcher
                return false
            }
            state.running = true
            return true
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            var current: VisualMatcher? = matcher
            while let next = current {
                write(next)
                current = state.withLock { state in
                    state.finished += 1
                    let queued = state.next
                    state.next = nil
                    if queued == nil { state.running = false }
                    return queued
                }
            }
        }
    }

    /// Writes `matcher`, reporting the start, the end, or why it failed.
    private func write(_ matcher: VisualMatcher) {
        progress?(MatcherBuildProgress(stage: .savingIndex, done: 0, total: 1))
        do throws(MatcherIndexError) {
            try matcher.saveIndex(to: path, tag: tag)
            progress?(MatcherBuildProgress(stage: .savingIndex, done: 1, total: 1))
        } catch {
            progress?(MatcherBuildProgress(stage: .savingIndex, done: 0, total: 1, problem: error.description))
        }
    }
}
