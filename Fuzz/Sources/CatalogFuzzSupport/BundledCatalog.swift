import Foundation
import FuzzSupport
public import GlimpseCatalog

/// The bundled catalog (Images/catalog.json), whole or cut down.
public enum BundledCatalog {
    /// `catalog.json` with only its first `count` places, the collections they list and their labels
    /// (in first-use order), keys sorted: a small, valid catalog of real entries.
    public static func json(firstPlaces count: Int) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repository.images + "/" + Catalog.fileName))
        guard var root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let places = root["places"] as? [[String: Any]], let collections = root["collections"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        let kept = Array(places.prefix(count))
        let used = Set(kept.flatMap { $0["collections"] as? [String] ?? [] })
        root["places"] = kept
        root["collections"] = collections.filter { used.contains($0["id"] as? String ?? "") }
        root["labels"] = kept.flatMap { $0["labels"] as? [String] ?? [] }
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return Array(try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]))
    }

    /// The catalog of ``json(firstPlaces:)`` (photos not looked for); stops the process when it does
    /// not load, as no target can run without it.
    public static func catalog(firstPlaces count: Int) -> Catalog {
        do {
            return try Catalog(json: json(firstPlaces: count), directory: Repository.images, checkPhotos: false)
        } catch {
            fatalError("cannot load the first \(count) places of the bundled catalog: \(error)")
        }
    }
}
