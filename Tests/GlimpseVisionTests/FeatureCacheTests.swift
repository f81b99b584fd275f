import Foundation
import GlimpseFeaturePrint
import GlimpseFiles
import GlimpseTestSupport
@testable import GlimpseVision
import Testing

@Suite(.serialized) struct FeatureCacheTests {
    static let references: [(id: String, features: ImageFeatures)] = {
        [0, 1].compactMap { i in
            guard let f = try? ReferenceLoader.features(ofPhotoAt: Fixtures.photos[i]) else { return nil }
            return ("ref-\(i)", f)
        }
    }()

    static func temporaryDirectory() throws -> String {
        try TemporaryDirectory(removedOnRelease: false).path
    }

    @Test func roundTripIsExact() throws {
        let config = VisionConfiguration.default
        #expect(Self.references.count == 2)
        let bytes = FeatureCache.encode(Self.references, key: 99, configuration: config)
        let back = try FeatureCache.decode(bytes, expectedKey: 99, configuration: config)
        #expect(back.map(\.id) == Self.references.map(\.id))
        #expect(back.map(\.features) == Self.references.map(\.features))
    }

    @Test func refusesDamagedForeignAndStaleFiles() {
        let config = VisionConfiguration.default
        let bytes = FeatureCache.encode(Self.references, key: 5, configuration: config)
        func reason(_ data: [UInt8], key: UInt64 = 5, _ c: VisionConfiguration = .default) -> VisionError? {
            do { _ = try FeatureCache.decode(data, expectedKey: key, configuration: c); return nil } catch { return error }
        }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x10
        var foreign = bytes
        foreign[0] = UInt8(ascii: "X")
        var otherVersion = bytes
        otherVersion[8] = 9
        var other = config
        other.maxKeypoints = 500
        guard case .cacheCorrupt? = reason(flipped) else { Issue.record("flipped byte accepted"); return }
        guard case .cacheCorrupt? = reason(foreign) else { Issue.record("foreign magic accepted"); return }
        guard case .cacheCorrupt? = reason(Array(bytes.prefix(bytes.count - 100))) else { Issue.record("truncation accepted"); return }
        guard case .cacheCorrupt? = reason([]) else { Issue.record("empty file accepted"); return }
        // A changed version byte also breaks the checksum: refused either way, never read.
        #expect(reason(otherVersion) != nil)
        guard case .cacheStale? = reason(bytes, key: 6) else { Issue.record("other photos accepted"); return }
        guard case .cacheStale? = reason(bytes, other) else { Issue.record("other settings accepted"); return }
        #expect(reason(bytes) == nil)
    }

    @Test func loaderWritesReusesAndRebuildsTheCache() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = dir + "/a.jpg"
        try FileManager.default.copyItem(atPath: Fixtures.photos[0], toPath: photo)
        let photos = [ReferencePhoto(id: "a", path: photo)]
        let cache = dir + "/features.cache"

        let first = try ReferenceLoader.load(photos: photos, cachePath: cache)
        #expect(first.source == .extracted)
        #expect(FileManager.default.fileExists(atPath: cache))
        let second = try ReferenceLoader.load(photos: photos, cachePath: cache)
        #expect(second.source == .cache)
        #expect(second.references.map(\.features) == first.references.map(\.features))

        // The photo changes (new modification time): the cache is stale and rebuilt.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: photo)
        let third = try ReferenceLoader.load(photos: photos, cachePath: cache)
        #expect(third.source == .extracted)
        guard case .cacheStale? = third.cacheProblem else { Issue.record("stale cache not reported"); return }

        // A damaged file is refused and rewritten.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache)))
        bytes[bytes.count - 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: cache))
        let fourth = try ReferenceLoader.load(photos: photos, cachePath: cache)
        #expect(fourth.source == .extracted)
        guard case .cacheCorrupt? = fourth.cacheProblem else { Issue.record("damaged cache not reported"); return }
        #expect(try ReferenceLoader.load(photos: photos, cachePath: cache).source == .cache)
    }

    /// Made-up features, so the pinned bytes below do not depend on the photos or the extractor.
    static let madeUp: [(id: String, features: ImageFeatures)] = {
        let words = SeededStreamTests.descriptors(30, seed: 3)
        let keypoints = (0..<30).map {
            Keypoint(x: Float($0) * 1.5, y: Float($0) / 3, scale: 1.2, angle: Float($0) * 0.1, response: 7,
                     level: Int32($0 % 3))
        }
        return [("one", ImageFeatures(width: 640, height: 480, keypoints: keypoints, descriptorWords: words)),
                ("two", ImageFeatures(width: 10, height: 20, keypoints: [], descriptorWords: []))]
    }()

    @Test func fileLayoutAndChecksumAreUnchanged() {
        let bytes = FeatureCache.encode(Self.madeUp, key: 0xABCDEF, configuration: .default)
        // Format version 3: version 1's layout (1842 bytes here) plus an empty feature-print identity
        // (4 bytes) and, per reference, a print count and width of 0 (8 bytes each), as in version 2;
        // a CRC-32 trailer (4 bytes) where version 2 had FNV-1a 64 (8 bytes). The bytes hold the extraction
        // fingerprint, `v2;…` since keypoint images are reduced by area averaging and take their luma from `Luma`,
        // 8 bytes longer since it names the reference keypoint grid (`grid=16;`).
        #expect(bytes.count == 1842 + 8 + 4 + 2 * 8 - 4)
        #expect(SeededStreamTests.fingerprint(bytes.map { UInt64($0) }) == 0xd7b5_9077_3947_66eb)
        #expect(Array(bytes.suffix(8)) == [0, 0, 0, 0, 254, 26, 14, 116])
        #expect(CRC32.checksum(bytes.dropLast(4)) == 0x740E_1AFE)
    }

    /// Made-up prints of two views for reference "one" and none for "two" are not a valid set: every
    /// reference carries prints when a printer made the cache.
    static func madeUpPrints() -> [(id: String, features: ImageFeatures)] {
        let prints = (0..<2).map { view in FeaturePrint(normalizing: (0..<16).map { Float(($0 * 7 + view) % 5) + 0.5 }) }
        return Self.madeUp.map { ($0.id, $0.features.with(featurePrints: prints)) }
    }

    @Test func featurePrintsRoundTripAndNameTheirPrinter() throws {
        let config = VisionConfiguration.default
        let withPrints = Self.madeUpPrints()
        let bytes = FeatureCache.encode(withPrints, key: 7, configuration: config, printIdentity: "net-a")
        let back = try FeatureCache.decode(bytes, expectedKey: 7, configuration: config, printIdentity: "net-a")
        #expect(back.map(\.features.featurePrints.count) == [2, 2])
        for (a, b) in zip(back, withPrints) {
            for (p, q) in zip(a.features.featurePrints, b.features.featurePrints) {
                #expect(zip(p.values, q.values).allSatisfy { abs($0 - $1) < 1e-6 })
            }
        }
        // Another network makes the file stale rather than comparable.
        #expect(throws: VisionError.self) {
            try FeatureCache.decode(bytes, expectedKey: 7, configuration: config, printIdentity: "net-b")
        }
        // A matcher without a network reads it without the prints (so alternating the two does not
        // rebuild it); a printer cannot use a cache written without one.
        let bare = try FeatureCache.decode(bytes, expectedKey: 7, configuration: config)
        #expect(bare.map(\.features.featurePrints.count) == [0, 0])
        #expect(bare.map(\.features.descriptorWords) == withPrints.map(\.features.descriptorWords))
        let noPrints = FeatureCache.encode(Self.madeUp, key: 7, configuration: config)
        do {
            _ = try FeatureCache.decode(noPrints, expectedKey: 7, configuration: config, printIdentity: "net-a")
            Issue.record("a cache without prints was read by a printer")
        } catch {
            guard case .cacheStale = error else { Issue.record("expected a stale cache, got \(error)"); return }
        }
        // A file that claims a printer but lacks prints for a reference is damaged.
        let missing = FeatureCache.encode(Self.madeUp, key: 7, configuration: config, printIdentity: "net-a")
        do {
            _ = try FeatureCache.decode(missing, expectedKey: 7, configuration: config, printIdentity: "net-a")
            Issue.record("a cache without prints was accepted for a printer")
        } catch {
            guard case .cacheCorrupt = error else { Issue.record("expected a corrupt cache, got \(error)"); return }
        }
    }

    @Test func cacheOfOnePrecisionIsStaleForTheOther() throws {
        let fp32 = try CommittedModels.featurePrinter.get(), int8 = try CommittedModels.int8FeaturePrinter.get()
        #expect(fp32.featurePrintIdentity != int8.featurePrintIdentity)
        #expect(int8.featurePrintIdentity.hasSuffix(";precision=int8") && !fp32.featurePrintIdentity.contains("precision"))
        let config = VisionConfiguration.default
        #expect(FeatureCoding.key(configuration: config, printIdentity: fp32.featurePrintIdentity)
            != FeatureCoding.key(configuration: config, printIdentity: int8.featurePrintIdentity))
        for (writer, reader) in [(fp32, int8), (int8, fp32)] {
            let bytes = FeatureCache.encode(Self.madeUpPrints(), key: 7, configuration: config,
                                            printIdentity: writer.featurePrintIdentity)
            do {
                _ = try FeatureCache.decode(bytes, expectedKey: 7, configuration: config,
                                            printIdentity: reader.featurePrintIdentity)
                Issue.record("prints of \(writer.model.precision) were read by a \(reader.model.precision) printer")
            } catch {
                guard case .cacheStale = error else { Issue.record("expected a stale cache, got \(error)"); return }
            }
        }
    }

    @Test func concurrentWritersLeaveOneValidCache() async throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cache = dir + "/features.cache"
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for round in 0..<3 {
                        try FeatureCache.write(Self.madeUp, key: UInt64(writer * 3 + round), configuration: .default, path: cache)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["features.cache"])
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: cache)))
        let key = (0..<24).first { key in
            (try? FeatureCache.decode(data, expectedKey: UInt64(key), configuration: .default)) != nil
        }
        #expect(key != nil, "the cache holds no writer's complete version")
    }

    @Test func readAndWriteFailuresNameTheFile() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = dir + "/no/such/features.cache"
        let writeError = try #require(throws: VisionError.self) {
            try FeatureCache.write(Self.madeUp, key: 1, configuration: .default, path: missing)
        }
        guard case let .cacheIO(path, reason) = writeError else { Issue.record("got \(writeError)"); return }
        #expect(path == missing && reason.hasPrefix("creating the temporary file failed"))
        let readError = try #require(throws: VisionError.self) {
            try FeatureCache.read(path: missing, expectedKey: 1, configuration: .default)
        }
        guard case .cacheIO(missing, _) = readError else { Issue.record("got \(readError)"); return }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    @Test func foreignAndShortFilesAreRefusedAtTheirHead() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let foreign = dir + "/foreign.cache"
        try Data(Array("PNG and a lot more than twenty-eight bytes".utf8)).write(to: URL(fileURLWithPath: foreign))
        #expect(throws: VisionError.cacheCorrupt(path: foreign, reason: "not a Glimpse feature cache (bad magic)")) {
            try FeatureCache.read(path: foreign, expectedKey: 1, configuration: .default)
        }
        let short = dir + "/short.cache"
        try Data(Array("GLVFEAT1".utf8)).write(to: URL(fileURLWithPath: short))
        #expect(throws: VisionError.cacheCorrupt(path: short, reason: "file is too short (8 bytes)")) {
            try FeatureCache.read(path: short, expectedKey: 1, configuration: .default)
        }
        let good = dir + "/good.cache"
        try FeatureCache.write(Self.madeUp, key: 4, configuration: .default, path: good)
        #expect(try FeatureCache.read(path: good, expectedKey: 4, configuration: .default).map(\.id) == ["one", "two"])
    }

    @Test func missingPhotoIsAnError() {
        #expect(throws: VisionError.self) {
            _ = try ReferenceLoader.load(photos: [ReferencePhoto(id: "x", path: "/nonexistent/x.jpg")], cachePath: nil)
        }
    }
}
