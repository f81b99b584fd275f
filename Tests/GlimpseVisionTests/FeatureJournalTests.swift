import Foundation
import GlimpseTestSupport
@testable import GlimpseVision
import Synchronization
import Testing

/// The build journal of the feature cache: what an interrupted extraction leaves, and how the next build
/// resumes from it.
@Suite(.serialized) struct FeatureJournalTests {
    static let key = FeatureCoding.key(configuration: .default, printIdentity: nil)

    /// Two photos' features and made-up stamps for them.
    static let entries: [(stamp: PhotoStamp, features: ImageFeatures)] = {
        FeatureCacheTests.references.enumerated().map { n, reference in
            (PhotoStamp(id: reference.id, path: "/photos/\(n).jpg", size: 1000 + UInt64(n), seconds: 1_700_000_000, nanoseconds: Int64(n)),
             reference.features)
        }
    }()

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func whatWasAppendedIsKeptAndATornTailIsDroppedThenOverwritten() throws {
        #expect(Self.entries.count == 2)
        let folder = try TemporaryDirectory()
        let path = folder.file("features.cache.journal")
        do {
            let journal = try FeatureJournal.open(path: path, key: Self.key)
            #expect(journal.recovered.features.isEmpty && journal.recovered.problem == nil)
            try journal.append([Self.entries[0]])
            try journal.append([Self.entries[1]])
        }
        let whole = try Self.bytes(path)
        #expect(try FeatureJournal.open(path: path, key: Self.key).recovered.features.count == 2)
        // A kill in the middle of the second record's write leaves part of it.
        let firstRecordEnd = Self.headerAndFirstRecord(whole)
        try Data(whole.prefix(firstRecordEnd + 40)).write(to: URL(fileURLWithPath: path))
        do {
            let journal = try FeatureJournal.open(path: path, key: Self.key)
            #expect(journal.recovered.features == [Self.entries[0].stamp: Self.entries[0].features])
            guard case .cacheCorrupt? = journal.recovered.problem else { Issue.record("the torn record was not reported"); return }
            #expect(try Self.bytes(path).count == firstRecordEnd)  // trimmed back to the last whole record
            try journal.append([Self.entries[1]])
        }
        let again = try FeatureJournal.open(path: path, key: Self.key).recovered
        #expect(again.problem == nil)
        #expect(again.features.count == 2)
        #expect(again.features[Self.entries[1].stamp] == Self.entries[1].features)
        #expect(try Self.bytes(path) == whole)
        folder.remove()
    }

    @Test func aDamagedRecordEndsTheJournalAndOtherSettingsEmptyIt() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("j")
        try FeatureJournal.open(path: path, key: Self.key).append(Self.entries)
        var damaged = try Self.bytes(path)
        damaged[damaged.count - 100] ^= 0x04  // inside the second record
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        let kept = try FeatureJournal.open(path: path, key: Self.key).recovered
        #expect(Array(kept.features.keys) == [Self.entries[0].stamp])
        #expect(kept.problem != nil)
        var other = VisionConfiguration.default
        other.maxKeypoints = 300
        let otherKey = FeatureCoding.key(configuration: other, printIdentity: nil)
        let recovered = try FeatureJournal.open(path: path, key: otherKey).recovered
        #expect(recovered.features.isEmpty)
        guard case .cacheStale? = recovered.problem else { Issue.record("a journal of other settings was not reported"); return }
        #expect(try Self.bytes(path).count == FeatureJournal.magic.count + 4 + 4 + otherKey.utf8.count + 4)  // a new header alone
        folder.remove()
    }

    @Test func aSecondBuildDoesWithoutTheJournalWhileTheFirstWritesIt() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("j")
        var held: FeatureJournal? = try FeatureJournal.open(path: path, key: Self.key)
        #expect(held != nil)
        #expect(throws: VisionError.cacheIO(path: path, reason: FeatureJournal.heldElsewhere)) {
            _ = try FeatureJournal.open(path: path, key: Self.key)
        }
        held = nil
        #expect(throws: Never.self) { _ = try FeatureJournal.open(path: path, key: Self.key) }
        folder.remove()
    }

    /// A build stopped by a photo it cannot decode keeps what it extracted; once the photo is fixed, the next
    /// build extracts only that photo, gives the features a whole build gives, writes the cache and
    /// removes the journal.
    @Test func anInterruptedBuildResumesWithoutExtractingAgain() throws {
        let folder = try TemporaryDirectory()
        var photos: [ReferencePhoto] = []
        for n in 0..<11 {
            let path = folder.file("photos/\(n).jpg")
            if n == 9 {
                try folder.write("photos/\(n).jpg", Array("not a picture".utf8))
            } else {
                try folder.write("photos/\(n).jpg", try Self.bytes(Fixtures.photos[n]))
            }
            photos.append(ReferencePhoto(id: "place-\(n % 4)", path: path))
        }
        let cache = folder.file("features.cache")
        let journal = FeatureJournal.path(forCache: cache)
        #expect(throws: VisionError.self) { _ = try ReferenceLoader.load(photos: photos, cachePath: cache, threads: 1) }
        #expect(!FileManager.default.fileExists(atPath: cache))
        #expect(FileManager.default.fileExists(atPath: journal))

        try folder.write("photos/9.jpg", try Self.bytes(Fixtures.photos[9]))
        let reports = Mutex<[ReferenceLoader.Progress]>([])
        let resumed = try ReferenceLoader.load(photos: photos, cachePath: cache, threads: 1) { step in
            reports.withLock { $0.append(step) }
        }
        let steps = reports.withLock { $0 }
        // The first batch of 8 and the two good photos of the second were kept; only the fixed one was made.
        #expect(steps.first == ReferenceLoader.Progress(done: 10, total: 11, kept: 10))
        #expect(steps.last == ReferenceLoader.Progress(done: 11, total: 11, kept: 10))
        #expect(resumed.source == .extracted)
        #expect(FileManager.default.fileExists(atPath: cache))
        #expect(!FileManager.default.fileExists(atPath: journal))

        let whole = try ReferenceLoader.load(photos: photos, threads: 2)
        #expect(resumed.references.map(\.id) == whole.references.map(\.id))
        #expect(resumed.references.map(\.features) == whole.references.map(\.features))
        let cached = try ReferenceLoader.load(photos: photos, cachePath: cache, threads: 1)
        #expect(cached.source == .cache)
        folder.remove()
    }

    /// Where the first record of a journal's `bytes` ends.
    static func headerAndFirstRecord(_ bytes: [UInt8]) -> Int {
        let header = FeatureJournal.magic.count + 4 + 4 + key.utf8.count + 4
        let length = bytes[header..<(header + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
        return header + 8 + length
    }
}
