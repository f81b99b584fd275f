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

    /// How far extracting the references has come: what ``load(photos:configuration:cachePath:cacheIsOptional:threads:printer:progress:)``
    /// reports when it starts, every hundredth of the photos (at least every eight batches) and when it ends.
    public struct Progress: Sendable, Equatable {
        /// The photos whose features are ready.
        public let done: Int
        /// How many photos there are.
        public let total: Int
        /// Of those ready, how many were kept from an interrupted build's journal rather than extracted.
        public let kept: Int

        /// Creates a report.
        public init(done: Int, total: Int, kept: Int) {
            self.done = done
            self.total = total
            self.kept = kept
        }
    }

    /// The features of `photos`, in order, extracted on `threads` threads.
    ///
    /// With a `cachePath`, a valid cache is used; a missing, stale or damaged one is rebuilt from the
    /// photos and rewritten (why an existing file was not used is returned in `cacheProblem`). The rebuild
    /// keeps what it has extracted in a journal beside the cache (`FeatureJournal`), flushed every few
    /// photos, so that a build that is interrupted resumes: the next one extracts only the photos the
    /// journal lacks or that changed since, and removes the journal once the cache is written. With
    /// `cacheIsOptional`, a rebuilt cache that cannot be written is skipped (the next load
    /// extracts again) rather than an error; a journal that cannot be used only means the build cannot resume,
    /// and is said in `cacheProblem`. With a `printer`, every reference also gets its feature
    /// print, which is cached with its keypoints.
    ///
    /// - Throws: ``VisionError/referencePhoto(path:reason:)`` when a photo cannot be read or decoded (the
    ///   photos before it are kept in the journal), ``VisionError/cacheIO(path:reason:)`` when the rebuilt
    ///   cache cannot be written.
    public static func load(
        photos: [ReferencePhoto], configuration: VisionConfiguration = .default, cachePath: String? = nil,
        cacheIsOptional: Bool = false, threads: Int = 1, printer: (any FeaturePrinting)? = nil,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) throws(VisionError) -> (references: [(id: String, features: ImageFeatures)], source: Source, cacheProblem: VisionError?) {
        var problem: VisionError?
        let identity = printer?.featurePrintIdentity
        guard let cachePath else {
            let references = try extract(photos, stamps: nil, kept: [:], journal: nil, configuration: configuration,
                                         threads: threads, printer: printer, progress: progress).references
            return (references, .extracted, nil)
        }
        var stamps: [PhotoStamp] = []
        stamps.reserveCapacity(photos.count)
        for photo in photos { stamps.append(try PhotoStamp(of: photo)) }
        let key = FeatureCache.key(for: stamps, configuration: configuration)
        if FileManager.default.fileExists(atPath: cachePath) {
            do {
                let cached = try FeatureCache.read(
                    path: cachePath, expectedKey: key, configuration: configuration, printIdentity: identity)
                if cached.map(\.id) == photos.map(\.id) {
                    progress?(Progress(done: photos.count, total: photos.count, kept: 0))
                    return (cached, .cache, nil)
                }
                problem = .cacheStale(path: cachePath, reason: "it lists other references")
            } catch {
                problem = error
            }
        }
        var journal: FeatureJournal?
        var kept: [PhotoStamp: ImageFeatures] = [:]
        do throws(VisionError) {
            let opened = try FeatureJournal.open(
                path: FeatureJournal.path(forCache: cachePath), key: FeatureCoding.key(configuration: configuration, printIdentity: identity))
            journal = opened
            kept = opened.recovered.features
            if let damaged = opened.recovered.problem { problem = problem ?? damaged }
        } catch .cacheIO(_, FeatureJournal.heldElsewhere) {
            // Another build of the same cache is under way: this one goes without, and cannot resume.
        } catch {
            // Without a journal the build only cannot resume.
            problem = problem ?? error
        }
        let extracted = try extract(photos, stamps: stamps, kept: kept, journal: journal, configuration: configuration,
                                    threads: threads, printer: printer, progress: progress)
        if let journalProblem = extracted.journalProblem { problem = problem ?? journalProblem }
        do {
            try FeatureCache.write(
                extracted.references, key: key, configuration: configuration, printIdentity: identity, path: cachePath)
            journal?.remove()
        } catch where cacheIsOptional {
            problem = error
        }
        return (extracted.references, .extracted, problem)
    }

    /// How many photos are extracted between two flushes of the journal: a few per thread.
    static func batchSize(threads: Int) -> Int { max(8, 4 * threads) }

    /// The features of `photos`, in order: those whose stamp `kept` holds are taken from it, the rest
    /// extracted a batch at a time (photo `i` of a batch by thread `i % threads`) and appended to `journal`
    /// after each batch. The first photo that fails, in photo order, is thrown once its batch is done and
    /// journaled. A journal that fails is dropped (returned as `journalProblem`) and extraction goes on.
    private static func extract(
        _ photos: [ReferencePhoto], stamps: [PhotoStamp]?, kept: [PhotoStamp: ImageFeatures],
        journal: FeatureJournal?, configuration: VisionConfiguration, threads: Int, printer: (any FeaturePrinting)?,
        progress: (@Sendable (Progress) -> Void)?
    ) throws(VisionError) -> (references: [(id: String, features: ImageFeatures)], journalProblem: VisionError?) {
        var features = [ImageFeatures?](repeating: nil, count: photos.count)
        var pending: [Int] = []
        if let stamps {
            for (index, stamp) in stamps.enumerated() {
                if let found = kept[stamp] { features[index] = found } else { pending.append(index) }
            }
        } else {
            pending = Array(photos.indices)
        }
        let keptCount = photos.count - pending.count
        let workers = max(1, threads)
        let batch = batchSize(threads: workers)
        let reportEvery = max(8 * batch, photos.count / 100)
        var reported = keptCount
        var journal = journal
        var journalProblem: VisionError?
        progress?(Progress(done: keptCount, total: photos.count, kept: keptCount))
        for start in stride(from: 0, to: pending.count, by: batch) {
            let indices = Array(pending[start..<min(pending.count, start + batch)])
            let results = Mutex([Result<ImageFeatures, VisionError>?](repeating: nil, count: indices.count))
            DispatchQueue.concurrentPerform(iterations: min(workers, indices.count)) { worker in
                for slot in stride(from: worker, to: indices.count, by: workers) {
                    let outcome = Result { () throws(VisionError) in
                        try Self.features(ofPhotoAt: photos[indices[slot]].path, configuration: configuration, printer: printer)
                    }
                    results.withLock { $0[slot] = outcome }
                }
            }
            var firstFailure: VisionError?
            var done: [(stamp: PhotoStamp, features: ImageFeatures)] = []
            for (slot, outcome) in results.withLock({ $0 }).enumerated() {
                switch outcome {
                case .success(let extracted)?:
                    features[indices[slot]] = extracted
                    if let stamps { done.append((stamps[indices[slot]], extracted)) }
                case .failure(let error)?:
                    firstFailure = firstFailure ?? error
                case nil:
                    break
                }
            }
            if let open = journal {
                do throws(VisionError) {
                    try open.append(done)
                } catch {
                    journalProblem = error
                    journal = nil
                }
            }
            if let firstFailure { throw firstFailure }
            let ready = keptCount + start + indices.count
            if ready - reported >= reportEvery || ready == photos.count {
                reported = ready
                progress?(Progress(done: ready, total: photos.count, kept: keptCount))
            }
        }
        var references: [(id: String, features: ImageFeatures)] = []
        references.reserveCapacity(photos.count)
        for (photo, extracted) in zip(photos, features) {
            guard let extracted else { continue }
            references.append((photo.id, extracted))
        }
        return (references, journalProblem)
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
