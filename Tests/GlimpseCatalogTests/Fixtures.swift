import Foundation
import GlimpseTestSupport
@testable import GlimpseCatalog

/// Paths and catalogs shared by the catalog tests.
enum Fixtures {
    /// The repository's `Images` folder.
    static var imagesDirectory: String { Repository.images }

    /// The sample catalog, loaded once.
    static let catalog: Catalog = {
        do { return try Catalog.load(directory: imagesDirectory) } catch {
            fatalError("the sample catalog in Images/ must load: \(error)")
        }
    }()

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        URL(fileURLWithPath: try TemporaryDirectory(removedOnRelease: false).path, isDirectory: true)
    }

    /// The sample catalog's JSON as a mutable dictionary.
    static func sampleJSON() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: imagesDirectory).appendingPathComponent("catalog.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }

    /// Writes `json` as `catalog.json` into a new temporary folder whose `photos` link to the real ones.
    static func writeCatalog(_ json: [String: Any]) throws -> URL {
        let folder = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("photos"),
            withDestinationURL: URL(fileURLWithPath: imagesDirectory).appendingPathComponent("photos"))
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        try data.write(to: folder.appendingPathComponent("catalog.json"))
        return folder
    }
}
