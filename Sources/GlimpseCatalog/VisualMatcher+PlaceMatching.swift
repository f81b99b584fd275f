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
    /// Photos are decoded and their features extracted on all cores.
    ///
    /// - Parameter placeIDs: the places to register, in catalog order; `nil` (the default) means all.
    /// - Throws: ``CatalogError/undecodablePhoto(placeID:path:reason:)`` for a photo that does not decode.
    public func makeVisualMatcher(
        configuration: VisionConfiguration = .default, placeIDs: Set<String>? = nil
    ) async throws(CatalogError) -> VisualMatcher {
        let places = placeIDs.map { ids in self.places.filter { ids.contains($0.id) } } ?? self.places
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, places.count))
        let features: [ImageFeatures?]
        do {
            features = try await withThrowingTaskGroup(of: [(Int, ImageFeatures)].self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        var out: [(Int, ImageFeatures)] = []
                        for index in stride(from: worker, to: places.count, by: workers) {
                            let place = places[index]
                            let decoded: DecodedImage
                            do {
                                decoded = try ImageDecoder.decode(contentsOfFile: place.photoPath)
                            } catch {
                                throw CatalogError.undecodablePhoto(
                                    placeID: place.id, path: place.photoPath, reason: String(describing: error))
                            }
                            out.append((index, FeatureExtractor.extract(from: decoded.pixelBuffer,
                                                                        configuration: configuration)))
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
        let references = zip(places, features).compactMap { place, features in
            features.map { (id: place.id, features: $0) }
        }
        return VisualMatcher(references: references, configuration: configuration)
    }
}
