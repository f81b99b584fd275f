public import GlimpseImage

/// Why labelled photos could not be turned into a model.
public struct LabelBuildError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the photo, and what to do.
    public let description: String

    package init(_ description: String) { self.description = description }
}

/// How label code reads photos: decoded upright, reduced to at most 640 pixels on the long side (the
/// features only look at a 160-pixel copy, so this changes nothing but speed).
public enum LabelImageLoader {
    /// The decoding options used for references and queries alike.
    public static let options = DecodingOptions(maxDimension: 640)

    /// The pixels of the image file at `path`.
    public static func load(_ path: String) throws(ImageDecodingError) -> PixelBuffer {
        try ImageDecoder.decode(contentsOfFile: path, options: options).pixelBuffer
    }
}

/// Builds a ``LabelModel`` from labelled photos: no training, only feature vectors and a calibrated
/// vote, so a new labelled photo takes effect at the next build.
public struct LabelModelBuilder: Sendable {
    /// The feature extractor whose vectors the model stores.
    public let extractor: any ImageFeatureExtractor
    /// The views (whole photo and crops) of each photo stored as references.
    public let views: ReferenceViews

    /// Creates a builder; the defaults are those of the committed model.
    public init(extractor: any ImageFeatureExtractor = FeatureExtractors.standard, views: ReferenceViews = .none) {
        self.extractor = extractor
        self.views = views
    }

    /// For each photo, in order, the feature vectors of its views (the whole photo first), decoding
    /// `concurrency` photos at a time. `views` defaults to the builder's.
    ///
    /// - Throws: ``LabelBuildError`` naming the first photo that cannot be decoded.
    public func features(
        of photos: [LabelledPhoto], views: ReferenceViews? = nil, concurrency: Int = 2
    ) async throws(LabelBuildError) -> [[[Float]]] {
        let paths = photos.map(\.path)
        let extractor = self.extractor
        let views = views ?? self.views
        return try await Self.concurrentMap(paths, concurrency: concurrency) { (path) throws(LabelBuildError) -> [[Float]] in
            do {
                return views.views(of: try LabelImageLoader.load(path)).map { extractor.features(of: $0) }
            } catch {
                throw LabelBuildError("cannot decode labelled photo \(path): \(error); fix or remove it from its "
                    + "labels.json or catalog.json")
            }
        }
    }

    /// A model of `photos`, whose view `features` were computed by this builder's extractor, with `vote`
    /// or, when `vote` is `nil`, the vote settings that maximise leave-one-out micro F1 over the photos
    /// (each photo labelled with all views of itself left out).
    ///
    /// - Returns: the model and the leave-one-out micro F1 of its vote settings.
    public func build(
        vocabulary: [String], photos: [LabelledPhoto], features: [[[Float]]], vote: VoteParameters? = nil
    ) throws(LabelBuildError) -> (model: LabelModel, leaveOneOutF1: Double) {
        let built = try assemble(vocabulary: vocabulary, photos: photos, features: features, vote: vote)
        return (built.model, built.leaveOneOutF1)
    }

    /// A model with what evaluation reuses: where each photo's views are, and the leave-one-out table.
    package struct Assembled {
        package let model: LabelModel
        package let leaveOneOutF1: Double
        /// Reference positions of each photo's views.
        package let positions: [[Int]]
        /// Each photo's nearest references, all its own views left out.
        package let table: NeighbourTable
        /// Each photo's label indices.
        package let truth: [[Int]]
    }

    package func assemble(
        vocabulary: [String], photos: [LabelledPhoto], features: [[[Float]]], vote: VoteParameters?
    ) throws(LabelBuildError) -> Assembled {
        guard photos.count == features.count, !photos.isEmpty, features.allSatisfy({ !$0.isEmpty }) else {
            throw LabelBuildError("\(photos.count) photos but \(features.count) feature sets; need one per photo")
        }
        let index = Dictionary(vocabulary.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
        let descriptor = extractor.descriptor
        var references: [LabelledReference] = []
        var positions: [[Int]] = []
        var truth: [[Int]] = []
        var vectors: [Float] = []
        for (photo, views) in zip(photos, features) {
            var labels: [Int] = []
            for label in photo.labels {
                guard let position = index[label] else {
                    throw LabelBuildError("photo \(photo.id) has label \"\(label)\", which is not in the vocabulary")
                }
                labels.append(position)
            }
            let reference = LabelledReference(id: photo.id, labels: labels)
            truth.append(reference.labels)
            var mine: [Int] = []
            for view in views {
                guard view.count == descriptor.rows * descriptor.dimension else {
                    throw LabelBuildError("a feature vector of \(photo.id) does not have the extractor's "
                        + "\(descriptor.rows) × \(descriptor.dimension) values")
                }
                mine.append(references.count)
                references.append(reference)
                vectors += view
            }
            positions.append(mine)
        }
        let table: NeighbourTable
        do {
            table = try NeighbourTable(queries: features.map { $0[0] }, excluded: positions.map(Set.init),
                                       vectors: vectors, dimension: descriptor.dimension, rows: descriptor.rows,
                                       depth: VoteCalibration.depth)
        } catch {
            throw LabelBuildError("cannot index the feature vectors: \(error)")
        }
        let chosen = vote ?? VoteCalibration.calibrate(
            table: table, truth: truth, references: references, labelCount: vocabulary.count,
            subset: Array(photos.indices)).vote
        var metrics = LabelMetrics()
        VoteCalibration.evaluate(table: table, truth: truth, references: references, vocabulary: vocabulary,
                                 subset: Array(photos.indices), vote: chosen, into: &metrics)
        do {
            let model = try LabelModel(featureExtractor: extractor, vote: chosen, vocabulary: vocabulary,
                                       references: references, vectors: vectors)
            return Assembled(model: model, leaveOneOutF1: metrics.micro.f1, positions: positions, table: table,
                             truth: truth)
        } catch {
            throw LabelBuildError("\(error)")
        }
    }

    /// `transform` applied to every element, at most `concurrency` at a time, results in input order.
    static func concurrentMap<T: Sendable, R: Sendable>(
        _ items: [T], concurrency: Int, _ transform: @escaping @Sendable (T) throws(LabelBuildError) -> R
    ) async throws(LabelBuildError) -> [R] {
        var results = [R?](repeating: nil, count: items.count)
        let outcome: Result<Void, LabelBuildError> = await withTaskGroup(of: (Int, Result<R, LabelBuildError>).self) { group in
            var next = 0
            func launch() {
                let index = next
                let item = items[index]
                next += 1
                group.addTask { (index, Result { () throws(LabelBuildError) -> R in try transform(item) }) }
            }
            while next < min(items.count, max(1, concurrency)) { launch() }
            while let (index, result) = await group.next() {
                switch result {
                case .success(let value): results[index] = value
                case .failure(let error):
                    group.cancelAll()
                    return .failure(error)
                }
                if next < items.count { launch() }
            }
            return .success(())
        }
        try outcome.get()
        return results.compactMap { $0 }
    }
}
