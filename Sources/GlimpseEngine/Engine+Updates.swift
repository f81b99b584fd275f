public import GlimpseCatalog
public import GlimpseVision
import Foundation
import GlimpseBasics
import Synchronization

/// A changed catalog made current while the engine serves, without rebuilding what did not change.
extension Engine {
    /// Makes `catalog` the current generation by updating the current matcher rather than building a
    /// new one: the photos `catalog` has and the current catalog lacks are added, those it no longer
    /// has are removed (a photo is known by its place id and path, `Catalog.referenceKey(placeID:photoPath:)`).
    ///
    /// Queries already running finish on the generation they started with; the next query sees the
    /// new one. Updates are applied one at a time, in the order they are made.
    ///
    /// - Parameters:
    ///   - catalog: the catalog to serve from now on.
    ///   - features: features of added photos, by reference key, already extracted with this engine's
    ///     settings (a catalog store keeps them); a photo missing here is extracted from its file.
    ///   - changedPlaces: the ids of the only places whose photos may differ between the current catalog
    ///     and `catalog` (an edit's places), so that only they are compared; `nil` compares every place.
    /// - Returns: the new generation.
    /// - Throws: ``EngineError/catalog(_:)`` when an added photo that has no features cannot be decoded;
    ///   the current generation is then left as it was.
    @discardableResult
    public func update(
        to catalog: Catalog, features: [String: ImageFeatures] = [:], changedPlaces: Set<String>? = nil
    ) throws(EngineError) -> Generation {
        try updates.withLock { _ throws(EngineError) -> Generation in
            let previous = current
            var matcher = previous.matcher
            if let current = previous.matcher {
                let before = Self.referencePhotos(of: previous.catalog, placeIDs: configuration.placeIDs, among: changedPlaces)
                let after = Self.referencePhotos(of: catalog, placeIDs: configuration.placeIDs, among: changedPlaces)
                let removed = Set(before.keys).subtracting(after.keys)
                let fresh = after.filter { before[$0.key] == nil }.sorted { $0.value.order < $1.value.order }
                let extracted = try Self.extract(
                    fresh.filter { features[$0.key] == nil }.map { ($0.key, $0.value.placeID, $0.value.path) },
                    configuration: configuration.vision, printer: current.printer)
                let added = fresh.compactMap { key, photo in
                    (features[key] ?? extracted[key]).map { MatcherReference(id: photo.placeID, key: key, features: $0) }
                }
                if !added.isEmpty || !removed.isEmpty {
                    matcher = current.updated(adding: added, removingKeys: removed)
                }
            }
            let snapshot = store.publish(catalog)
            let next = Generation(
                snapshot: snapshot, matcher: matcher,
                query: VisualSearchQuery(
                    snapshot: snapshot, store: store, matcher: matcher, labeler: labeler,
                    configuration: configuration.search),
                referenceSource: previous.referenceSource, cacheProblem: previous.cacheProblem)
            generation.withLock { $0 = next }
            let count = updateCount.withLock { count in
                count &+= 1
                return count
            }
            if let matcher { scheduleFold(of: matcher, update: count) }
            return next
        }
    }

    /// Folds `matcher`, just installed by update number `update`, now when its changes are large, or once
    /// updates are quiet when a quiet spell should fold it.
    func scheduleFold(of matcher: VisualMatcher, update: UInt64) {
        if matcher.needsCompaction {
            compactInBackground(matcher)
        } else if let quiet = configuration.compactionQuietPeriod, matcher.foldsWhenQuiet {
            compactWhenQuiet(after: quiet, update: update)
        }
    }

    /// Compacts the current matcher once `quiet` has passed with no update after update number `update`.
    private func compactWhenQuiet(after quiet: Duration, update: UInt64) {
        let nanoseconds = Int(clamping: max(0, quiet.nanoseconds))
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            guard updateCount.withLock({ $0 == update }), let matcher = current.matcher, matcher.foldsWhenQuiet else { return }
            compactInBackground(matcher)
        }
    }

    /// Folds the matcher's added and removed references back into one segment on another thread (only the
    /// additions, when `VisualMatcher.foldWhenQuiet` says so), and makes that the current matcher if no update
    /// came in the meantime (a later update tries again); with a matcher index, a matcher folded whole is then
    /// saved to it.
    func compactInBackground(_ matcher: VisualMatcher) {
        guard compacting.withLock({ running in
            if running { return false }
            running = true
            return true
        }) else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            // Above a size, only the additions are folded: a whole fold would copy every reference.
            let compacted = matcher.foldWhenQuiet == .additions ? matcher.foldedAdditions() : matcher.compacted()
            let installed = updates.withLock { _ in
                generation.withLock { generation -> Bool in
                    guard generation.matcher === matcher else { return false }
                    generation = Generation(
                        snapshot: generation.snapshot, matcher: compacted,
                        query: VisualSearchQuery(
                            snapshot: generation.snapshot, store: store, matcher: compacted, labeler: labeler,
                            configuration: configuration.search),
                        referenceSource: generation.referenceSource, cacheProblem: generation.cacheProblem)
                    return true
                }
            }
            // A matcher still holding additions would be compacted whole by the save: it waits for a whole fold.
            if installed, !compacted.hasChanges { indexSaver?.save(compacted) }
            compacting.withLock { $0 = false }
            // An update came meanwhile and this compaction was dropped: try again once updates are quiet.
            if let quiet = configuration.compactionQuietPeriod, let matcher = current.matcher, matcher.foldsWhenQuiet {
                compactWhenQuiet(after: quiet, update: updateCount.withLock { $0 })
            }
        }
    }

    /// Every reference photo of `catalog` (of the places in `placeIDs`, when given; of those in `among`
    /// only, when given) by reference key, with its place, path and position in the catalog's order.
    static func referencePhotos(
        of catalog: Catalog, placeIDs: Set<String>?, among: Set<String>? = nil
    ) -> [String: (placeID: String, path: String, order: Int)] {
        var out: [String: (placeID: String, path: String, order: Int)] = [:]
        func add(_ place: PlaceEntity, offset: Int) {
            guard placeIDs?.contains(place.id) ?? true else { return }
            for (index, photo) in place.photos.enumerated() {
                // Places rarely have more than a few views: offset-major order is the catalog's order.
                out[Catalog.referenceKey(placeID: place.id, photoPath: photo.path)] = (place.id, photo.path, offset << 16 | index)
            }
        }
        if let among {
            for id in among {
                if let offset = catalog.placeOffset(id: id) { add(catalog.places[offset], offset: offset) }
            }
        } else {
            out.reserveCapacity(catalog.places.count)
            for (offset, place) in catalog.places.enumerated() { add(place, offset: offset) }
        }
        return out
    }
}
