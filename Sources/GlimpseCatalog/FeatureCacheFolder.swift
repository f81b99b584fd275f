public import Foundation

extension Catalog {
    /// How long a catalog's feature cache stays in the shared cache folder after it was last used.
    public static let featureCacheRetention: Duration = .seconds(30 * 24 * 3600)

    /// Keeps the shared feature-cache folder from filling with the caches of catalogs that are gone.
    ///
    /// Marks the cache at `path` as used now (when it exists), then removes from its folder every other
    /// catalog feature cache (`features-*.glfeat`, and such files' leftover temporary files) not used
    /// for `retention`. Nothing else in the folder is touched. Failures are ignored: a cache is never
    /// worth failing a start for, and a removed cache is only rebuilt.
    ///
    /// - Returns: the paths removed.
    @discardableResult
    public static func tidyFeatureCacheFolder(
        keeping path: String, retention: Duration = featureCacheRetention, now: Date = Date()
    ) -> [String] {
        let files = FileManager.default
        if files.fileExists(atPath: path) {
            try? files.setAttributes([.modificationDate: now], ofItemAtPath: path)
        }
        let folder = (path as NSString).deletingLastPathComponent
        let kept = (path as NSString).lastPathComponent
        guard let names = try? files.contentsOfDirectory(atPath: folder) else { return [] }
        let cutoff = now.addingTimeInterval(-TimeInterval(retention.components.seconds))
        var removed: [String] = []
        for name in names where name != kept && isFeatureCacheFileName(name) {
            let candidate = folder + "/" + name
            guard let attributes = try? files.attributesOfItem(atPath: candidate),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let modified = attributes[.modificationDate] as? Date, modified < cutoff
            else { continue }
            if (try? files.removeItem(atPath: candidate)) != nil { removed.append(candidate) }
        }
        return removed.sorted()
    }

    /// Whether `name` is a catalog feature cache (`features-….glfeat`) or a temporary file left by
    /// an interrupted write of one (`.features-….glfeat.tmp.<pid>.<n>`).
    static func isFeatureCacheFileName(_ name: String) -> Bool {
        if name.hasPrefix("features-"), name.hasSuffix(".glfeat") { return true }
        return name.hasPrefix(".features-") && name.contains(".glfeat.tmp.")
    }
}
