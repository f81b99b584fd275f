import Foundation
import GlimpseVision
import Testing
@testable import GlimpseCatalog

/// The catalog matcher's feature cache: used when it fits the photos, rebuilt when it does not, never
/// a reason to fail.
@Suite("Feature cache of the catalog matcher")
struct CatalogFeatureCacheTests {
    /// The places registered (a subset keeps debug-build tests fast); their photos are copied, the
    /// others linked.
    static let registered: Set<String> = ["eiffel-tower", "chichen-itza", "fallen-maple-leaf"]
    /// A whole-second modification time, so a rewritten photo can be given exactly the same one.
    static let fixedDate = Date(timeIntervalSince1970: 1_700_000_000)

    /// A copy of the sample catalog whose registered photos are real files of its own.
    struct CopiedCatalog {
        let folder: URL
        let catalog: Catalog

        init() throws {
            folder = try Fixtures.temporaryDirectory()
            let photos = folder.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            for place in Fixtures.catalog.places {
                let target = photos.appendingPathComponent(URL(fileURLWithPath: place.photoPath).lastPathComponent)
                if CatalogFeatureCacheTests.registered.contains(place.id) {
                    try FileManager.default.copyItem(atPath: place.photoPath, toPath: target.path)
                    try FileManager.default.setAttributes([.modificationDate: CatalogFeatureCacheTests.fixedDate],
                                                          ofItemAtPath: target.path)
                } else {
                    try FileManager.default.createSymbolicLink(at: target, withDestinationURL: URL(fileURLWithPath: place.photoPath))
                }
            }
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: Fixtures.imagesDirectory).appendingPathComponent("catalog.json"),
                to: folder.appendingPathComponent("catalog.json"))
            catalog = try Catalog.load(directory: folder.path)
        }

        var cachePath: String { folder.appendingPathComponent("cache/features.glfeat").path }

        func photoPath(_ id: String) throws -> String { try #require(catalog.place(id: id)).photoPath }

        func build(cache: String?) async throws -> VisualMatcher {
            try await catalog.makeVisualMatcher(placeIDs: CatalogFeatureCacheTests.registered, featureCache: cache)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("a second build reads the cache and decodes no photo")
    func cacheIsUsed() async throws {
        let copy = try CopiedCatalog()
        defer { copy.remove() }
        let first = try await copy.build(cache: copy.cachePath)
        #expect(first.referenceCount == 3)
        #expect(FileManager.default.fileExists(atPath: copy.cachePath))  // its folder was created

        // Spoil a photo without changing its size or modification time: only a build that reads the
        // cache can still succeed.
        let photo = try copy.photoPath("chichen-itza")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: photo)[.size] as? Int)
        try Data(repeating: 0, count: size).write(to: URL(fileURLWithPath: photo))
        try FileManager.default.setAttributes([.modificationDate: Self.fixedDate], ofItemAtPath: photo)

        let cached = try await copy.build(cache: copy.cachePath)
        #expect(cached.referenceCount == 3)
        #expect(cached.referenceIDs == first.referenceIDs)
        do {
            _ = try await copy.build(cache: nil)
            Issue.record("a spoiled photo was extracted")
        } catch {
            guard case .undecodablePhoto(let placeID, let path, _) = error as? CatalogError else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(placeID == "chichen-itza" && path == photo)
        }
    }

    @Test("a changed photo or a damaged file is rebuilt from the photos")
    func staleAndDamagedCachesAreRebuilt() async throws {
        let copy = try CopiedCatalog()
        defer { copy.remove() }
        _ = try await copy.build(cache: copy.cachePath)
        let original = try Data(contentsOf: URL(fileURLWithPath: copy.cachePath))

        // A photo touched: the key changes, so the features are extracted again and the file rewritten.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_100)],
                                              ofItemAtPath: try copy.photoPath("eiffel-tower"))
        _ = try await copy.build(cache: copy.cachePath)
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: copy.cachePath))
        #expect(rewritten != original)
        #expect(rewritten.count == original.count)  // same features, another key

        // A damaged file: rebuilt and replaced by one that reads back.
        var damaged = rewritten
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: copy.cachePath))
        let rebuilt = try await copy.build(cache: copy.cachePath)
        #expect(rebuilt.referenceCount == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy.cachePath)) == rewritten)
    }

    @Test("a cache that cannot be written does not stop the build")
    func unwritableCache() async throws {
        let copy = try CopiedCatalog()
        defer { copy.remove() }
        let blocker = copy.folder.appendingPathComponent("not-a-folder")
        try Data("file".utf8).write(to: blocker)
        let matcher = try await copy.build(cache: blocker.path + "/features.glfeat")
        #expect(matcher.referenceCount == 3)
    }

    @Test("the default cache file: GLIMPSE_CACHE_DIR, then XDG_CACHE_HOME, then HOME; one name per folder")
    func defaultPath() throws {
        let all = ["GLIMPSE_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"]
        let chosen = try #require(Catalog.defaultFeatureCachePath(forDirectory: "/srv/my photos", environment: all))
        #expect(chosen.hasPrefix("/c/features-my_photos-") && chosen.hasSuffix(".glfeat"))
        let xdg = try #require(Catalog.defaultFeatureCachePath(
            forDirectory: "/srv/my photos", environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]))
        #expect(xdg.hasPrefix("/x/glimpse/features-my_photos-"))
        let home = try #require(Catalog.defaultFeatureCachePath(forDirectory: "/srv/my photos", environment: ["HOME": "/h"]))
        #expect(home.hasPrefix("/h/.cache/glimpse/features-my_photos-"))
        #expect(Catalog.defaultFeatureCachePath(forDirectory: "/srv/a", environment: [:]) == nil)
        // The same folder, however it is written, gets one file; another folder of the same name another.
        #expect(Catalog.defaultFeatureCachePath(forDirectory: "/srv/a/../b", environment: ["HOME": "/h"])
            == Catalog.defaultFeatureCachePath(forDirectory: "/srv/b", environment: ["HOME": "/h"]))
        #expect(Catalog.defaultFeatureCachePath(forDirectory: "/srv/b", environment: ["HOME": "/h"])
            != Catalog.defaultFeatureCachePath(forDirectory: "/home/b", environment: ["HOME": "/h"]))
    }
}
