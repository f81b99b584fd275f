/// A reference as a matcher takes it when it is built or updated: the id it is reported under (a
/// place's several photos share one), a key naming this reference alone, and its features.
public struct MatcherReference: Sendable {
    /// The id matches are reported under; references sharing it form one group.
    public let id: String
    /// Unique among the matcher's references: what ``VisualMatcher/updated(adding:removingKeys:)`` removes by.
    public let key: String
    /// Its features, extracted with the matcher's settings.
    public let features: ImageFeatures

    /// Creates a reference.
    public init(id: String, key: String, features: ImageFeatures) {
        self.id = id
        self.key = key
        self.features = features
    }
}

/// Catalog edits while the matcher serves. A matcher is immutable, so an update returns a new one that
/// shares the unchanged storage: the large segment built at load stays as it is, added references go
/// into a small second segment keyed by the first one's bits (rebuilt on each update, at a cost that
/// grows with that segment alone), and removed references are muted in place. ``compacted()`` folds
/// everything back into one segment; ``needsCompaction`` says when that is worth its cost.
extension VisualMatcher {
    /// This matcher with `added` references and without the references whose keys are in `removed`.
    ///
    /// An added reference whose key the matcher already holds replaces it. Queries running on this
    /// matcher are not affected; the new matcher answers as one built from scratch over the same
    /// references would, but for the shortlist index's key length in the added segment.
    public func updated(adding added: [MatcherReference], removingKeys removed: Set<String>) -> VisualMatcher {
        var live = self.live
        var keyIndex = self.keyIndex
        var groupIDs = self.groupIDs
        var groupIndex = self.groupIndex
        let replaced = Set(added.map(\.key))
        for key in removed.union(replaced) {
            if let reference = keyIndex.removeValue(forKey: key) { live[reference] = false }
        }
        var fresh: [SegmentReference] = []
        var freshKeys = Set<String>()
        for reference in added where freshKeys.insert(reference.key).inserted {
            let group: Int
            if let known = groupIndex[reference.id] { group = known } else {
                group = groupIDs.count
                groupIndex[reference.id] = group
                groupIDs.append(reference.id)
            }
            fresh.append(SegmentReference(group: Int32(group), key: reference.key, features: reference.features))
        }
        guard let base = segments.first else {
            return VisualMatcher(
                keyedReferences: added, configuration: configuration, printer: printer, nullPrints: nullPrints)
        }
        // The segments after the settled ones are rebuilt into one: their live references, then the new ones.
        let addedSegment = ReferenceSegment(
            references: fresh, printDimension: printDimension, configuration: configuration, keyedLike: base.lsh)
        let settled = min(settledSegments, segments.count)
        let (kept, delta) = rebuildingTail(from: settled, appending: addedSegment, live: live, keyIndex: &keyIndex)
        // The catalog changed, so where photos of nothing land may have: the previous line stays in force
        // while it is measured again in the background.
        let next = VisualMatcher(
            configuration: configuration, printer: printer, printDimension: printDimension,
            segments: delta.count > 0 ? Array(segments.prefix(settled)) + [delta] : Array(segments.prefix(settled)),
            live: kept, groupIDs: groupIDs, groupIndex: groupIndex, keyIndex: keyIndex, nullPrints: nullPrints,
            calibration: PrintCalibrationState(printCalibration), recalibrations: recalibrations, settledSegments: settled)
        next.recalibrateInBackground()
        return next
    }

    /// The segments from `first` on (and `appended`, when given) merged into one segment keyed like the first
    /// segment, with their removed references dropped; and the references' liveness up to it followed by
    /// the merged segment's. `keyIndex` is pointed at the merged references' new numbers.
    private func rebuildingTail(
        from first: Int, appending appended: ReferenceSegment?, live: [Bool], keyIndex: inout LayeredIndex
    ) -> (live: [Bool], merged: ReferenceSegment) {
        let tail = Array(segments.dropFirst(first)) + (appended.map { [$0] } ?? [])
        let tailStart = segmentStarts[first]
        let tailOffsets = tail.indices.map { index in first + index < segments.count ? segmentStarts[first + index] : -1 }
        let merged = ReferenceSegment(
            merging: tail, configuration: configuration,
            keep: { s, r in tailOffsets[s] < 0 || live[tailOffsets[s] + r] },
            group: { s, r in tail[s].groups[r] }, printDimension: printDimension, keyedLike: segments[0].lsh)
        var kept = Array(live[0..<tailStart])
        kept.append(contentsOf: repeatElement(true, count: merged.count))
        for (r, key) in merged.keys.enumerated() { keyIndex[key] = tailStart + r }
        return (kept, merged)
    }

    /// How a quiet spell of edits folds this matcher (see ``foldWhenQuiet``).
    public enum Fold: Sendable, Equatable {
        /// Everything into one segment (``compacted()``).
        case whole
        /// The segments added since the matcher was built or compacted into one beside the first
        /// (``foldedAdditions()``): what an edit rebuilds is then small again, at a cost that grows with the
        /// additions alone.
        case additions
    }

    /// The matcher with every segment added since it was built or compacted merged into one, keyed like the
    /// first segment, and removed references of those segments dropped (those of the first stay muted): later
    /// edits rebuild only what is added after this. Costs the additions, not the catalog.
    public func foldedAdditions() -> VisualMatcher {
        guard segments.count > 1 else { return self }
        var keyIndex = self.keyIndex
        let (kept, merged) = rebuildingTail(from: 1, appending: nil, live: live, keyIndex: &keyIndex)
        let next = VisualMatcher(
            configuration: configuration, printer: printer, printDimension: printDimension,
            segments: merged.count > 0 ? [segments[0], merged] : [segments[0]], live: kept, groupIDs: groupIDs,
            groupIndex: groupIndex, keyIndex: keyIndex, nullPrints: nullPrints,
            calibration: PrintCalibrationState(printCalibration), recalibrations: recalibrations,
            settledSegments: merged.count > 0 ? 2 : 1)
        next.recalibrateInBackground()
        return next
    }

    /// Whether folding the added segment and the removed references back into one segment is worth
    /// its cost: when the added segment holds more than an eighth of the references, or removed
    /// references more than a quarter of the slots (and in either case more than 256).
    public var needsCompaction: Bool {
        let added = segments.dropFirst().reduce(0) { $0 + $1.count }
        let removed = slotCount - referenceCount
        return (added > 256 && added * 8 > slotCount) || (removed > 256 && removed * 4 > slotCount)
    }

    /// Up to this many reference slots, a matcher is worth folding into one segment after every quiet spell
    /// of edits (see ``foldsWhenQuiet``).
    public static let quietFoldLimit = 50_000
    /// Above ``quietFoldLimit``, the additions are folded once the segment each edit rebuilds indexes this
    /// many descriptors (about 64 references of the default settings, 512 indexing 128 keypoints each): this
    /// bounds what an edit costs, to tens of milliseconds.
    public static let addedFoldDescriptors = 65_536

    /// How a quiet spell of edits should fold this matcher, or `nil` when it should not: whole for a matcher
    /// of up to ``quietFoldLimit`` references, or when ``needsCompaction`` says so; above that, only the
    /// additions, once what each edit rebuilds indexes ``addedFoldDescriptors`` descriptors. A whole fold
    /// copies and indexes every reference again (at 10⁶, minutes of a core and, for that while, twice the
    /// memory); folding the additions costs the additions alone.
    public var foldWhenQuiet: Fold? {
        guard hasChanges else { return nil }
        if slotCount <= Self.quietFoldLimit || needsCompaction { return .whole }
        let rebuilt = segments.dropFirst(settledSegments).reduce(0) { $0 + $1.lsh.count }
        return rebuilt >= Self.addedFoldDescriptors ? .additions : nil
    }

    /// Whether a quiet spell of edits should fold this matcher (``foldWhenQuiet``).
    public var foldsWhenQuiet: Bool { foldWhenQuiet != nil }

    /// The same references in one segment with a freshly chosen index, removed references dropped and
    /// groups without references forgotten. Costs about as much as building the matcher anew from
    /// features, without extracting them.
    public func compacted() -> VisualMatcher {
        var groupMap = [Int32](repeating: -1, count: groupIDs.count)
        var groupIDs: [String] = []
        var groupIndex: [String: Int] = [:]
        for reference in 0..<slotCount where live[reference] {
            let (s, r) = locate(reference)
            let old = Int(segments[s].groups[r])
            if groupMap[old] < 0 {
                groupMap[old] = Int32(groupIDs.count)
                groupIndex[self.groupIDs[old]] = groupIDs.count
                groupIDs.append(self.groupIDs[old])
            }
        }
        let segmentStarts = self.segmentStarts, live = self.live, segments = self.segments
        let merged = ReferenceSegment(
            merging: segments, configuration: configuration, keep: { s, r in live[segmentStarts[s] + r] },
            group: { s, r in groupMap[Int(segments[s].groups[r])] }, printDimension: printDimension)
        var keyIndex: [String: Int] = [:]
        keyIndex.reserveCapacity(merged.count)
        for (r, key) in merged.keys.enumerated() { keyIndex[key] = r }
        let next = VisualMatcher(
            configuration: configuration, printer: printer, printDimension: printDimension, segments: [merged],
            live: Array(repeating: true, count: merged.count), groupIDs: LayeredNames(groupIDs),
            groupIndex: LayeredIndex(groupIndex), keyIndex: LayeredIndex(keyIndex), nullPrints: nullPrints,
            calibration: PrintCalibrationState(printCalibration), recalibrations: recalibrations)
        // The same references, but a recalibration of the matcher compacted may still have been under way.
        next.recalibrateInBackground()
        return next
    }

    /// Whether the matcher holds a reference with this key.
    public func contains(key: String) -> Bool { keyIndex[key] != nil }

    /// The key of every reference that counts, in no particular order: what a matcher loaded from an index
    /// is compared with to bring it up to date with the catalog.
    public var referenceKeys: [String] { keyIndex.keys }

    /// Whether references were added or removed since the matcher was built or compacted (a query then
    /// looks up a second segment, or skips removed references).
    public var hasChanges: Bool { segments.count > 1 || slotCount > referenceCount }

    /// The number of segments (1 after building or compacting, 2 once references were added).
    public var segmentCount: Int { segments.count }
}
