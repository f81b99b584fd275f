import Foundation

/// The repository checkout the tests run from, found from this file's path.
public enum Repository {
    /// The repository root.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/GlimpseTestSupport/Repository.swift
        return url.path
    }()

    /// The bundled catalog folder (`Images/`).
    public static var images: String { root + "/Images" }

    /// The bundled catalog's photos folder.
    public static var photos: String { root + "/Images/photos" }

    /// The bundled catalog's JSON file.
    public static var catalogJSON: String { root + "/Images/catalog.json" }

    /// The committed label model.
    public static var labelModel: String { root + "/Models/labels.glimpsemodel" }

    /// The committed feature-print network.
    public static var featurePrintModel: String { root + "/Models/featureprint.glimpsemodel" }

    /// The committed int8 feature-print network (the same network quantised).
    public static var featurePrintInt8Model: String { root + "/Models/featureprint-int8.glimpsemodel" }

    /// The labelled non-catalog photos shared beside the repository (`../shared/labelled/images`),
    /// which may be absent.
    public static var labelledPhotos: String {
        URL(fileURLWithPath: root + "/../shared/labelled/images").standardized.path
    }

    /// The bundled catalog's JPEG photos, sorted by name, as full paths.
    public static func samplePhotos() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: photos).filter { $0.hasSuffix(".jpg") }.sorted()
            .map { photos + "/" + $0 }
    }
}

/// The repository root (``Repository/root``).
public var repositoryRoot: String { Repository.root }
