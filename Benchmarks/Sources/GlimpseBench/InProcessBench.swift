import GlimpseBasics
public import GlimpseBatch

/// The stages of one query, in pipeline order, as named in bench output.
public enum QueryStage: String, Sendable, Hashable, CaseIterable, Codable {
    /// Decoding the JPEG or PNG bytes into pixels.
    case decode
    /// Resampling and extracting keypoints and descriptors of the picture as given.
    case features
    /// Deriving the mirror image's keypoints and descriptors from the picture's (0 when it was not tried).
    case mirrorFeatures = "mirror_features"
    /// The nearest-neighbour shortlist of candidate references.
    case search
    /// Geometric verification of the shortlisted references.
    case verification
    /// The picture's feature print and its comparison with the references' (when the matcher has the
    /// network; 0 for a query whose keypoints were decisive).
    case featurePrint = "featureprint"
    /// Scene labels.
    case labels
    /// The whole query, from bytes to results.
    case query
}

/// A query whose stages can be timed: the seam between the in-process benchmark and the matcher.
public protocol StagedQuerying: Sendable {
    /// Runs one whole query over encoded picture bytes and returns the time each stage took
    /// (``QueryStage/query`` is the whole query, measured around everything).
    ///
    /// - Throws: ``BatchError`` when the bytes do not decode or matching fails.
    func timedQuery(bytes: [UInt8], path: String, limit: Int) async throws(BatchError) -> [QueryStage: Duration]
}

/// Measures per-stage latency of in-process queries over a set of pictures, one query at a time.
public struct InProcessBench: Sendable {
    /// Passes over the pictures (after one warm-up pass that is not recorded).
    public var passes: Int
    /// Results asked for per query.
    public var limit: Int

    /// Creates an in-process benchmark.
    public init(passes: Int = 3, limit: Int = 5) {
        self.passes = max(1, passes)
        self.limit = max(1, limit)
    }

    /// Runs the queries and returns one row per stage, in pipeline order; pictures that fail are
    /// counted as errors of the whole-query row.
    public func run(
        _ query: some StagedQuerying, pictures: [(path: String, bytes: [UInt8])], progress: (String) -> Void = { _ in }
    ) async -> [StageRow] {
        var recorders: [QueryStage: LatencyRecorder] = [:]
        for stage in QueryStage.allCases { recorders[stage] = LatencyRecorder() }
        progress("warming up over \(pictures.count) pictures")
        for picture in pictures { _ = try? await query.timedQuery(bytes: picture.bytes, path: picture.path, limit: limit) }
        let clock = ContinuousClock()
        let start = clock.now
        for pass in 1...passes {
            progress("pass \(pass) of \(passes) over \(pictures.count) pictures")
            for picture in pictures {
                do throws(BatchError) {
                    let timings = try await query.timedQuery(bytes: picture.bytes, path: picture.path, limit: limit)
                    for (stage, duration) in timings { recorders[stage]?.record(duration) }
                } catch {
                    recorders[.query]?.recordError()
                }
            }
        }
        let wall = (clock.now - start).seconds
        return QueryStage.allCases.compactMap { stage in
            guard let recorder = recorders[stage], recorder.count > 0 || stage == .query else { return nil }
            return StageRow(stage: stage.rawValue, latency: recorder.summary(seconds: wall))
        }
    }
}
