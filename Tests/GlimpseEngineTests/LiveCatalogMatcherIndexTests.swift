import Foundation
import GlimpseCatalog
import GlimpseEngine
import GlimpseFiles
import GlimpseStore
import GlimpseStoreSQLite
import GlimpseTestSupport
import GlimpseVision
import Synchronization
import Testing

/// A live catalog on a real SQLite store with a matcher index: the first start builds and saves it, an
/// edit is saved once edits settle, a start loads it and builds nothing, edits made while no daemon saved
/// them are caught up at the next start, and a damaged file is rebuilt, never trusted.
@Suite(.serialized) struct LiveCatalogMatcherIndexTests {
    typealias Fixture = LiveCatalogTests.Fixture

    /// Every step the engine reported, in order.
    final class Steps: Sendable {
        private let steps = Mutex<[MatcherBuildProgress]>([])
        var all: [MatcherBuildProgress] { steps.withLock { $0 } }
        func record(_ step: MatcherBuildProgress) { steps.withLock { $0.append(step) } }
        func saw(_ stage: MatcherBuildProgress.Stage) -> Bool { all.contains { $0.stage == stage } }
    }

    /// A live catalog on the store at `storePath` (keypoints only), with the matcher index at `index` when
    /// given, folding edits after 50 ms of quiet.
    ///
    /// With `slots`, in the compact regime of `glimpse serve --keypoint-slots`: 640 keypoints kept per
    /// photo, in that file, 128 of them indexed in memory, 3 hash tables.
    static func open(
        storePath: String, index: String?, slots: String? = nil, steps: Steps,
        slotEvents: (@Sendable (KeypointSlotEvent) -> Void)? = nil
    ) async throws -> LiveCatalog {
        let store = try SQLiteCatalogStore.open(path: storePath, create: false)
        var configuration = Fixture.configuration("/nonexistent", quiet: .milliseconds(50))
        configuration.matcherIndex = index
        if let slots {
            configuration.keypointSlots = slots
            configuration.vision.referenceKeypointLimit = 640
            configuration.vision.indexedKeypointLimit = 128
            configuration.vision.lshTables = 3
            configuration.vision.printedShortlistTables = min(configuration.vision.printedShortlistTables, 3)
            configuration.vision.mirrorProbeTables = min(configuration.vision.mirrorProbeTables, 3)
        }
        configuration.buildProgress = { steps.record($0) }
        configuration.keypointSlotEvents = slotEvents
        return try await LiveCatalog.open(
            store: store, photoFolder: PhotoFolder(path: store.photoFolder), configuration: configuration)
    }

    /// The top place of each of the first 12 sample photos and of the edits' photos.
    static func answers(_ live: LiveCatalog) async throws -> [String?] {
        var out: [String?] = []
        for index in Array(0..<12) + [40, 41] {
            out.append(try await LiveCatalogTests.topPlace(live, try LiveCatalogTests.photo(index).picture))
        }
        return out
    }

    @Test func theIndexIsSavedLoadedAndCaughtUpWithTheStore() async throws {
        let fixture = try await Fixture.make()
        await fixture.live.close()
        let index = fixture.directory.file("matcher.index")

        // First start: built from the stored features, then saved in the background.
        var steps = Steps()
        let first = try await Self.open(storePath: fixture.storePath, index: index, steps: steps)
        #expect(first.engine.current.referenceSource == .cache && first.engine.current.cacheProblem == nil)
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the first save") { first.engine.matcherIndexSaves == 1 }
        #expect(steps.saw(.index) && steps.all.last == MatcherBuildProgress(stage: .savingIndex, done: 1, total: 1))
        let saved = try #require(AtomicFileSize.of(index))

        // An edit: folded after the quiet period, then saved again.
        _ = try await first.apply(.putPlace(
            LiveCatalogTests().place("harbour-view"),
            photos: [try LiveCatalogTests().newPhoto(first, 40, name: "photos/harbour-view.jpg")], precondition: .none))
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the save after the edit") { first.engine.matcherIndexSaves == 2 }
        #expect(try #require(AtomicFileSize.of(index)) > saved)
        let served = try await Self.answers(first)
        #expect(served[12] == "harbour-view")
        await first.close()

        // Second start: loaded, nothing extracted or indexed, nothing to catch up or save; the same answers.
        steps = Steps()
        let second = try await Self.open(storePath: fixture.storePath, index: index, steps: steps)
        #expect(second.engine.current.referenceSource == .matcherIndex)
        #expect(steps.saw(.loadingIndex) && !steps.saw(.index) && !steps.saw(.catchingUp) && !steps.saw(.references))
        #expect(second.engine.current.matcher?.hasChanges == false && second.engine.current.matcher?.referenceCount == 7)
        #expect(try await Self.answers(second) == served)
        await second.close()

        // Edits by a live catalog that saves no index (another daemon, or one stopped before it saved).
        let other = try await Self.open(storePath: fixture.storePath, index: nil, steps: Steps())
        _ = try await other.apply(.deletePlace(id: "harbour-view", precondition: .mustExist))
        let target = try #require(other.engine.catalog.places.first).id
        _ = try await other.apply(.addPhoto(
            placeID: target, photo: try LiveCatalogTests().newPhoto(other, 41, name: "photos/second-view.jpg"),
            precondition: .none))
        let expected = try await Self.answers(other)
        #expect(expected[12] == nil && expected[13] == target)
        await other.close()

        // Third start: the index is loaded and brought up to date (one photo gone, one added), then saved.
        steps = Steps()
        let third = try await Self.open(storePath: fixture.storePath, index: index, steps: steps)
        #expect(third.engine.current.referenceSource == .matcherIndex)
        #expect(steps.all.contains(MatcherBuildProgress(stage: .catchingUp, done: 2, total: 2)) && !steps.saw(.index))
        #expect(try await Self.answers(third) == expected)
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the save after catching up") { third.engine.matcherIndexSaves == 1 }
        #expect(third.engine.current.matcher?.hasChanges == false && third.engine.current.matcher?.referenceCount == 7)
        await third.close()

        // A damaged file is refused, said why, rebuilt and saved; the answers do not change.
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: index)))
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: index))
        steps = Steps()
        let fourth = try await Self.open(storePath: fixture.storePath, index: index, steps: steps)
        #expect(fourth.engine.current.referenceSource == .cache)
        let problem = try #require(fourth.engine.current.cacheProblem)
        #expect("\(problem)".contains("matcher index"), "\(problem)")
        #expect(steps.saw(.index))
        #expect(try await Self.answers(fourth) == expected)
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the save of the rebuilt index") { fourth.engine.matcherIndexSaves == 1 }
        await fourth.close()
        steps = Steps()
        let fifth = try await Self.open(storePath: fixture.storePath, index: index, steps: steps)
        #expect(fifth.engine.current.referenceSource == .matcherIndex && !steps.saw(.index))
        await fifth.close()
    }
}

extension LiveCatalogMatcherIndexTests {
    /// The inode and modification time of each of `paths`: unchanged when a start only read them.
    static func identities(_ paths: [String]) throws -> [String] {
        try paths.map { path in
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            return "\(attributes[.systemFileNumber] ?? "-")/\(attributes[.modificationDate] ?? "-")"
        }
    }

    @Test func withKeypointSlotsAStartLoadsTheIndexAndTheSlotsAndAnswersAsFromMemory() async throws {
        let fixture = try await Fixture.make()
        let fromMemory = try await Self.answers(fixture.live)
        await fixture.live.close()
        let index = fixture.directory.file("matcher.index")
        let slots = fixture.directory.file("keypoints.slots")

        // First start: built a batch at a time from the stored features, keypoints written to the slots.
        var steps = Steps()
        let first = try await Self.open(storePath: fixture.storePath, index: index, slots: slots, steps: steps)
        #expect(first.engine.current.referenceSource == .cache && first.engine.current.cacheProblem == nil)
        #expect(steps.all.contains(MatcherBuildProgress(stage: .references, done: 6, total: 6)))
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the first save") { first.engine.matcherIndexSaves == 1 }
        #expect(FileManager.default.fileExists(atPath: slots))
        // Verified from the slots, the catalog's places are found as from memory.
        #expect(try await Self.answers(first) == fromMemory)

        // An edit is found by the next query, then folded and saved.
        _ = try await first.apply(.putPlace(
            LiveCatalogTests().place("harbour-view"),
            photos: [try LiveCatalogTests().newPhoto(first, 40, name: "photos/harbour-view.jpg")], precondition: .none))
        let served = try await Self.answers(first)
        #expect(served[12] == "harbour-view")
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the save after the edit") { first.engine.matcherIndexSaves == 2 }
        await first.close()
        let written = try Self.identities([index, slots])

        // Second start: both files loaded, nothing extracted, indexed or written; the same answers.
        steps = Steps()
        let second = try await Self.open(storePath: fixture.storePath, index: index, slots: slots, steps: steps)
        #expect(second.engine.current.referenceSource == .matcherIndex)
        #expect(steps.saw(.loadingIndex) && !steps.saw(.index) && !steps.saw(.catchingUp) && !steps.saw(.references))
        #expect(try await Self.answers(second) == served)
        await second.close()
        #expect(try Self.identities([index, slots]) == written)

        // Slots the index was not built with (another build's file) are never trusted: the start rebuilds both.
        try FileManager.default.removeItem(atPath: slots)
        _ = try await Self.open(storePath: fixture.storePath, index: nil, slots: slots, steps: Steps()).close()
        steps = Steps()
        let third = try await Self.open(storePath: fixture.storePath, index: index, slots: slots, steps: steps)
        #expect(third.engine.current.referenceSource == .cache && steps.saw(.index))
        #expect(try await Self.answers(third) == served)
        await third.close()
    }

    /// The inliers of the place accepted for each of the first 12 sample photos (`nil`: none accepted).
    static func inliers(_ live: LiveCatalog) throws -> [Int?] {
        let matcher = try #require(live.engine.current.matcher)
        return try (0..<12).map { try matcher.match(LiveCatalogTests.photo($0).picture).accepted?.inliers }
    }

    @Test func aSlotDamagedWhileNoDaemonRanIsFoundAtStartRepairedAndSavedWhole() async throws {
        let fixture = try await Fixture.make()
        await fixture.live.close()
        let index = fixture.directory.file("matcher.index")
        let slots = fixture.directory.file("keypoints.slots")
        let first = try await Self.open(storePath: fixture.storePath, index: index, slots: slots, steps: Steps())
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the first save") { first.engine.matcherIndexSaves == 1 }
        let whole = try Self.inliers(first)
        #expect(whole.contains { ($0 ?? 0) > 0 } && first.engine.keypointSlotHealth.damagedSlots == 0)
        await first.close()

        // One bit of slot 0's keypoints flipped while no daemon runs.
        let handle = try #require(FileHandle(forUpdatingAtPath: slots))
        let offset = UInt64(4096 + SlotFile.slotHeaderSize + 9)
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0x10])
        try handle.close()

        // The start finds it before it serves, tells of it once and re-extracts the photo: every photo is
        // verified with its inliers as before the damage.
        let events = Mutex<[KeypointSlotEvent]>([])
        let second = try await Self.open(
            storePath: fixture.storePath, index: index, slots: slots, steps: Steps(),
            slotEvents: { event in events.withLock { $0.append(event) } })
        let health = second.engine.keypointSlotHealth
        #expect(health.damagedSlots == 1 && health.repairedReferences == 1 && health.unrepairedReferences == 0)
        #expect(health.path == slots && health.problem?.hasPrefix("1 keypoint slot failed its checks; 1 reference was") == true)
        let told = events.withLock { $0 }
        #expect(told.count == 2, "\(told)")
        guard case .damaged(let damage)? = told.first, case .repaired(let keys)? = told.last else {
            Issue.record("not told of the damage, then of the repair: \(told)")
            return
        }
        #expect(damage.slot == 0 && damage.path == slots && keys == [damage.key])
        #expect(try Self.inliers(second) == whole)
        // The repaired matcher is folded and saved: the next start reads no damaged slot.
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "the save after the repair") {
            second.engine.matcherIndexSaves == 1
        }
        await second.close()
        let third = try await Self.open(storePath: fixture.storePath, index: index, slots: slots, steps: Steps())
        #expect(third.engine.current.referenceSource == .matcherIndex)
        #expect(third.engine.keypointSlotHealth.damagedSlots == 0)
        #expect(try Self.inliers(third) == whole)
        await third.close()
    }
}

/// The size of a file, or `nil` when it does not exist.
enum AtomicFileSize {
    static func of(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }
}
