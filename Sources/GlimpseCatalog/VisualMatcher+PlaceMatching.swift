public import Foundation
public import GlimpseFeaturePrint
import GlimpseFiles
public import GlimpseImage
public import GlimpseLabels
public import GlimpseVision

extension VisualMatcher: PlaceMatching {
    /// Matches `image` and reports every candidate with the matcher's 0…1 confidence
    /// (`MatchCandidate/confidence`, see `MatchDecision`).
    ///
    /// Without a feature print the matcher's score `s` (distinct reference keypoints reproduced in one
    /// consistent geometry) becomes `s / (s + acceptScore)`: 0 for no evidence, exactly 0.5 at the
    /// matcher's accept threshold, approaching 1 as evidence grows. With one, the score and the print
    /// similarity are combined by the calibrated model, again with 0.5 as the accept line. The places
    /// the matcher located (`MatchReport/places`: its accepted candidate, and further places the rest
    /// of the picture shows) are marked accepted, each with its region. Reference ids are place ids
    /// (see ``Catalog/makeVisualMatcher(configuration:placeIDs:featureCache:printer:nullPrints:syntheticReferences:distractorPool:)``).
    ///
    /// - Throws: `CancellationError` when the task is cancelled; the match stops at its next stage.
    public func matchPlaces(in image: PixelBuffer, limit: Int) async throws -> PlaceMatchReport {
        let report = try matchUnlessCancelled(image, limit: limit)
        var regions: [String: ImageRegion] = [:]
        for place in report.places { regions[place.candidate.referenceID] = place.geometry.region }
        let candidates = report.candidates.map { candidate in
            PlaceMatchCandidate(
                placeID: candidate.referenceID, score: candidate.confidence,
                accepted: candidate.referenceID == report.accepted?.referenceID || regions[candidate.referenceID] != nil,
                inliers: candidate.verified ? candidate.inliers : nil, region: regions[candidate.referenceID],
                similarity: candidate.similarity, margin: candidate.margin, heldBackBy: candidate.heldBackBy)
        }
        var timings: [String: Duration] = [
            "features": report.timings.features,
            "mirror_features": report.timings.mirrorFeatures,
            "shortlist": report.timings.shortlist,
            "verification": report.timings.verification,
            "locating": report.timings.locating,
        ]
        if printer != nil { timings["featureprint"] = report.timings.featurePrint }
        return PlaceMatchReport(candidates: candidates, timings: timings, featurePrint: report.featurePrint)
    }
}

extension LabelPredictor: LabelDeriving {
    /// Labels from `featurePrint` when the model is built on feature prints of that width, else from
    /// the pixels.
    public func labels(for image: PixelBuffer, featurePrint: FeaturePrint?) async throws -> [ScoredLabel] {
        labels(for: image, reusing: featurePrint)
    }
}

extension Catalog {
    /// The key of a place's photo among a matcher's references (see `MatcherReference`): unique even
    /// when two places use the same photo file.
    public static func referenceKey(placeID: String, photoPath: String) -> String {
        placeID + "\u{0}" + photoPath
    }

    /// Builds a matcher whose references are the catalog's place photos (every view of every place),
    /// reported by place id.
    ///
    /// Photos are decoded at the matcher's reference size and their features extracted on all cores,
    /// exactly as `glimpse eval` prepares references. With `featureCache`, features are read from
    /// that file when it was written for the same photos (paths, sizes, modification times) and
    /// settings; otherwise they are extracted and the file is replaced. The cache only saves time: a
    /// missing, stale or damaged file is rebuilt, and one that cannot be written is skipped (the
    /// next build extracts again).
    ///
    /// - Parameters:
    ///   - configuration: the matcher's settings.
    ///   - placeIDs: the places to register, in catalog order; `nil` (the default) means all.
    ///   - featureCache: the feature cache file, or `nil` for none.
    ///   - printer: computes feature prints, the matcher's second signal (kept in the cache with the
    ///     keypoints); `nil` matches on keypoints alone.
    ///   - nullPrints: prints of photos of no catalog place made by `printer`'s network; with them the
    ///     matcher accepts a place on its print alone beyond where they land (`PrintCalibration`).
    ///   - syntheticReferences: references added after the real ones, which crowd the shortlist but never
    ///     verify: for measuring matching at a larger catalog size. Without `distractorPool` they are
    ///     `SyntheticReferences` (the catalog's descriptors, perturbed, at random positions).
    ///   - distractorPool: photos of no catalog place the added references are made from instead
    ///     (`Distractors`, with prints and keypoints, so that both the print and the keypoint stage
    ///     meet them; past `VisionConfiguration/printCodeLine` views their prints are kept as codes).
    ///     Made from the catalog's own photos they would crowd its places more than real photos do.
    /// - Throws: ``CatalogError/undecodablePhoto(placeID:path:reason:)`` for a photo that does not decode;
    ///   ``CatalogError/unreadable(path:reason:)`` for a pool photo that does not, or a pool too small.
    public func makeVisualMatcher(
        configuration: VisionConfiguration = .default, placeIDs: Set<String>? = nil, featureCache: String? = nil,
        printer: (any FeaturePrinting)? = nil, nullPrints: NullPrints? = nil, syntheticReferences: Int = 0,
        distractorPool: [ReferencePhoto]? = nil
    ) async throws(CatalogError) -> VisualMatcher {
        try await buildVisualMatcher(
            configuration: configuration, placeIDs: placeIDs, featureCache: featureCache, printer: printer,
            nullPrints: nullPrints, syntheticReferences: syntheticReferences, distractorPool: distractorPool
        ).matcher
    }

    /// ``makeVisualMatcher(configuration:placeIDs:featureCache:printer:nullPrints:syntheticReferences:distractorPool:)``, also
    /// saying where the reference features came from and, when the cache could not be used or
    /// written, why.
    ///
    /// With `keypointSlots`, a path, the references' full keypoint sets are written to a new slot file
    /// there (`KeypointSlots`) and verification reads them back, so that memory holds only what the
    /// shortlist indexes (`VisionConfiguration/indexedKeypointLimit`).
    ///
    /// With `matcherIndex`, a path, the matcher is loaded from the index saved there when it was built from
    /// these photos (their paths, sizes and modification times, and the distractors asked for) with these
    /// settings: nothing is extracted and no index is built. Otherwise it is built, and saved there for the
    /// next start; why a file there was not used is returned in `cacheProblem`.
    ///
    /// With `progress`, each step of the build is reported as it starts and as it ends, and the distractors
    /// after every batch (``MatcherBuildProgress``).
    ///
    /// - Throws: also ``CatalogError/derivedFile(what:reason:)`` when the slot file cannot be made.
    public func buildVisualMatcher(
        configuration: VisionConfiguration = .default, placeIDs: Set<String>? = nil, featureCache: String? = nil,
        printer: (any FeaturePrinting)? = nil, nullPrints: NullPrints? = nil, syntheticReferences: Int = 0,
        distractorPool: [ReferencePhoto]? = nil, keypointSlots: String? = nil, matcherIndex: String? = nil,
        progress: (@Sendable (MatcherBuildProgress) -> Void)? = nil
    ) async throws(CatalogError) -> (matcher: VisualMatcher, source: ReferenceLoader.Source, cacheProblem: VisionError?) {
        let places = placeIDs.map { ids in self.places.filter { ids.contains($0.id) } } ?? self.places
        let photos = places.flatMap { place in place.photos.map { ReferencePhoto(id: place.id, path: $0.path) } }
        var indexTag: String?
        var indexProblem: VisionError?
        // A photo that cannot be examined leaves the index aside: the build names it as it always does.
        if let matcherIndex, let tag = try? Self.matcherIndexTag(
            photos: photos, configuration: configuration, printer: printer, syntheticReferences: syntheticReferences,
            distractorPool: distractorPool) {
            do throws(MatcherIndexError) {
                if AtomicFile.size(of: matcherIndex) != nil {
                    progress?(MatcherBuildProgress(stage: .loadingIndex, done: 0, total: 1))
                }
                let matcher = try VisualMatcher.loadIndex(
                    from: matcherIndex, tag: tag, configuration: configuration, printer: printer, nullPrints: nullPrints,
                    keypointSlots: keypointSlots)
                progress?(MatcherBuildProgress(stage: .loadingIndex, done: 1, total: 1))
                return (matcher, .matcherIndex, nil)
            } catch {
                if !error.isMissing { indexProblem = .matcherIndex(error) }
            }
            indexTag = tag
        }
        var built = try await buildVisualMatcher(
            photos: photos, places: places, configuration: configuration, featureCache: featureCache, printer: printer,
            nullPrints: nullPrints, syntheticReferences: syntheticReferences, distractorPool: distractorPool,
            keypointSlots: keypointSlots, progress: progress)
        if let matcherIndex, let indexTag {
            do throws(MatcherIndexError) {
                progress?(MatcherBuildProgress(stage: .savingIndex, done: 0, total: 1))
                try built.matcher.saveIndex(to: matcherIndex, tag: indexTag)
                progress?(MatcherBuildProgress(stage: .savingIndex, done: 1, total: 1))
            } catch {
                indexProblem = .matcherIndex(error)
            }
            built.cacheProblem = built.cacheProblem ?? indexProblem
        }
        return built
    }

    /// The tag a matcher index built from `photos` and the distractors asked for is saved under
    /// (``MatcherIndexFile/tag(configuration:printer:source:)``): their feature cache keys, which change
    /// when a photo's path, size or modification time does.
    ///
    /// - Throws: ``CatalogError/unreadable(path:reason:)`` when a photo cannot be examined.
    static func matcherIndexTag(
        photos: [ReferencePhoto], configuration: VisionConfiguration, printer: (any FeaturePrinting)?,
        syntheticReferences: Int, distractorPool: [ReferencePhoto]?
    ) throws(CatalogError) -> String {
        do throws(VisionError) {
            var source = "photos=\(photos.count)/\(try FeatureCache.key(for: photos, configuration: configuration))"
            if syntheticReferences > 0 {
                source += ";synthetic=\(syntheticReferences)"
                if let distractorPool {
                    source += ";pool=\(distractorPool.count)/\(try FeatureCache.key(for: distractorPool, configuration: configuration))"
                }
            }
            return MatcherIndexFile.tag(configuration: configuration, printer: printer, source: source)
        } catch {
            throw .unreadable(path: "matcher index", reason: error.description)
        }
    }

    /// The matcher built from the photos of `places`: ``buildVisualMatcher(configuration:placeIDs:featureCache:printer:nullPrints:syntheticReferences:distractorPool:keypointSlots:matcherIndex:progress:)``
    /// without an index file.
    private func buildVisualMatcher(
        photos: [ReferencePhoto], places: [PlaceEntity], configuration: VisionConfiguration, featureCache: String?,
        printer: (any FeaturePrinting)?, nullPrints: NullPrints?, syntheticReferences: Int,
        distractorPool: [ReferencePhoto]?, keypointSlots: String?, progress: (@Sendable (MatcherBuildProgress) -> Void)?
    ) async throws(CatalogError) -> (matcher: VisualMatcher, source: ReferenceLoader.Source, cacheProblem: VisionError?) {
        if let featureCache {
            let folder = (featureCache as NSString).deletingLastPathComponent
            if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])
            }
        }
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
        // Extraction blocks its threads for a while: it runs on Dispatch's, not on Swift concurrency's.
        var reportExtraction: (@Sendable (ReferenceLoader.Progress) -> Void)?
        if let progress {
            reportExtraction = { @Sendable step in
                progress(MatcherBuildProgress(stage: .references, done: step.done, total: step.total, kept: step.kept))
            }
        }
        let extractionReport = reportExtraction
        let loaded = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(VisionError) in
                    try ReferenceLoader.load(photos: photos, configuration: configuration, cachePath: featureCache,
                                             cacheIsOptional: true, threads: threads, printer: printer,
                                             progress: extractionReport)
                })
            }
        }
        switch loaded {
        case .success(let result):
            let references = zip(photos, result.references).map { photo, reference in
                MatcherReference(id: reference.id, key: Self.referenceKey(placeID: photo.id, photoPath: photo.path),
                                 features: reference.features)
            }
            var slots: KeypointSlots?
            if let keypointSlots {
                do throws(SlotFileError) {
                    slots = try KeypointSlots.create(path: keypointSlots, configuration: configuration)
                } catch {
                    throw .derivedFile(what: KeypointSlots.fileDescription, reason: error.description)
                }
            }
            var builder = VisualMatcherBuilder(
                configuration: configuration, printer: printer, nullPrints: nullPrints, keypointSlots: slots)
            builder.reserveCapacity(references: references.count + syntheticReferences)
            builder.add(references)
            if let distractorPool, syntheticReferences > 0 {
                // Made and added a batch at a time, prints and keypoints: with keypoint slots and print codes,
                // only what the matcher keeps of the distractors is ever held for all of them.
                let distractors = try await Self.distractors(from: distractorPool, configuration: configuration,
                                                             printer: printer, threads: threads)
                var next = 0
                while next < syntheticReferences {
                    let batch = next..<min(syntheticReferences, next + Self.distractorBatch)
                    builder.add(distractors.make(batch, threads: threads).map {
                        MatcherReference(id: $0.id, key: $0.id, features: $0.features)
                    })
                    next = batch.upperBound
                    progress?(MatcherBuildProgress(stage: .distractors, done: next, total: syntheticReferences))
                }
            } else {
                builder.add(SyntheticReferences.make(from: result.references, count: syntheticReferences).map {
                    MatcherReference(id: $0.id, key: $0.id, features: $0.features)
                })
            }
            progress?(MatcherBuildProgress(stage: .index, done: 0, total: 1))
            let matcher = builder.build()
            progress?(MatcherBuildProgress(stage: .index, done: 1, total: 1))
            return (matcher, result.source, result.cacheProblem)
        case .failure(.referencePhoto(let path, let reason)):
            let placeID = places.first { $0.photos.contains { $0.path == path } }?.id ?? ""
            throw .undecodablePhoto(placeID: placeID, path: path, reason: reason)
        case .failure(let error):
            throw .unreadable(path: directory, reason: error.description)
        }
    }
}

extension Catalog {
    /// How many distractors are made and added to the matcher at a time.
    static let distractorBatch = 10_000

    /// The generator of distractors made from the photos of `pool` (`Distractors`, seeded alike in every
    /// run).
    static func distractors(
        from pool: [ReferencePhoto], configuration: VisionConfiguration, printer: (any FeaturePrinting)?, threads: Int
    ) async throws(CatalogError) -> Distractors {
        let loaded = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(VisionError) in
                    try ReferenceLoader.load(photos: pool, configuration: configuration, threads: threads, printer: printer)
                })
            }
        }
        let features: [ImageFeatures]
        switch loaded {
        case .success(let result): features = result.references.map(\.features)
        case .failure(let error): throw .unreadable(path: "distractor pool", reason: error.description)
        }
        do {
            return try Distractors(pool: features, seed: Distractors.measurementSeed)
        } catch {
            throw .unreadable(path: "distractor pool", reason: error.description)
        }
    }
}

extension Catalog {
    /// The per-user feature cache file for the catalog in `directory`:
    /// `$GLIMPSE_CACHE_DIR`, else `$XDG_CACHE_HOME/glimpse`, else `$HOME/.cache/glimpse`, holding
    /// `features-<folder name>-<hash of the folder's absolute path>.glfeat`; `nil` when none of those
    /// variables is set.
    public static func defaultFeatureCachePath(
        forDirectory directory: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        let folder: String
        if let explicit = environment["GLIMPSE_CACHE_DIR"], !explicit.isEmpty {
            folder = explicit
        } else if let cache = UserFolders.cacheHome(environment: environment) {
            folder = cache + "/glimpse"
        } else {
            return nil
        }
        return folder + "/features-" + FolderTag.of(directory) + ".glfeat"
    }
}
