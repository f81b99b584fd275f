import Foundation
import GlimpseCatalog
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseIntents
import GlimpseLabels
import GlimpseVision

/// Why a ``CatalogMatcher`` could not be built.
public enum CatalogMatcherError: Error, Sendable, CustomStringConvertible {
    /// The catalog could not be loaded, or a reference photo could not be decoded.
    case catalog(directory: String, reason: String)
    /// The label model exists but could not be loaded.
    case labelModel(path: String, reason: String)
    /// The feature-print model was named, or exists, but could not be loaded.
    case featurePrintModel(reason: String)

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case let .catalog(directory, reason):
            "cannot load the catalog in \(directory) (\(reason)); pass --catalog with the folder holding catalog.json"
        case let .labelModel(path, reason):
            "cannot load the label model \(path) (\(reason)); rebuild it with `glimpse labels` or remove it"
        case let .featurePrintModel(reason):
            "cannot load the feature-print model: \(reason)"
        }
    }
}

/// Matches pictures against a catalog with the catalog's visual search (``VisualSearchQuery``): the
/// place matcher over the catalog's reference photos, scene labels when a label model is present,
/// and the union of matching places and collections, scored and explained.
///
/// Built once; immutable and safe to share between tasks afterwards.
public struct CatalogMatcher: ImageMatching, StagedQuerying {
    /// The catalog matched against.
    public let catalog: Catalog
    /// The visual matcher over the catalog's reference photos.
    public let matcher: VisualMatcher
    /// The scene labeller, when a label model was found.
    public let labeler: LabelPredictor?
    /// The visual search run for every picture.
    public let query: VisualSearchQuery
    /// How query pictures are decoded.
    public let decoding: DecodingOptions

    /// How query pictures are decoded: the same bound as `glimpse query` and the daemon use
    /// (``VisionConfiguration/queryDecoding``), so a batch record equals the answer to a single
    /// query of the same picture.
    public static let queryDecoding = VisionConfiguration.default.queryDecoding

    /// Loads the catalog in `catalogDirectory`, builds the matcher over all its places (on all
    /// cores), and loads the label model.
    ///
    /// - Parameter labelModel: the label model file; `nil` means
    ///   ``LabelModel/defaultPath(catalogDirectory:environment:)``, and then labels are left out when
    ///   that file does not exist. A named file that does not exist is an error.
    /// - Parameter featurePrintModel: the feature-print model; `nil` means the default rule of
    ///   ``FeaturePrinterPool/load(explicit:catalogDirectory:environment:)`` (matching runs on keypoints
    ///   alone when no model is found). With `featurePrint` false no model is loaded.
    /// - Throws: ``CatalogMatcherError``.
    public static func load(
        catalogDirectory: String, labelModel: String? = nil, configuration: VisionConfiguration = .default,
        featureCache: String? = nil, featurePrintModel: String? = nil, featurePrint: Bool = true
    ) async throws(CatalogMatcherError) -> CatalogMatcher {
        let printer: FeaturePrinterPool?
        do {
            printer = featurePrint
                ? try FeaturePrinterPool.load(explicit: featurePrintModel, catalogDirectory: catalogDirectory) : nil
        } catch {
            throw .featurePrintModel(reason: error.description)
        }
        let modelPath = labelModel ?? LabelModel.defaultPath(catalogDirectory: catalogDirectory)
        if labelModel != nil && !FileReader.exists(modelPath) {
            throw .labelModel(path: modelPath, reason: "there is no such file; build it with `glimpse models build` "
                + "or leave the option out to run without labels when none is found")
        }
        do {
            let catalog = try Catalog.load(directory: catalogDirectory)
            let matcher = try await catalog.makeVisualMatcher(
                configuration: configuration, featureCache: featureCache, printer: printer)
            var labeler: LabelPredictor?
            let labelModel = modelPath
            if FileReader.exists(labelModel) {
                do {
                    labeler = LabelPredictor(model: try LabelModel.load(from: labelModel, featurePrinter: printer))
                } catch {
                    throw CatalogMatcherError.labelModel(path: labelModel, reason: error.description)
                }
            }
            return CatalogMatcher(catalog: catalog, matcher: matcher, labeler: labeler)
        } catch let error as CatalogMatcherError {
            throw error
        } catch {
            throw .catalog(directory: catalogDirectory, reason: "\(error)")
        }
    }

    /// Creates a matcher from its parts. `matcher`'s reference ids must be place ids of `catalog`.
    public init(catalog: Catalog, matcher: VisualMatcher, labeler: LabelPredictor? = nil) {
        self.catalog = catalog
        self.matcher = matcher
        self.labeler = labeler
        let store = SnapshotStore()
        let snapshot = store.publish(catalog)
        self.query = VisualSearchQuery(snapshot: snapshot, store: store, matcher: matcher, labeler: labeler)
        self.decoding = matcher.configuration.queryDecoding
    }

    /// Matches one encoded picture.
    public func match(bytes: [UInt8], path: String, limit: Int) async throws(BatchError) -> MatchOutcome {
        let image = try decode(bytes, path: path)
        do {
            return outcome(try await query.search(SemanticContentDescriptor(pixelBuffer: image), limit: limit))
        } catch {
            throw .matchFailed(path: path, reason: "\(error)")
        }
    }

    /// Runs one query and reports the time of each stage.
    public func timedQuery(bytes: [UInt8], path: String, limit: Int) async throws(BatchError) -> [QueryStage: Duration] {
        let clock = ContinuousClock()
        let start = clock.now
        let image = try decode(bytes, path: path)
        let decoded = clock.now
        let page: VisualSearchPage
        do {
            page = try await query.search(SemanticContentDescriptor(pixelBuffer: image), limit: limit)
        } catch {
            throw .matchFailed(path: path, reason: "\(error)")
        }
        let end = clock.now
        var stages: [QueryStage: Duration] = [.decode: decoded - start, .query: end - start]
        stages[.features] = page.timings["features"]
        stages[.search] = page.timings["shortlist"]
        stages[.verification] = page.timings["verification"]
        stages[.featurePrint] = page.timings["featureprint"]
        if labeler != nil {
            // Labels run after matching inside the search; what is left of the search time is theirs
            // (plus ranking, which is negligible).
            let matching = [QueryStage.features, .search, .verification, .featurePrint].compactMap { stages[$0] }
                .reduce(Duration.zero, +)
            stages[.labels] = max(.zero, (end - decoded) - matching)
        }
        return stages
    }

    private func decode(_ bytes: [UInt8], path: String) throws(BatchError) -> PixelBuffer {
        do {
            return try ImageDecoder.decode(bytes, options: decoding).pixelBuffer
        } catch {
            switch error {
            case .empty, .unsupportedFormat: throw .notAnImage(path: path, reason: error.description)
            default: throw .badImage(path: path, reason: error.description)
            }
        }
    }

    /// The record fields of a search page: a place is the accepted match when the page's evidence
    /// says it matched itself.
    private func outcome(_ page: VisualSearchPage) -> MatchOutcome {
        var results: [RankedEntity] = []
        var best: RankedEntity?
        for item in page.items {
            let id = item.result.entityIdentifierString
            let ranked = RankedEntity(
                type: item.result.typeName, id: id, title: item.result.displayRepresentation.title, score: item.score,
                reason: item.reason.description)
            if best == nil, case .place = item.result, item.reason.matchedPlaceID == id { best = ranked }
            results.append(ranked)
        }
        let labels = page.labels.map { MatchLabel(name: $0.label, confidence: $0.score) }
        return MatchOutcome(results: results, best: best, labels: labels)
    }
}
