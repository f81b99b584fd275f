import Foundation
public import GlimpseImage
import Synchronization

/// Computes, or loads from the feature cache, the features of a set of reference photos.
public enum ReferenceLoader {
    /// Where the references came from.
    public enum Source: String, Sendable {
        /// Read from a valid cache file.
        case cache
        /// Decoded and extracted from the photos (and written to the cache when a path was given).
        case extracted
        /// Loaded with the whole matcher from a saved matcher index (``MatcherIndexFile``): nothing extracted.
        case matcherIndex = "index"
    }

    /// The features of `photos`, in order, extracted on `threads` threads.
    ///
    /// With a `cachePath`, a valid cache is used; a missing, stale or damaged one is rebuilt from the
    /// photos and rewritten (why an existing file was not used is returned in `cacheProblem`). With
    /// `cacheIsOptional`, a rebuilt cache that cannot be written is skipped (the next load extracts
    /// again) rather than an error. With a `printer`, every reference also gets its feature print,
    /// which is cached with its keypoints.
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when a photo cannot be read or decoded,
    ///   ``VisionError/cacheIO(path:reason:)`` when the rebuilt cache cannot be written.
    public static func load(
        photos: [ReferencePhoto], configuration: VisionConfiguration = .default, cachePath: String? = nil,
        cacheIsOptional: Bool = false, threads: Int = 1, printer: (any FeaturePrinting)? = nil
    ) throws(VisionError) -> (references: [(id: String, features: ImageFeatures)], source: Source, cacheProblem: VisionError?) {
        var problem: VisionError?
        var key: UInt64 = 0
        let identity = printer?.featurePrintIdentity
        if let cachePath {
            key = try FeatureCache.key(for: photos, configuration: configuration)
            if FileManager.default.fileExists(atPath: cachePath) {
                do {
                    let cached = try FeatureCache.read(
                        path: cachePath, expectedKey: key, configuration: configuration, printIdentity: identity)
                    if cached.map(\.id) == photos.map(\.id) { return (cached, .cache, nil) }
                    problem = .cacheStale(path: cachePath, reason: "it lists other references")
                } catch {
                    problem = error
                }
            }
        }
        let references = try extract(photos, configuration: configuration, threads: threads, printer: printer)
        if let cachePath {
            do {
                try FeatureCache.write(
                    references, key: key, configuration: configuration, printIdentity: identity, path: cachePath)
            } catch where cacheIsOptional {
                problem = error
            }
        }
        return (references, .extracted, problem)
    }

    /// The features of `photos`, in order; with more than one thread, photo `i` is done by thread
    /// `i % threads`. The first failure in photo order is thrown.
    private static func extract(
        _ photos: [ReferencePhoto], configuration: VisionConfiguration, threads: Int, printer: (any FeaturePrinting)?
    ) throws(VisionError) -> [(id: String, features: ImageFeatures)] {
        let workers = max(1, min(threads, photos.count))
        let results = Mutex([Result<ImageFeatures, VisionError>?](repeating: nil, count: photos.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: photos.count, by: workers) {
                let outcome = Result { () throws(VisionError) in
                    try features(ofPhotoAt: photos[index].path, configuration: configuration, printer: printer)
                }
                results.withLock { $0[index] = outcome }
            }
        }
        var references: [(id: String, features: ImageFeatures)] = []
        references.reserveCapacity(photos.count)
        for (photo, outcome) in zip(photos, results.withLock { $0 }) {
            guard let outcome else { continue }
            references.append((photo.id, try outcome.get()))
        }
        return references
    }

    /// Decodes the photo at `path` at reduced scale and extracts its features (and its feature print,
    /// with a `printer`).
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when it cannot be read or decoded, or its
    ///   feature print cannot be computed.
    public static func features(
        ofPhotoAt path: String, configuration: VisionConfiguration = .default, printer: (any FeaturePrinting)? = nil
    ) throws(VisionError) -> ImageFeatures {
        let image: PixelBuffer
        do {
            image = try ImageDecoder.decode(
                contentsOfFile: path, options: DecodingOptions(maxDimension: configuration.maxLongSide)).pixelBuffer
        } catch {
            throw .referencePhoto(path: path, reason: error.description)
        }
        return try features(ofDecoded: image, name: path, configuration: configuration, printer: printer)
    }

    /// The features of a photo held in memory, exactly as ``features(ofPhotoAt:configuration:printer:)``
    /// computes them for a file; `name` stands for it in errors.
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when it cannot be decoded, or its feature
    ///   print cannot be computed.
    public static func features(
        ofPhotoBytes bytes: [UInt8], name: String, configuration: VisionConfiguration = .default,
        printer: (any FeaturePrinting)? = nil
    ) throws(VisionError) -> ImageFeatures {
        let image: PixelBuffer
        do {
            image = try ImageDecoder.decode(bytes, options: DecodingOptions(maxDimension: configuration.maxLongSide))
                .pixelBuffer
        } catch {
            throw .referencePhoto(path: name, reason: error.description)
        }
        return try features(ofDecoded: image, name: name, configuration: configuration, printer: printer)
    }

    /// Extracts the features of a reference photo already decoded at ``VisionConfiguration/maxLongSide``
    /// (and its feature print, with a `printer`); `name` stands for it in errors.
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when its feature print cannot be computed.
    public static func features(
        ofDecoded image: PixelBuffer, name: String, configuration: VisionConfiguration = .default,
        printer: (any FeaturePrinting)? = nil
    ) throws(VisionError) -> ImageFeatures {
        let features = FeatureExtractor.extract(from: image, configuration: configuration)
        guard let printer else { return features }
        do {
            return features.with(featurePrints: try printer.referencePrints(of: image))
        } catch {
            throw .referencePhoto(path: name, reason: "its feature print failed: \(error)")
        }
    }
}
