import Foundation

/// One query of an evaluation manifest, as written by `distort.py`.
public struct ManifestEntry: Sendable {
    /// The query image path, resolved against the manifest's folder.
    public let path: String
    /// The place the query shows, or nil when it shows no catalog place.
    public let placeID: String?
    /// True scene labels, when the manifest lists them.
    public let labels: [String]
    /// The distortion steps applied, each an `op` name with its numeric parameters.
    public let ops: [DistortionOp]
}

/// One distortion step of a manifest entry, e.g. `{"op": "rotate", "degrees": -7.5}`.
public struct DistortionOp: Sendable, Hashable {
    /// The step's name (`rotate`, `crop`, `scale`, `jpeg`, `flip`, ...).
    public let name: String
    /// Its numeric parameters by key (arrays and other values are left out).
    public let values: [String: Double]
}

/// Why a manifest could not be read.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// What was wrong and what to do.
    public let description: String
}

/// Reads the JSON manifests that `glimpse eval` consumes.
public enum QueryManifest {
    /// Parses the manifest at `path`: a JSON array of objects with `query` (path relative to the
    /// manifest), `place_id` (string or null) and optional `labels` and `ops`.
    ///
    /// - Throws: ``ManifestError`` when the file is unreadable or not in that shape.
    public static func load(path: String) throws(ManifestError) -> [ManifestEntry] {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ManifestError(description: "cannot read manifest \(path): \(error.localizedDescription)")
        }
        let base = url.deletingLastPathComponent().path
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw ManifestError(description: "manifest \(path) is not valid JSON: \(error.localizedDescription)")
        }
        guard let array = root as? [Any] else {
            throw ManifestError(description: "manifest \(path) must be a JSON array of query objects")
        }
        var entries: [ManifestEntry] = []
        for (n, item) in array.enumerated() {
            guard let object = item as? [String: Any], let query = object["query"] as? String, !query.isEmpty else {
                throw ManifestError(description: "manifest \(path) entry \(n) needs a \"query\" string")
            }
            let placeID: String?
            switch object["place_id"] {
            case nil, is NSNull: placeID = nil
            case let id as String: placeID = id
            default:
                throw ManifestError(description: "manifest \(path) entry \(n): \"place_id\" must be a string or null")
            }
            let labels = (object["labels"] as? [Any])?.compactMap { $0 as? String } ?? []
            var ops: [DistortionOp] = []
            for case let op as [String: Any] in (object["ops"] as? [Any]) ?? [] {
                guard let name = op["op"] as? String else { continue }
                var values: [String: Double] = [:]
                for (k, v) in op where k != "op" {
                    if let number = v as? NSNumber, !(v is Bool) { values[k] = number.doubleValue }
                }
                ops.append(DistortionOp(name: name, values: values))
            }
            let resolved = query.hasPrefix("/") ? query : (base as NSString).appendingPathComponent(query)
            entries.append(ManifestEntry(path: resolved, placeID: placeID, labels: labels, ops: ops))
        }
        return entries
    }
}
