public import GlimpseVision
import Foundation
import GlimpseCatalog
import GlimpseFiles
import Synchronization

/// What happened to a damaged keypoint slot, as ``EngineConfiguration/keypointSlotEvents`` is told.
public enum KeypointSlotEvent: Sendable, Equatable {
    /// A slot failed its checks (once per slot): its reference is verified without its keypoints until it
    /// is repaired.
    case damaged(KeypointSlotDamage)
    /// These references were re-extracted from their photos and are served whole from memory again.
    case repaired(keys: [String])
    /// The reference keyed `key` could not be re-extracted (`reason`): it stays without its keypoints
    /// until the slot file is rebuilt.
    case notRepaired(key: String, reason: String)
    /// The build could not write `count` references' keypoints to the slot file at `path` (`reason`: the
    /// first refusal, as a full disk): they are held whole in memory, and the file holds the others.
    case writesRefused(path: String, count: Int, reason: String)
}

/// The keypoint slot damage an engine found since it started, and what it repaired (``Engine/keypointSlotHealth``).
public struct KeypointSlotHealth: Sendable, Equatable {
    /// The slot file the matcher verifies from; `nil` when it has none.
    public var path: String?
    /// The slots found damaged, once each.
    public var damagedSlots: Int
    /// The references of damaged slots re-extracted from their photos and served whole from memory.
    public var repairedReferences: Int
    /// The references of damaged slots not repaired: waiting for the repair, or whose photo could not be read.
    public var unrepairedReferences: Int

    /// Why the daemon is degraded, when a slot was found damaged: `nil` otherwise. It names no path (it is
    /// served to clients); the log names the file and each slot.
    public var problem: String? {
        guard damagedSlots > 0 else { return nil }
        var sentence = "\(damagedSlots) keypoint slot\(damagedSlots == 1 ? "" : "s") failed \(damagedSlots == 1 ? "its" : "their") checks; "
            + "\(repairedReferences) reference\(repairedReferences == 1 ? " was" : "s were") re-extracted from the photos and served whole"
        if unrepairedReferences > 0 {
            sentence += ", \(unrepairedReferences) \(unrepairedReferences == 1 ? "is" : "are") verified without keypoints"
        }
        return sentence + "; the slot file keeps the damage until it is deleted (with the matcher index) and rebuilt at a start"
    }
}

/// The damage found in an engine's keypoint slots, by reference key, and the repair's state.
struct KeypointSlotRepairState: Sendable {
    var path: String?
    var damagedSlots = 0
    /// Damaged references not yet repaired (a repair under way takes them out once it is done).
    var pending: Set<String> = []
    var repaired: Set<String> = []
    /// References a repair could not re-extract, and why.
    var failed: [String: String] = [:]
    /// Whether a background repair runs, and whether damage came in since it took its keys.
    var running = false
    var again = false
}

/// Keypoint slot damage: found, logged once, counted, and repaired while the engine serves.
///
/// A slot that fails its checks (``KeypointSlots``) makes its reference lose its geometry. The engine
/// watches the slots of every matcher it installs (``watchKeypointSlots()``): each damaged slot is told to
/// ``EngineConfiguration/keypointSlotEvents`` once, counted in ``keypointSlotHealth``, and its reference is
/// re-extracted from its photo and put back into the matcher whole, in memory, the way a catalog edit adds a
/// photo (`VisualMatcher.updated(adding:removingKeys:)`). The next fold saves the repaired matcher to the
/// matcher index, where the reference no longer has a slot.
///
/// Damage is found two ways: by the query whose verification reads the slot, and by a check of every slot
/// the matcher uses when it is installed (`VisualMatcher.scrubKeypointSlots()`), which finds a bit flipped
/// while no daemon ran. Up to ``startScrubBytes`` of slots are checked, and their damage repaired, before
/// the engine serves; a larger file is checked in the background. So damage never outlives a restart
/// unseen: a start that loads an index still using a damaged slot finds it again and repairs it again.
extension Engine {
    /// The bytes of slots checked, and their damage repaired, before an engine serves (about 3,200
    /// references of the compact settings); a matcher using more is checked in the background.
    static let startScrubBytes = 64 << 20

    /// The damage found in the matcher's keypoint slots since the engine started, and what was repaired.
    public var keypointSlotHealth: KeypointSlotHealth {
        let path = current.matcher?.keypointSlots?.file.path
        return slotRepair.withLock { state in
            KeypointSlotHealth(
                path: state.path ?? path, damagedSlots: state.damagedSlots, repairedReferences: state.repaired.count,
                unrepairedReferences: state.pending.count + state.failed.count)
        }
    }

    /// Tells of the slot writes the current matcher's build could not make, has its keypoint slots report
    /// their damage to this engine, and checks every slot it uses: at once when they are at most
    /// ``startScrubBytes`` (repairing what it finds before returning), otherwise in the background.
    func watchKeypointSlots() {
        guard let matcher = current.matcher, let slots = matcher.keypointSlots else { return }
        if let refused = slots.refusedWrites {
            configuration.keypointSlotEvents?(.writesRefused(path: slots.file.path, count: refused.count, reason: refused.reason))
        }
        slots.onDamage { [weak self] damage in self?.keypointSlotDamaged(damage) }
        if matcher.slottedReferenceCount * slots.file.slotSize <= Self.startScrubBytes {
            if !matcher.scrubKeypointSlots().isEmpty { repairKeypointSlots() }
        } else {
            DispatchQueue.global(qos: .utility).async { _ = matcher.scrubKeypointSlots() }
        }
    }

    /// Records `damage`, tells of it and starts its repair.
    private func keypointSlotDamaged(_ damage: KeypointSlotDamage) {
        slotRepair.withLock { state in
            state.path = damage.path
            state.damagedSlots += 1
            if !state.repaired.contains(damage.key) && state.failed[damage.key] == nil { state.pending.insert(damage.key) }
        }
        configuration.keypointSlotEvents?(.damaged(damage))
        repairInBackground()
    }

    /// Runs ``repairKeypointSlots()`` on a utility thread until no damage is pending, one run at a time.
    private func repairInBackground() {
        let start = slotRepair.withLock { state -> Bool in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            var more = true
            while more {
                repairKeypointSlots()
                more = slotRepair.withLock { state in
                    if state.again {
                        state.again = false
                        return true
                    }
                    state.running = false
                    return false
                }
            }
        }
    }

    /// Re-extracts the references whose slots were found damaged from their photos and installs the matcher
    /// with them whole in memory, as an update does (queries running finish on the generation they started
    /// with). A key the matcher no longer has (its photo was removed since) needs nothing; a key of no catalog
    /// photo, or whose photo cannot be read, is reported and left.
    func repairKeypointSlots() {
        updates.withLock { _ in
            let keys = slotRepair.withLock { $0.pending.sorted() }
            guard !keys.isEmpty, let matcher = current.matcher else { return }
            let photos = Self.referencePhotos(of: current.catalog, placeIDs: configuration.placeIDs)
            var added: [MatcherReference] = []
            var failed: [(String, String)] = []
            for key in keys where matcher.contains(key: key) {
                guard let photo = photos[key] else {
                    failed.append((key, "it is not a photo of the catalog served (a synthetic reference)"))
                    continue
                }
                do throws(VisionError) {
                    let features = try ReferenceLoader.features(
                        ofPhotoAt: photo.path, configuration: configuration.vision, printer: matcher.printer)
                    added.append(MatcherReference(id: photo.placeID, key: key, features: features))
                } catch {
                    failed.append((key, "its photo \(photo.path) cannot be read: \(error)"))
                }
            }
            slotRepair.withLock { state in
                state.pending.subtract(keys)
                for reference in added { state.repaired.insert(reference.key) }
                for (key, reason) in failed { state.failed[key] = reason }
            }
            for (key, reason) in failed { configuration.keypointSlotEvents?(.notRepaired(key: key, reason: reason)) }
            guard !added.isEmpty else { return }
            let repaired = matcher.updated(adding: added, removingKeys: [])
            generation.withLock { generation in
                generation = Generation(
                    snapshot: generation.snapshot, matcher: repaired,
                    query: VisualSearchQuery(
                        snapshot: generation.snapshot, store: store, matcher: repaired, labeler: labeler,
                        configuration: configuration.search),
                    referenceSource: generation.referenceSource, cacheProblem: generation.cacheProblem)
            }
            let count = updateCount.withLock { count in
                count &+= 1
                return count
            }
            configuration.keypointSlotEvents?(.repaired(keys: added.map(\.key)))
            // Folded and saved as an edit is, so that the next start loads the reference whole.
            scheduleFold(of: repaired, update: count)
        }
    }
}
