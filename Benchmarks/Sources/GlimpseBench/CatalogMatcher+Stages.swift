public import GlimpseBatch
import GlimpseCatalog
import GlimpseEngine
import GlimpseImage
import GlimpseIntents

/// The matcher of `glimpse match`, timed stage by stage for `glimpse bench`.
extension CatalogMatcher: StagedQuerying {
    /// Runs one query and reports the time of each stage.
    public func timedQuery(bytes: [UInt8], path: String, limit: Int) async throws(BatchError) -> [QueryStage: Duration] {
        let clock = ContinuousClock()
        let start = clock.now
        let image = try decode(bytes, path: path)
        let decoded = clock.now
        let page: VisualSearchPage
        do {
            page = try await engine.search(
                SemanticContentDescriptor(pixelBuffer: image), limit: limit, region: nil, minimumScore: minimumScore)
        } catch {
            throw .matchFailed(path: path, reason: "\(error)")
        }
        let end = clock.now
        var stages: [QueryStage: Duration] = [.decode: decoded - start, .query: end - start]
        stages[.features] = page.timings["features"]
        stages[.mirrorFeatures] = page.timings["mirror_features"]
        stages[.search] = page.timings["shortlist"]
        stages[.verification] = page.timings["verification"]
        stages[.featurePrint] = page.timings["featureprint"]
        if engine.labeler != nil {
            // Labels run after matching inside the search; what is left of the search time is theirs
            // (plus ranking, which is negligible).
            let matching = [QueryStage.features, .mirrorFeatures, .search, .verification, .featurePrint]
                .compactMap { stages[$0] }
                .reduce(Duration.zero, +)
            stages[.labels] = max(.zero, (end - decoded) - matching)
        }
        return stages
    }
}
