import GlimpseImage

/// Why labelled photos could not be turned into a model.
public struct LabelBuildError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the photo, and what to do.
    public let description: String

    init(_ description: String) { self.description = description }
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

    /// Creates a builder; the default extractor is the one new models use.
    public init(extractor: any ImageFeatureExtractor = FeatureExtractors.standard) {
        self.extractor = extractor
    }

    /// The feature vector of each photo, in order, decoding `concurrency` photos at a time.
    ///
    /// - Throws: ``LabelBuildError`` naming the first photo that cannot be decoded.
    public func features(of photos: [LabelledPhoto], concurrency: Int = 2) async throws(LabelBuildError) -> [[Float]] {
        let paths = photos.map(\.path)
        let extractor = self.extractor
        return try await Self.concurrentMap(paths, concurrency: concurrency) { (path) throws(LabelBuildError) -> [Float] in
            do {
                return extractor.features(of: try LabelImageLoader.load(path))
            } catch {
                throw LabelBuildError("cannot decode labelled photo \(path): \(error); fix or remove it from its "
                    + "labels.json or catalog.json")
            }
        }
    }

    /// A model of `photos` (whose `features` were computed by this builder's extractor), with `vote`
    /// or, when `vote` is `nil`, the vote settings that maximise leave-one-out micro F1 over the photos.
    ///
    /// - Returns: the model and the leave-one-out micro F1 of its vote settings.
    public func build(
        vocabulary: [String], photos: [LabelledPhoto], features: [[Float]], vote: VoteParameters? = nil
    ) throws(LabelBuildError) -> (model: LabelModel, leaveOneOutF1: Double) {
        guard photos.count == features.count, !photos.isEmpty else {
            throw LabelBuildError("\(photos.count) photos but \(features.count) feature vectors; need one per photo")
        }
        let position = Dictionary(vocabulary.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
        var references: [LabelledReference] = []
        for photo in photos {
            var labels: [Int] = []
            for label in photo.labels {
                guard let index = position[label] else {
                    throw LabelBuildError("photo \(photo.id) has label \"\(label)\", which is not in the vocabulary")
                }
                labels.append(index)
            }
            references.append(LabelledReference(id: photo.id, labels: labels))
        }
        let descriptor = extractor.descriptor
        let vectors = features.flatMap { $0 }
        guard features.allSatisfy({ $0.count == descriptor.rows * descriptor.dimension }) else {
            throw LabelBuildError("a feature vector does not have the extractor's \(descriptor.rows) × "
                + "\(descriptor.dimension) values")
        }
        let table: NeighbourTable
        do {
            table = try NeighbourTable(leaveOneOutOver: vectors, dimension: descriptor.dimension,
                                       rows: descriptor.rows, depth: VoteCalibration.depth)
        } catch {
            throw LabelBuildError("cannot index the feature vectors: \(error)")
        }
        let truth = references.map(\.labels)
        let calibrated = VoteCalibration.calibrate(
            table: table, truth: truth, references: references, labelCount: vocabulary.count,
            subset: Array(references.indices))
        let chosen = vote ?? calibrated.vote
        var metrics = LabelMetrics()
        VoteCalibration.evaluate(table: table, truth: truth, references: references, vocabulary: vocabulary,
                                 subset: Array(references.indices), vote: chosen, into: &metrics)
        do {
            let model = try LabelModel(featureExtractor: extractor, vote: chosen, vocabulary: vocabulary,
                                       references: references, vectors: vectors)
            return (model, metrics.micro.f1)
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
