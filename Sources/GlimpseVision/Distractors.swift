import Foundation
import Synchronization
import GlimpseBasics
public import GlimpseFeaturePrint

/// Made-up reference photos for measuring search at a catalog size one does not have, built from the
/// features of real photos so that they sit as close to real pictures as real photos of other places do,
/// while never being a right answer.
///
/// Distractor *i* depends only on the pool, the seed and *i* (its generator is seeded with both), so a
/// set of any size is made in any order, on any number of threads, and resumed anywhere. From the pool
/// it draws three distinct photos *a*, *b*, *c* and a target similarity *t* from ``targets`` — the
/// similarity of each pool photo to its nearest other pool photo, the distance at which real photos of
/// other places lie. Then:
/// - **prints**: each view *v* is the mix `unit(α·aᵥ + (1 − α)·b̃ᵥ)` of *aᵥ* and *bᵥ* with Gaussian
///   noise (clipped at 0, so non-negative like the network's prints), with α set so that it is as
///   similar to *aᵥ* as *a*'s nearest real neighbour is to *a* (or *b̃ᵥ* alone, when that is already
///   closer);
/// - **keypoints**: *c*'s keypoints (positions, levels, sizes, so the spread over the picture is real),
///   each with a descriptor of *a* (probability *t*) or *b*, every bit flipped with probability 1/8 (the
///   distance of a typical true match), so that they crowd the same descriptor neighbourhoods as real
///   photos while no geometry agrees with any query.
public struct Distractors: Sendable {
    /// The real photos' features distractors are made from (each with prints and keypoints).
    public let pool: [ImageFeatures]
    /// The seed every distractor's generator starts from.
    public let seed: UInt64
    /// For each pool photo, its whole-picture print's similarity to the nearest other pool photo's.
    public let targets: [Float]
    /// The size (expected length) of the Gaussian noise added to the print a distractor's prints lean
    /// towards, a unit vector: each of its `d` values gets noise of deviation `noise / √d`.
    public static let noise: Float = 0.1

    /// Why a pool cannot make distractors.
    public enum PoolError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Fewer than three photos have prints of one length and count, and keypoints.
        case tooFewSources(usable: Int)

        /// What is wrong and what to do.
        public var description: String {
            switch self {
            case .tooFewSources(let usable):
                "distractors need at least 3 photos with feature prints and keypoints, and \(usable) have them; "
                    + "give at least 3 photos, and a feature-print model to extract their prints"
            }
        }
    }

    /// A generator over the photos of `pool` that carry keypoints and prints like the first such photo's
    /// (the same number of views, of the same length); the others are left out.
    ///
    /// - Throws: ``PoolError/tooFewSources(usable:)`` when fewer than three remain.
    public init(pool: [ImageFeatures], seed: UInt64) throws(PoolError) {
        let shape = pool.first { $0.count > 0 && !$0.featurePrints.isEmpty }.map { ($0.featurePrints.count, $0.featurePrints[0].dimension) }
        let usable = pool.filter { features in
            guard let shape, features.count > 0, features.featurePrints.count == shape.0 else { return false }
            return features.featurePrints.allSatisfy { $0.dimension == shape.1 }
        }
        guard usable.count >= 3 else { throw .tooFewSources(usable: usable.count) }
        self.pool = usable
        self.seed = seed
        targets = usable.indices.map { i in
            usable.indices.lazy.filter { $0 != i }
                .map { usable[i].featurePrints[0].dot(usable[$0].featurePrints[0]) }.max() ?? 0
        }
    }

    /// The seed every measurement (`glimpse eval`'s checks and synthetic references, `glimpse bench
    /// --scale`) makes its distractors with, so that their figures describe the same references.
    public static let measurementSeed: UInt64 = 0x4449_5354

    /// The id of distractor `i`: `distractor-<i>`.
    public static func id(_ i: Int) -> String { "distractor-\(i)" }

    /// Distractors `range`, with their ids, made on `threads` threads (each distractor depends on its
    /// number alone, so the result is the same on any number).
    public func make(_ range: Range<Int>, threads: Int = 1) -> [(id: String, features: ImageFeatures)] {
        let parts = max(1, min(threads, range.count / 64))
        guard parts > 1 else { return range.map { (Self.id($0), distractor($0)) } }
        let made = Mutex([[(id: String, features: ImageFeatures)]](repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let lo = range.lowerBound + range.count * part / parts
            let hi = range.lowerBound + range.count * (part + 1) / parts
            let chunk = (lo..<hi).map { (Self.id($0), distractor($0)) }
            made.withLock { $0[part] = chunk }
        }
        return made.withLock { $0.flatMap { $0 } }
    }

    /// Distractor `i`.
    public func distractor(_ i: Int) -> ImageFeatures {
        var generator = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: i) &* 0x9E37_79B9_7F4A_7C15))
        let n = UInt64(pool.count)
        let a = Int(generator.next() % n)
        var b = Int(generator.next() % (n - 1))
        if b >= a { b += 1 }
        var c = Int(generator.next() % (n - 2))
        for taken in [a, b].sorted() where c >= taken { c += 1 }
        let t = targets[Int(generator.next() % UInt64(targets.count))]
        let (source, other, layout) = (pool[a], pool[b], pool[c])
        let prints = zip(source.featurePrints, other.featurePrints).map { toward, away in
            Self.print(near: toward.values, leaning: away.values, similarity: t, generator: &generator)
        }
        var words: [UInt64] = []
        words.reserveCapacity(layout.count * ImageFeatures.wordsPerDescriptor)
        let fromSource = UInt64(Double(max(0, min(1, t))) * Double(UInt64.max >> 11)) << 11
        for _ in 0..<layout.count {
            let donor = generator.next() < fromSource ? source : other
            let k = Int(generator.next() % UInt64(donor.count)) * ImageFeatures.wordsPerDescriptor
            for w in 0..<ImageFeatures.wordsPerDescriptor {
                // Each bit is flipped with probability 1/8.
                words.append(donor.descriptorWords[k + w] ^ (generator.next() & generator.next() & generator.next()))
            }
        }
        return ImageFeatures(width: layout.width, height: layout.height, keypoints: layout.keypoints,
                             descriptorWords: words, featurePrints: prints)
    }

    /// `unit(α·a + (1 − α)·b̃)`, with `b̃ = max(0, b + noise)` and `α` in 0...1 chosen so that the result's
    /// similarity to the unit vector `a` is `t` (`α = 0` when `b̃` alone is already as similar): a
    /// non-negative print between the two, at the target similarity to `a`.
    static func print(near a: [Float], leaning b: [Float], similarity t: Float, generator: inout SeededGenerator) -> FeaturePrint {
        var away = [Float](repeating: 0, count: a.count)
        let deviation = noise / Float(max(1, a.count)).squareRoot()
        for j in away.indices { away[j] = max(0, b[j] + deviation * gaussian(&generator)) }
        // With s = a·b̃ and q = |b̃|², the mix's similarity to a is (α + (1 − α)s) / |α·a + (1 − α)·b̃|,
        // rising with α from s/√q to 1: found by bisection.
        var s = 0.0, q = 0.0
        for j in a.indices {
            s += Double(a[j]) * Double(away[j])
            q += Double(away[j]) * Double(away[j])
        }
        func similarity(_ alpha: Double) -> Double {
            let along = alpha + (1 - alpha) * s
            let squared = alpha * alpha + 2 * alpha * (1 - alpha) * s + (1 - alpha) * (1 - alpha) * q
            return squared > 0 ? along / squared.squareRoot() : 1
        }
        let target = Double(max(0, min(1, t)))
        var low = 0.0, high = 1.0
        if similarity(0) < target {
            for _ in 0..<40 {
                let mid = (low + high) / 2
                if similarity(mid) < target { low = mid } else { high = mid }
            }
        } else {
            high = 0
        }
        let alpha = Float(high)
        var values = [Float](repeating: 0, count: a.count)
        for j in values.indices { values[j] = alpha * a[j] + (1 - alpha) * away[j] }
        return FeaturePrint(normalizing: values)
    }

    /// A standard normal value (Box–Muller).
    static func gaussian(_ generator: inout SeededGenerator) -> Float {
        let u1 = generator.nextOpenUnitDouble(), u2 = generator.nextOpenUnitDouble()
        return Float((-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }
}

extension Distractors {
    /// How close probe photos come to a set of pictures: for each probe print, the best similarity of its
    /// whole-picture print to any view of any of `candidates`.
    public static func bestSimilarities(of probes: [FeaturePrint], to candidates: [ImageFeatures]) -> [Float] {
        probes.map { probe in
            candidates.lazy.flatMap { $0.featurePrints }.filter { $0.dimension == probe.dimension }
                .map { probe.dot($0) }.max() ?? 0
        }
    }

    /// The two-sample Kolmogorov–Smirnov statistic of `a` and `b`: the largest distance between their
    /// empirical distribution functions, 0 for samples drawn alike, 1 for samples that do not overlap.
    public static func kolmogorovSmirnov(_ a: [Float], _ b: [Float]) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        let x = a.sorted(), y = b.sorted()
        var i = 0, j = 0, largest = 0.0
        while i < x.count && j < y.count {
            let value = min(x[i], y[j])
            while i < x.count && x[i] <= value { i += 1 }
            while j < y.count && y[j] <= value { j += 1 }
            largest = max(largest, abs(Double(i) / Double(x.count) - Double(j) / Double(y.count)))
        }
        return largest
    }
}
