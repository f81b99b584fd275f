import GlimpseBatch
import GlimpseCatalog
import GlimpseEngine

/// Helpers shared by the `glimpse bench` modes.
public enum BenchOptions {
    /// Parses a duration such as `30s`, `500ms`, `2m` or `1.5s`; `nil` when malformed or not positive.
    public static func parseDuration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value > 0, value.isFinite else { return nil }
            return .milliseconds(Int64((value * scale * 1_000).rounded()))
        }
        return nil
    }

    /// The pictures to query with: every picture in `folder` (sorted), or the catalog's reference
    /// photos when `folder` is `nil`. Files that cannot be read are left out.
    ///
    /// - Throws: ``BatchError`` when the folder is missing or holds no readable picture, or
    ///   ``EngineError`` when the catalog cannot be loaded.
    public static func loadPictures(folder: String?, catalog: String) throws -> [(path: String, bytes: [UInt8])] {
        let paths: [String]
        if let folder {
            paths = try ImageWalker(root: folder).map(\.path)
        } else {
            do throws(CatalogError) {
                paths = try Catalog.load(directory: catalog).places.map(\.photoPath)
            } catch {
                throw EngineError.catalog(error)
            }
        }
        let reader = FileReader()
        let pictures = paths.compactMap { path in (try? reader.read(path)).map { (path, $0) } }
        guard !pictures.isEmpty else { throw BatchError.missing(path: folder ?? catalog) }
        return pictures
    }
}
