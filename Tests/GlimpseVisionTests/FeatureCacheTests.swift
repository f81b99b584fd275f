import Foundation
import Testing
@testable import GlimpseVision

@Suite(.serialized) struct FeatureCacheTests {
    static let references: [(id: String, features: ImageFeatures)] = {
        [0, 1].compactMap { i in
            guard let f = try? ReferenceLoader.features(ofPhotoAt: Fixtures.photos[i]) else { return nil }
            return ("ref-\(i)", f)
        }
    }()

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "glimpse-vision-tests-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
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

    @Test func missingPhotoIsAnError() {
        #expect(throws: VisionError.self) {
            _ = try ReferenceLoader.load(photos: [ReferencePhoto(id: "x", path: "/nonexistent/x.jpg")], cachePath: nil)
        }
    }
}
