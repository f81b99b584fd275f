import GlimpseBasics
public import GlimpseCatalog
import GlimpseImage
public import GlimpseVision

/// Measures how the real visual query (LSH shortlist over binary descriptors, then geometric
/// verification) slows down as the catalog grows: the catalog's own references plus synthetic ones,
/// which crowd the shortlist like real photos but never verify. They are ``Distractors`` of real photos
/// of no catalog place when ``distractors`` is set (their keypoints: the query runs on keypoints), else
/// ``SyntheticReferences`` (the catalog's own descriptors, perturbed, at random positions).
public struct VisualScaleBench: Sendable {
    /// Catalog sizes, in references (the real ones included).
    public var sizes: [Int]
    /// Catalog photos used as queries (each should match itself).
    public var queries: Int
    /// Sizes whose descriptors would exceed this many are skipped (memory and build time).
    public var maxDescriptors: Int
    /// Where the synthetic references come from; `nil`: ``SyntheticReferences`` of the catalog.
    public var distractors: Distractors?

    /// Creates a visual scale benchmark.
    public init(
        sizes: [Int] = [1_000, 10_000, 100_000, 1_000_000], queries: Int = 20, maxDescriptors: Int = 12_000_000,
        distractors: Distractors? = nil
    ) {
        self.sizes = sizes
        self.queries = max(1, queries)
        self.maxDescriptors = maxDescriptors
        self.distractors = distractors
    }

    /// Runs every size over `catalog`, smallest first.
    ///
    /// - Throws: ``VisionError`` when a catalog photo cannot be decoded.
    public func run(catalog: Catalog, progress: (String) -> Void = { _ in }) throws -> [ScaleRow] {
        progress("extracting the features of \(catalog.places.count) catalog photos")
        let photos = catalog.places.map { ReferencePhoto(id: $0.id, path: $0.photoPath) }
        let real = try ReferenceLoader.load(photos: photos).references
        let perReference = max(1, real.map(\.features.count).reduce(0, +) / max(1, real.count))
        let probes = try catalog.places.prefix(queries).map { place in
            (id: place.id, image: FeatureExtractor.prepare(
                try ImageDecoder.decode(contentsOfFile: place.photoPath, options: VisionConfiguration.default.queryDecoding).pixelBuffer,
                query: true))
        }
        var rows: [ScaleRow] = []
        let clock = ContinuousClock()
        for size in sizes.sorted() {
            let descriptors = size * perReference
            guard descriptors <= maxDescriptors else {
                rows.append(ScaleRow(
                    index: "visual", references: size, dimension: 256,
                    skipped: "\(descriptors) descriptors (\(perReference) per reference) is over the "
                        + "\(maxDescriptors) budget for memory and build time on this machine"))
                continue
            }
            progress("visual matcher, \(size) references: building")
            let extra = max(0, size - real.count)
            let synthetic = distractors.map { made in
                made.make(0..<extra).map { (id: $0.id, features: $0.features.with(featurePrints: [])) }
            } ?? SyntheticReferences.make(from: real, count: extra)
            var start = clock.now
            let matcher = VisualMatcher(references: real + synthetic)
            let build = (clock.now - start).seconds
            progress("visual matcher, \(size) references: \(probes.count) queries")
            var recorder = LatencyRecorder()
            var hits = 0
            _ = matcher.match(prepared: probes[0].image)
            start = clock.now
            for probe in probes {
                let t0 = clock.now
                let report = matcher.match(prepared: probe.image, limit: 5)
                recorder.record(clock.now - t0)
                if report.accepted?.referenceID == probe.id { hits += 1 }
            }
            rows.append(ScaleRow(
                index: "visual", references: size, dimension: 256, buildSeconds: build,
                recall: Double(hits) / Double(probes.count),
                latency: recorder.summary(seconds: (clock.now - start).seconds)))
        }
        return rows
    }
}
