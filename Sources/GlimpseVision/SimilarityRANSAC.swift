import Foundation
import GlimpseBasics

/// A similarity transform of the plane (rotation, uniform scale, translation):
/// `x' = a·x − b·y + tx`, `y' = b·x + a·y + ty`.
public struct SimilarityTransform: Sendable, Equatable {
    /// `scale × cos(rotation)`.
    public var a: Double
    /// `scale × sin(rotation)`.
    public var b: Double
    /// Horizontal shift.
    public var tx: Double
    /// Vertical shift.
    public var ty: Double

    /// Creates a transform from its four parameters.
    public init(a: Double, b: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.tx = tx
        self.ty = ty
    }

    /// The uniform scale factor.
    public var scale: Double { (a * a + b * b).squareRoot() }

    /// Maps a point.
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x - b * y + tx, b * x + a * y + ty)
    }

    /// The transform that undoes this one, or nil when this one collapses the plane (scale 0).
    public var inverse: SimilarityTransform? {
        let d = a * a + b * b
        guard d > 1e-18, d.isFinite else { return nil }
        let ia = a / d, ib = -b / d
        return SimilarityTransform(a: ia, b: ib, tx: -(ia * tx - ib * ty), ty: -(ib * tx + ia * ty))
    }

    /// The transform taking `p1 → q1` and `p2 → q2`, or nil when `p1` and `p2` coincide.
    public static func through(
        _ p1: (Double, Double), _ p2: (Double, Double), to q1: (Double, Double), _ q2: (Double, Double)
    ) -> SimilarityTransform? {
        let dx = p2.0 - p1.0, dy = p2.1 - p1.1
        let ex = q2.0 - q1.0, ey = q2.1 - q1.1
        let d = dx * dx + dy * dy
        guard d > 1e-9 else { return nil }
        let a = (dx * ex + dy * ey) / d
        let b = (dx * ey - dy * ex) / d
        return SimilarityTransform(a: a, b: b, tx: q1.0 - (a * p1.0 - b * p1.1), ty: q1.1 - (b * p1.0 + a * p1.1))
    }

    /// The least-squares similarity over point pairs, or nil for fewer than two distinct points.
    public static func leastSquares(_ from: [(Double, Double)], _ to: [(Double, Double)]) -> SimilarityTransform? {
        let n = Double(from.count)
        guard from.count >= 2, from.count == to.count else { return nil }
        var mx = 0.0, my = 0.0, nx = 0.0, ny = 0.0
        for i in from.indices {
            mx += from[i].0; my += from[i].1; nx += to[i].0; ny += to[i].1
        }
        mx /= n; my /= n; nx /= n; ny /= n
        var sxx = 0.0, sab = 0.0, sba = 0.0
        for i in from.indices {
            let px = from[i].0 - mx, py = from[i].1 - my
            let qx = to[i].0 - nx, qy = to[i].1 - ny
            sxx += px * px + py * py
            sab += px * qx + py * qy
            sba += px * qy - py * qx
        }
        guard sxx > 1e-9 else { return nil }
        let a = sab / sxx, b = sba / sxx
        return SimilarityTransform(a: a, b: b, tx: nx - (a * mx - b * my), ty: ny - (b * mx + a * my))
    }
}

/// RANSAC estimation of a ``SimilarityTransform`` from putative point correspondences.
public enum SimilarityRANSAC {
    /// The outcome: the model and which correspondences agree with it.
    public struct Result: Sendable {
        /// The refined transform (query → reference).
        public let transform: SimilarityTransform
        /// Indices of the correspondences within the threshold.
        public let inliers: [Int]
    }

    /// Fits a similarity from `from[i] → to[i]` that the most pairs agree with.
    ///
    /// - Parameters:
    ///   - threshold: the largest reprojection error (in `to` units) of an inlier.
    ///   - scaleRange: models whose scale falls outside are rejected.
    ///   - iterations: the most hypotheses tried (fewer when a large consensus is found early).
    ///   - seed: makes the sampling, and so the result, deterministic.
    /// - Returns: nil when fewer than two pairs, or no hypothesis gathers at least two inliers.
    public static func estimate(
        from: [(Double, Double)], to: [(Double, Double)], threshold: Double,
        scaleRange: ClosedRange<Double>, iterations: Int, seed: UInt64 = 0x5241_4e53
    ) -> Result? {
        let n = min(from.count, to.count)
        guard n >= 2 else { return nil }
        var rng = SeededGenerator(seed: seed)
        let t2 = threshold * threshold
        var bestCount = 0
        var bestModel: SimilarityTransform?
        var maxIterations = iterations
        var iteration = 0
        let minSeparation2 = (threshold * 2) * (threshold * 2)
        while iteration < maxIterations {
            iteration += 1
            let i = Int(rng.next() % UInt64(n))
            var j = Int(rng.next() % UInt64(n - 1))
            if j >= i { j += 1 }
            let dx = from[i].0 - from[j].0, dy = from[i].1 - from[j].1
            if dx * dx + dy * dy < minSeparation2 { continue }
            guard let m = SimilarityTransform.through(from[i], from[j], to: to[i], to[j]) else { continue }
            let s = m.scale
            guard scaleRange.contains(s) else { continue }
            var count = 0
            for k in 0..<n {
                let px = m.a * from[k].0 - m.b * from[k].1 + m.tx - to[k].0
                let py = m.b * from[k].0 + m.a * from[k].1 + m.ty - to[k].1
                if px * px + py * py <= t2 { count += 1 }
            }
            if count > bestCount {
                bestCount = count
                bestModel = m
                // Adaptive stop for 99 % confidence of sampling an all-inlier pair.
                let w = Double(count) / Double(n)
                let denom = log1p(-w * w)
                if denom < 0 {
                    let needed = Int((log(0.01) / denom).rounded(.up))
                    maxIterations = min(maxIterations, max(needed, 20))
                }
            }
        }
        guard var model = bestModel, bestCount >= 2 else { return nil }
        var inliers = Self.inliers(model, from, to, t2)
        // Two refinement rounds: least squares on the inliers, then re-collect.
        for _ in 0..<2 {
            guard let refined = SimilarityTransform.leastSquares(inliers.map { from[$0] }, inliers.map { to[$0] }),
                  scaleRange.contains(refined.scale) else { break }
            let next = Self.inliers(refined, from, to, t2)
            if next.count < inliers.count { break }
            model = refined
            inliers = next
        }
        return Result(transform: model, inliers: inliers)
    }

    static func inliers(
        _ m: SimilarityTransform, _ from: [(Double, Double)], _ to: [(Double, Double)], _ t2: Double
    ) -> [Int] {
        var out: [Int] = []
        for k in 0..<min(from.count, to.count) {
            let px = m.a * from[k].0 - m.b * from[k].1 + m.tx - to[k].0
            let py = m.b * from[k].0 + m.a * from[k].1 + m.ty - to[k].1
            if px * px + py * py <= t2 { out.append(k) }
        }
        return out
    }
}
