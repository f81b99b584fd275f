import Foundation
import GlimpseBasics

/// The rotated-BRIEF sampling pattern: 256 point pairs inside a circle of radius 15, drawn from
/// an isotropic Gaussian (σ = 31/5) by a seeded generator, pre-rotated into angle bins.
struct BRIEFPattern: Sendable {
    /// Number of orientation bins the pattern is pre-rotated into.
    static let angleBins = 64
    /// Radius of the sampling disc in pixels.
    static let radius = 15

    /// `angleBins × 256 × 4` offsets: for each bin and bit, (x1, y1, x2, y2).
    let offsets: [Int8]
    /// The same offsets laid out for the descriptor kernel: for each bin, the 256 x1, then the 256 y1, x2
    /// and y2.
    let planar: [Int8]

    init(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let sigma = 31.0 / 5.0
        let r = Double(Self.radius)
        var pairs: [(Double, Double, Double, Double)] = []
        pairs.reserveCapacity(256)
        func point() -> (Double, Double) {
            while true {
                let (a, b) = rng.gaussianPair()
                let x = a * sigma, y = b * sigma
                // Stay inside a slightly smaller disc so the rounded, rotated point stays within radius 15.
                if x * x + y * y <= (r - 0.75) * (r - 0.75) { return (x, y) }
            }
        }
        while pairs.count < 256 {
            let p = point(), q = point()
            if abs(p.0 - q.0) + abs(p.1 - q.1) < 2 { continue }
            pairs.append((p.0, p.1, q.0, q.1))
        }
        var offsets = [Int8](repeating: 0, count: Self.angleBins * 256 * 4)
        for bin in 0..<Self.angleBins {
            let angle = Double(bin) * 2 * Double.pi / Double(Self.angleBins)
            let c = cos(angle), s = sin(angle)
            for (i, pr) in pairs.enumerated() {
                let o = (bin * 256 + i) * 4
                offsets[o] = Int8((c * pr.0 - s * pr.1).rounded())
                offsets[o + 1] = Int8((s * pr.0 + c * pr.1).rounded())
                offsets[o + 2] = Int8((c * pr.2 - s * pr.3).rounded())
                offsets[o + 3] = Int8((s * pr.2 + c * pr.3).rounded())
            }
        }
        self.offsets = offsets
        var planar = [Int8](repeating: 0, count: offsets.count)
        for bin in 0..<Self.angleBins {
            for bit in 0..<256 {
                for coordinate in 0..<4 {
                    planar[bin * 1024 + coordinate * 256 + bit] = offsets[(bin * 256 + bit) * 4 + coordinate]
                }
            }
        }
        self.planar = planar
    }

    /// The bin whose rotation is nearest to `angle` radians.
    static func bin(for angle: Float) -> Int {
        let turns = Double(angle) / (2 * Double.pi)
        let b = Int((turns * Double(angleBins)).rounded()) % angleBins
        return b < 0 ? b + angleBins : b
    }
}

extension SeededGenerator {
    /// A uniform double in (0, 1): the top 53 bits of the next value, centred in their interval.
    mutating func unit() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }

    /// Two independent standard normal samples (Box–Muller), in double precision.
    mutating func gaussianPair() -> (Double, Double) {
        let u = unit(), v = unit()
        let m = (-2 * log(u)).squareRoot()
        return (m * cos(2 * Double.pi * v), m * sin(2 * Double.pi * v))
    }
}
