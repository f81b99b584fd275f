import Foundation
import GlimpseBasics
import GlimpseCatalog
import GlimpseEngine
import GlimpseFeaturePrint
import GlimpseImage
import GlimpseVision

/// Whether distractors (``Distractors``) sit as close to real pictures as real photos of other places do
/// (`glimpse eval --check-distractors`): for each probe — a real photo of no catalog place — its best
/// print similarity to the catalog's photos, against its best similarity to each of `samples` sets of as
/// many distractors, made from the catalog's photos or from `--distractor-pool`'s. Realistic distractors
/// give the two distributions the same shape; distractors that are too easy lie lower, too hard higher.
///
/// With a pool, the probes are also compared with sets of as many of the pool's own real photos. That
/// separates the two causes of a gap: distractors far from the real pool photos mean the generator is
/// off; real pool photos as far from the catalog's as the distractors mean the pool's kind of picture
/// differs from the catalog's (landscapes against landmarks), which only another pool can change.
struct DistractorCheck: Encodable {
    /// Three quantiles of a distribution of best similarities.
    struct Quantiles: Encodable {
        var p10: Double
        var p50: Double
        var p90: Double

        init(_ values: [Float]) {
            let sorted = values.map(Double.init).sorted()
            p10 = LatencySummary.percentile(sorted, 0.1)
            p50 = LatencySummary.percentile(sorted, 0.5)
            p90 = LatencySummary.percentile(sorted, 0.9)
        }

        /// The largest gap between matching quantiles.
        func gap(to other: Quantiles) -> Double {
            max(abs(p10 - other.p10), abs(p50 - other.p50), abs(p90 - other.p90))
        }
    }

    /// The pass line: quantiles within this much of each other…
    static let quantileTolerance = 0.03
    /// …and a Kolmogorov–Smirnov statistic at most this.
    static let largestKS = 0.15

    var probes: Int
    var catalogPhotos: Int
    var samples: Int
    var seed: UInt64
    var catalog: Quantiles
    var distractors: Quantiles
    var quantileGap: Double
    var kolmogorovSmirnov: Double
    var passes: Bool
    /// With a pool: the probes' best similarities to sets of the pool's real photos.
    var realPool: Quantiles?
    /// With a pool: the largest quantile gap between the distractors and the real pool photos.
    var generatorGap: Double?
    /// With a pool: the Kolmogorov–Smirnov statistic of the distractors against the real pool photos.
    var generatorKolmogorovSmirnov: Double?

    enum CodingKeys: String, CodingKey {
        case probes, samples, seed, catalog, distractors, passes
        case catalogPhotos = "catalog_photos"
        case quantileGap = "quantile_gap"
        case kolmogorovSmirnov = "kolmogorov_smirnov"
        case realPool = "real_pool"
        case generatorGap = "generator_gap"
        case generatorKolmogorovSmirnov = "generator_kolmogorov_smirnov"
    }

    /// Runs the check of `probes` against `references` (the catalog's features, with prints) and
    /// `samples` sets of as many distractors made with `seed` from `pool` (the references when `nil`), and
    /// with a pool, against `samples` sets of as many of its photos (all of them when it has fewer), drawn
    /// with `seed`.
    static func run(
        references: [ImageFeatures], pool: [ImageFeatures]?, probes: [FeaturePrint], seed: UInt64, samples: Int = 10
    ) throws -> DistractorCheck {
        let distractors = try Distractors(pool: pool ?? references, seed: seed)
        let size = references.count
        let toCatalog = Distractors.bestSimilarities(of: probes, to: references)
        var toDistractors: [Float] = []
        for sample in 0..<samples {
            let set = distractors.make((sample * size)..<((sample + 1) * size)).map(\.features)
            toDistractors += Distractors.bestSimilarities(of: probes, to: set)
        }
        let catalog = Quantiles(toCatalog), made = Quantiles(toDistractors)
        let gap = catalog.gap(to: made)
        let ks = Distractors.kolmogorovSmirnov(toCatalog, toDistractors)
        var check = DistractorCheck(
            probes: probes.count, catalogPhotos: size, samples: samples, seed: seed, catalog: catalog, distractors: made,
            quantileGap: gap, kolmogorovSmirnov: ks, passes: gap <= quantileTolerance && ks <= largestKS)
        if let pool {
            var generator = SeededGenerator(seed: seed)
            var toPool: [Float] = []
            for _ in 0..<samples {
                toPool += Distractors.bestSimilarities(of: probes, to: Array(pool.shuffled(using: &generator).prefix(size)))
            }
            let real = Quantiles(toPool)
            check.realPool = real
            check.generatorGap = made.gap(to: real)
            check.generatorKolmogorovSmirnov = Distractors.kolmogorovSmirnov(toPool, toDistractors)
        }
        return check
    }

    /// The check as lines of text.
    var text: String {
        func row(_ name: String, _ q: Quantiles) -> String {
            name + String(format: "  p10 %.3f  p50 %.3f  p90 %.3f", q.p10, q.p50, q.p90)
        }
        return """
            distractor check: \(probes) photos of no catalog place, best print similarity
            \(row("  to the \(catalogPhotos) catalog photos:        ", catalog))
            \(row("  to \(samples) sets of \(catalogPhotos) distractors (seed \(seed)):", distractors))
              largest quantile gap \(String(format: "%.3f", quantileGap)) (line \(Self.quantileTolerance)), \
            Kolmogorov-Smirnov D \(String(format: "%.3f", kolmogorovSmirnov)) (line \(Self.largestKS)): \
            \(passes ? "realistic" : "NOT realistic")
            """ + poolText(row)
    }

    /// With a pool, the row of its real photos and how the distractors compare with them.
    private func poolText(_ row: (String, Quantiles) -> String) -> String {
        guard let realPool, let generatorGap, let generatorKolmogorovSmirnov else { return "" }
        return "\n" + row("  to \(samples) sets of \(catalogPhotos) real pool photos:   ", realPool) + "\n"
            + "  distractors against the real pool photos: largest quantile gap "
            + String(format: "%.3f", generatorGap) + ", Kolmogorov-Smirnov D "
            + String(format: "%.3f", generatorKolmogorovSmirnov)
    }
}

extension EvalCommand {
    /// `--check-distractors`: the catalog's features (from the feature cache), the prints of the
    /// manifest's photos, and ``DistractorCheck``.
    func runDistractorCheck(_ loaded: Engine, places: [PlaceEntity], vision: VisionConfiguration, entries: [ManifestEntry]) async throws {
        guard let printer = loaded.featurePrinter else {
            throw IntentsCommandError("--check-distractors needs the feature-print model (Models/featureprint.glimpsemodel)")
        }
        let references = try catalogReferences(places: places, vision: vision, printer: printer).map(\.features)
        var probes: [FeaturePrint] = []
        for entry in entries where entry.placeID == nil {
            let buffer = try ImageDecoder.decode(contentsOfFile: entry.path, options: loaded.decodingOptions).pixelBuffer
            probes.append(try printer.featurePrint(of: buffer))
        }
        guard !probes.isEmpty else { throw IntentsCommandError("the manifest lists no photo of no catalog place (place_id null)") }
        let pool = try distractorPoolFeatures(vision: vision, printer: printer)
        let check = try DistractorCheck.run(references: references, pool: pool, probes: probes, seed: Distractors.measurementSeed)
        try report(check, text: check.text)
    }
}
