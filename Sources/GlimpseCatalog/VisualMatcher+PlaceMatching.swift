import Foundation
public import GlimpseImage
public import GlimpseLabels
public import GlimpseVision

extension VisualMatcher: PlaceMatching {
    /// Matches `image` and reports every candidate with a 0…1 confidence.
    ///
    /// The matcher's score `s` (distinct reference keypoints reproduced in one consistent geometry)
    /// becomes `s / (s + acceptScore)`: 0 for no evidence, exactly 0.5 at the matcher's accept
    /// threshold, approaching 1 as evidence grows. Only the matcher's accepted candidate is marked
    /// accepted. Reference ids are place ids (see ``Catalog/makeVisualMatcher(configuration:)``).
    public func matchPlaces(in image: PixelBuffer, limit: Int) async throws -> PlaceMatchReport {
        let report = match(image, limit: limit)
        let accept = Double(max(configuration.acceptScore, 1))
        let candidates = report.candidates.map { candidate in
            PlaceMatchCandidate(
                placeID: candidate.referenceID, score: candidate.score / (candidate.score + accept),
                accepted: candidate.referenceID == report.accepted?.referenceID,
                inliers: candidate.verified ? candidate.inliers : nil)
        }
        let timings: [String: Duration] = [
            "features": .microseconds(Int64((report.timings.featuresMs * 1000).rounded())),
            "shortlist": .microseconds(Int64((report.timings.shortlistMs * 1000).rounded())),
            "verification": .microseconds(Int64((report.timings.verificationMs * 1000).rounded())),
        ]
        return PlaceMatchReport(candidates: candidates, timings: timings)
    }
}

extension LabelPredictor: LabelDeriving {}

extension Catalog {
    /// Builds a matcher whose references are the catalog's place photos, keyed by place id.
    ///
    /// Photos are decoded at the matcher's reference size and their features extracted on all cores,
    /// exactly as `glimpse eval` prepares references. With `featureCache`, features are read from
    /// that file when it was written for the same photos (paths, sizes, modification times) and
    /// settings; otherwise they are extracted and the file is replaced. The cache only saves time: a
    /// missing, stale or damaged file is rebuilt, and one that cannot be written is skipped (the
    /// next build extracts again).
    ///
    /// - Parameters:
    ///   - placeIDs: the places to register, in catalog order; `nil` (the default) means all.
    ///   - featureCache: the feature cache file, or `nil` for none.
    /// - Throws: ``CatalogError/undecodablePhoto(placeID:path:reason:)`` for a photo that does not decode.
    public func makeVisualMatcher(
        configuration: VisionConfiguration = .default, placeIDs: Set<String>? = nil, featureCache: String? = nil
    ) async throws(CatalogError) -> VisualMatcher {
        let places = placeIDs.map { ids in self.places.filter { ids.contains($0.id) } } ?? self.places
        let photos = places.map { ReferencePhoto(id: $0.id, path: $0.photoPath) }
        let key = featureCache.flatMap { _ in try? FeatureCache.key(for: photos, configuration: configuration) }
        if let featureCache, let key, FileManager.default.fileExists(atPath: featureCache),
           let cached = try? FeatureCache.read(path: featureCache, expectedKey: key, configuration: configuration),
           cached.map(\.id) == photos.map(\.id) {
            return VisualMatcher(references: cached, configuration: configuration)
        }
        let references = try await extractFeatures(of: places, configuration: configuration)
        if let featureCache, let key {
            let folder = (featureCache as NSString).deletingLastPathComponent
            if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])
            }
            try? FeatureCache.write(references, key: key, configuration: configuration, path: featureCache)
        }
        return VisualMatcher(references: references, configuration: configuration)
    }

    /// The features of the photos of `places`, in order, extracted on all cores.
    private func extractFeatures(
        of places: [PlaceEntity], configuration: VisionConfiguration
    ) async throws(CatalogError) -> [(id: String, features: ImageFeatures)] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, places.count))
        let features: [ImageFeatures?]
        do {
            features = try await withThrowingTaskGroup(of: [(Int, ImageFeatures)].self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        var out: [(Int, ImageFeatures)] = []
                        for index in stride(from: worker, to: places.count, by: workers) {
                            let place = places[index]
                            do throws(VisionError) {
                                out.append((index, try ReferenceLoader.features(ofPhotoAt: place.photoPath,
                                                                                configuration: configuration)))
                            } catch {
                                var reason = error.description
                                if case .referencePhoto(_, let why) = error { reason = why }
                                throw CatalogError.undecodablePhoto(placeID: place.id, path: place.photoPath, reason: reason)
                            }
                        }
                        return out
                    }
                }
                var collected = [ImageFeatures?](repeating: nil, count: places.count)
                for try await batch in group {
                    for (index, value) in batch { collected[index] = value }
                }
                return collected
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw .unreadable(path: directory, reason: String(describing: error))
        }
        return zip(places, features).compactMap { place, features in
            features.map { (id: place.id, features: $0) }
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
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            folder = xdg + "/glimpse"
        } else if let home = environment["HOME"], !home.isEmpty {
            folder = home + "/.cache/glimpse"
        } else {
            return nil
        }
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        // FNV-1a, 64-bit: a stable name for the folder's path (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolute.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let name = String(URL(fileURLWithPath: absolute).lastPathComponent.unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_"
        }.prefix(64))
        let hex = String(hash, radix: 16)
        return folder + "/features-\(name)-" + String(repeating: "0", count: 16 - hex.count) + hex + ".glfeat"
    }
}
