/// A matcher's keypoint slot file and the check of every slot it uses.
extension VisualMatcher {
    /// The file the matcher verifies references from, when some of their keypoints live on disk
    /// (``KeypointSlots``); `nil` when every reference is held whole in memory.
    public var keypointSlots: KeypointSlots? { segments.lazy.compactMap(\.keypointSlots).first }

    /// The number of live references whose keypoints are read from ``keypointSlots``.
    public var slottedReferenceCount: Int {
        var count = 0
        for (s, segment) in segments.enumerated() where segment.keypointSlots != nil {
            for (r, slot) in segment.slotOf.enumerated() where slot >= 0 && live[segmentStarts[s] + r] { count += 1 }
        }
        return count
    }

    /// Reads every slot a live reference uses and checks it (checksum, owner, that the file holds it),
    /// as a query's verification would, recording each failure as damage (``KeypointSlots/damage``, told
    /// to its ``KeypointSlots/onDamage(_:)`` handler); returns the damage found by this pass.
    ///
    /// Damage made while no process read the file (a bit flipped on disk while the daemon was stopped) is
    /// found this way at start rather than by the first query that needs the reference. It reads one slot
    /// at a time, so its memory is one slot's; at 10⁶ references it reads the whole file (about 20 GB), so
    /// an engine runs it in the background there.
    @discardableResult
    public func scrubKeypointSlots() -> [KeypointSlotDamage] {
        var found: [KeypointSlotDamage] = []
        for (s, segment) in segments.enumerated() {
            guard let slots = segment.keypointSlots else { continue }
            for (r, slot) in segment.slotOf.enumerated() where slot >= 0 && live[segmentStarts[s] + r] {
                if !slots.check(slot: Int(slot), key: segment.keys[r]) {
                    found.append(contentsOf: slots.damage.filter { $0.slot == Int(slot) })
                }
            }
        }
        return found
    }
}
