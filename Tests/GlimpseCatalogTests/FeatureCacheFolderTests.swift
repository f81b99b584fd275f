import Foundation
import Testing
@testable import GlimpseCatalog

/// The shared feature-cache folder tidies itself: caches of catalogs unused for the retention period
/// go, everything else stays.
@Suite("Feature cache folder")
struct FeatureCacheFolderTests {
    @Test func removesOnlyOtherCatalogsCachesUnusedForTheRetentionPeriod() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-cache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let day: TimeInterval = 24 * 3600
        let files: [(name: String, age: TimeInterval)] = [
            ("features-Images-0000000000000001.glfeat", 90 * day),  // the one in use, long untouched
            ("features-Old-0000000000000002.glfeat", 31 * day),  // gone
            ("features-Recent-0000000000000003.glfeat", 29 * day),  // kept
            (".features-Old-0000000000000002.glfeat.tmp.123.0", 40 * day),  // an interrupted write: gone
            (".features-New-0000000000000004.glfeat.tmp.456.0", 1 * day),  // perhaps being written: kept
            ("notes.txt", 400 * day),  // not ours: kept
            ("features-Images.json", 400 * day),  // not a cache: kept
        ]
        for file in files {
            let path = folder + "/" + file.name
            try Data("x".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-file.age)], ofItemAtPath: path)
        }
        try FileManager.default.createDirectory(atPath: folder + "/features-Dir-0000000000000005.glfeat",
                                                withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-100 * day)],
                                              ofItemAtPath: folder + "/features-Dir-0000000000000005.glfeat")

        let inUse = folder + "/features-Images-0000000000000001.glfeat"
        let removed = Catalog.tidyFeatureCacheFolder(keeping: inUse, now: now)

        #expect(removed == [
            folder + "/.features-Old-0000000000000002.glfeat.tmp.123.0",
            folder + "/features-Old-0000000000000002.glfeat",
        ])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == [
            ".features-New-0000000000000004.glfeat.tmp.456.0", "features-Dir-0000000000000005.glfeat",
            "features-Images-0000000000000001.glfeat", "features-Images.json", "features-Recent-0000000000000003.glfeat",
            "notes.txt",
        ])
        let touched = try FileManager.default.attributesOfItem(atPath: inUse)[.modificationDate] as? Date
        #expect(touched == now, "the cache in use is marked used")
        // Marked used, it survives a tidy 29 days later and goes after 31 (from another catalog's start).
        let other = folder + "/features-Recent-0000000000000003.glfeat"
        #expect(Catalog.tidyFeatureCacheFolder(keeping: other, now: now.addingTimeInterval(29 * day)).isEmpty)
        #expect(FileManager.default.fileExists(atPath: inUse))
        #expect(Catalog.tidyFeatureCacheFolder(keeping: other, now: now.addingTimeInterval(31 * day)).contains(inUse))
    }

    @Test func aMissingFolderOrCacheIsNoError() {
        #expect(Catalog.tidyFeatureCacheFolder(keeping: "/nonexistent-glimpse-folder/features-A-1.glfeat").isEmpty)
    }
}
