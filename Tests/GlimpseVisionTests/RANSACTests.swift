import Foundation
import Testing
@testable import GlimpseVision

@Suite struct RANSACTests {
    /// Points under a known similarity, plus uniformly random outliers.
    static func scene(
        truth: SimilarityTransform, inliers: Int, outliers: Int, noise: Double, seed: UInt64
    ) -> (from: [(Double, Double)], to: [(Double, Double)]) {
        var rng = TestRandom(state: seed)
        var from: [(Double, Double)] = [], to: [(Double, Double)] = []
        for _ in 0..<inliers {
            let p = (rng.unit() * 600, rng.unit() * 400)
            let q = truth.apply(p.0, p.1)
            from.append(p)
            to.append((q.x + (rng.unit() - 0.5) * 2 * noise, q.y + (rng.unit() - 0.5) * 2 * noise))
        }
        for _ in 0..<outliers {
            from.append((rng.unit() * 600, rng.unit() * 400))
            to.append((rng.unit() * 640, rng.unit() * 480))
        }
        return (from, to)
    }

    @Test(arguments: [(0.0, 1.0), (20.0, 0.7), (-25.0, 1.6), (170.0, 2.5)])
    func recoversKnownTransform(degrees: Double, scale: Double) throws {
        let a = degrees * .pi / 180
        let truth = SimilarityTransform(a: scale * cos(a), b: scale * sin(a), tx: 35, ty: -20)
        let s = Self.scene(truth: truth, inliers: 60, outliers: 90, noise: 1.0, seed: 42)
        let result = try #require(SimilarityRANSAC.estimate(
            from: s.from, to: s.to, threshold: 4, scaleRange: 0.2...5, iterations: 500))
        #expect(abs(result.transform.scale - scale) < 0.02 * scale)
        #expect(abs(result.transform.a - truth.a) < 0.03 && abs(result.transform.b - truth.b) < 0.03)
        let trueInliers = Set(0..<60)
        let found = Set(result.inliers)
        #expect(found.intersection(trueInliers).count >= 57)
        #expect(found.subtracting(trueInliers).count <= 3)
    }

    @Test func randomCorrespondencesGatherFewInliers() {
        let s = Self.scene(truth: SimilarityTransform(a: 1, b: 0, tx: 0, ty: 0), inliers: 0, outliers: 200, noise: 0, seed: 9)
        let result = SimilarityRANSAC.estimate(from: s.from, to: s.to, threshold: 4, scaleRange: 0.2...5, iterations: 500)
        #expect((result?.inliers.count ?? 0) < 8)
    }

    @Test func scaleOutsideRangeIsRejected() {
        let truth = SimilarityTransform(a: 8, b: 0, tx: 0, ty: 0)
        let s = Self.scene(truth: truth, inliers: 40, outliers: 0, noise: 0, seed: 10)
        let result = SimilarityRANSAC.estimate(from: s.from, to: s.to, threshold: 4, scaleRange: 0.2...5, iterations: 300)
        #expect(result == nil)
    }

    @Test func deterministic() {
        let truth = SimilarityTransform(a: 0.9, b: 0.2, tx: 5, ty: 7)
        let s = Self.scene(truth: truth, inliers: 30, outliers: 60, noise: 1.5, seed: 11)
        let r1 = SimilarityRANSAC.estimate(from: s.from, to: s.to, threshold: 4, scaleRange: 0.2...5, iterations: 300)
        let r2 = SimilarityRANSAC.estimate(from: s.from, to: s.to, threshold: 4, scaleRange: 0.2...5, iterations: 300)
        #expect(r1?.inliers == r2?.inliers)
        #expect(r1?.transform == r2?.transform)
    }

    @Test func leastSquaresIsExactOnCleanPoints() throws {
        let truth = SimilarityTransform(a: 1.2, b: -0.5, tx: 10, ty: 3)
        let from = [(0.0, 0.0), (100.0, 0.0), (0.0, 50.0), (30.0, 70.0)]
        let to = from.map { p in let q = truth.apply(p.0, p.1); return (q.x, q.y) }
        let fit = try #require(SimilarityTransform.leastSquares(from, to))
        #expect(abs(fit.a - truth.a) < 1e-9 && abs(fit.b - truth.b) < 1e-9)
        #expect(abs(fit.tx - truth.tx) < 1e-6 && abs(fit.ty - truth.ty) < 1e-6)
        #expect(SimilarityTransform.leastSquares([(1, 1), (1, 1)], [(0, 0), (2, 2)]) == nil)
    }
}
