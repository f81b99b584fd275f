import Foundation

/// A photo with known labels: a reference for a model, or a test case for evaluation.
public struct LabelledPhoto: Sendable, Hashable {
    /// A stable identifier (catalog place id, or the id in `labels.json`).
    public let id: String
    /// The path of the image file.
    public let path: String
    /// The labels the photo shows.
    public let labels: [String]

    /// Creates a labelled photo.
    public init(id: String, path: String, labels: [String]) {
        self.id = id
        self.path = path
        self.labels = labels
    }
}

/// Why a catalog or a labelled folder could not be read.
public struct LabelledPhotosError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong and what to fix.
    public let description: String

    init(_ description: String) { self.description = description }
}

/// Readers for the two sources of labelled photos: `catalog.json` and a folder with `labels.json`.
public enum LabelledPhotos {
    private struct CatalogFile: Decodable {
        struct Place: Decodable {
            let id: String
            let image: String
            let labels: [String]
        }
        let places: [Place]
        let labels: [String]
    }

    private struct FolderEntry: Decodable {
        let image: String
        let id: String
        let labels: [String]
    }

    /// The label vocabulary and labelled place photos of the catalog at `path` (`catalog.json`);
    /// image paths are resolved against the catalog's directory.
    public static func catalog(at path: String) throws(LabelledPhotosError) -> (vocabulary: [String], photos: [LabelledPhoto]) {
        let catalog: CatalogFile = try decodeJSON(path, what: "catalog")
        let directory = (path as NSString).deletingLastPathComponent
        let vocabulary = Set(catalog.labels)
        var photos: [LabelledPhoto] = []
        for place in catalog.places {
            for label in place.labels where !vocabulary.contains(label) {
                throw LabelledPhotosError("catalog \(path): place \(place.id) has label \"\(label)\", which is not in "
                    + "the catalog's \"labels\" list; add it there or fix the place")
            }
            photos.append(LabelledPhoto(id: place.id, path: resolve(place.image, against: directory), labels: place.labels))
        }
        return (catalog.labels, photos)
    }

    /// The labelled photos listed in `directory/labels.json`: an array of objects with `image` (a path
    /// relative to the folder), `id` and `labels`; other keys (credits, descriptions) are ignored.
    ///
    /// - Throws: when the file is missing or malformed, or a label is not in `vocabulary`.
    public static func folder(_ directory: String, vocabulary: [String]) throws(LabelledPhotosError) -> [LabelledPhoto] {
        let path = (directory as NSString).appendingPathComponent("labels.json")
        let entries: [FolderEntry] = try decodeJSON(path, what: "labelled-photo list")
        let known = Set(vocabulary)
        return try entries.map { (entry) throws(LabelledPhotosError) -> LabelledPhoto in
            for label in entry.labels where !known.contains(label) {
                throw LabelledPhotosError("\(path): photo \(entry.id) has label \"\(label)\", which is not in the "
                    + "catalog vocabulary (\(vocabulary.joined(separator: ", ")))")
            }
            return LabelledPhoto(id: entry.id, path: resolve(entry.image, against: directory), labels: entry.labels)
        }
    }

    private struct QueryEntry: Decodable {
        let query: String
        let source: String
    }

    /// The distorted queries listed in `directory/queries.json` (as written by `distort.py`) whose
    /// `source` file name is the file name of one of `references`; the others are skipped.
    public static func distortedQueries(
        _ directory: String, references: [LabelledPhoto]
    ) throws(LabelledPhotosError) -> [DistortedQuery] {
        let path = (directory as NSString).appendingPathComponent("queries.json")
        let entries: [QueryEntry] = try decodeJSON(path, what: "query manifest")
        var positionByName: [String: Int] = [:]
        for (position, photo) in references.enumerated() {
            positionByName[(photo.path as NSString).lastPathComponent] = position
        }
        let queries = entries.compactMap { entry in
            positionByName[entry.source].map {
                DistortedQuery(path: resolve(entry.query, against: directory), source: $0)
            }
        }
        guard !queries.isEmpty else {
            throw LabelledPhotosError("no query in \(path) comes from a labelled reference photo; make the queries "
                + "from the photos of a labelled folder (distort.py FOLDER/images --out DIR)")
        }
        return queries
    }

    private static func resolve(_ image: String, against directory: String) -> String {
        image.hasPrefix("/") ? image : (directory as NSString).appendingPathComponent(image)
    }

    private static func decodeJSON<T: Decodable>(_ path: String, what: String) throws(LabelledPhotosError) -> T {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LabelledPhotosError("cannot read \(what) \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw LabelledPhotosError("\(what) \(path) is not in the expected JSON format: \(error)")
        }
    }
}

/// A distorted copy of a reference photo, labelled with that reference's labels.
public struct DistortedQuery: Sendable, Hashable {
    /// The query image file.
    public let path: String
    /// Position of the reference photo it was made from; that reference is left out when labelling it.
    public let source: Int

    /// Creates a query made from reference `source`.
    public init(path: String, source: Int) {
        self.path = path
        self.source = source
    }
}
