import Foundation

/// What the features of an image's mirror image are derived from, kept by
/// ``FeatureExtractor/extractWithMirror(fromPrepared:configuration:)``: every pyramid level's smoothed
/// image, its described corners and their intensity moments.
///
/// Every step of extraction is symmetric under a left-right reflection (the pyramid, the FAST ring and
/// score, the Harris response, the binomial smoothing), so the mirror image has the same corners,
/// reflected; its orientation follows from the reflected moments `(−m10, m01)`; and its rotated-BRIEF
/// tests are the original tests with their horizontal offsets reflected, sampled on the same smoothed
/// level. Deriving them costs the descriptors alone, not a second extraction. They can differ from a
/// fresh extraction of the reflected picture only where ties are broken in scan order (equal FAST scores
/// in the non-maximum suppression, equal responses at a level's budget) and in last-bit rounding of the
/// pyramid's interpolation weights.
public struct MirrorSource: Sendable {
    /// One pyramid level's share.
    struct Level: Sendable {
        /// The level smoothed for the descriptor tests.
        let smooth: GrayImage
        /// The corners described on this level, in keypoint order.
        let corners: [FASTDetector.Corner]
        /// Each corner's intensity moments `(m10, m01)`.
        let moments: [SIMD2<Int32>]
        /// The level's index in the pyramid.
        let index: Int
        /// The level's scale relative to level 0.
        let scale: Float
    }

    /// Width of the extraction image (level 0).
    let width: Int
    /// Height of the extraction image (level 0).
    let height: Int
    /// The levels that yielded keypoints, coarser last.
    let levels: [Level]
    /// The sampling pattern the features were described with.
    let pattern: BRIEFPattern

    /// The features of the mirror image of the extracted picture, keypoint for keypoint in the same order.
    public func mirroredFeatures() -> ImageFeatures {
        let total = levels.reduce(0) { $0 + $1.corners.count }
        var keypoints: [Keypoint] = []
        keypoints.reserveCapacity(total)
        var words: [UInt64] = []
        words.reserveCapacity(total * 4)
        for level in levels {
            let w = level.smooth.width
            var centers: [Int32] = []
            centers.reserveCapacity(level.corners.count)
            var bins: [UInt8] = []
            bins.reserveCapacity(level.corners.count)
            for (c, moments) in zip(level.corners, level.moments) {
                let cx = Int(c.x), cy = Int(c.y)
                let angle = Float(atan2(Double(moments.y), Double(-moments.x)))
                centers.append(Int32(truncatingIfNeeded: cy * w + cx))
                bins.append(UInt8(BRIEFPattern.bin(for: angle)))
                keypoints.append(Keypoint(
                    x: (Float(w - 1 - cx) + 0.5) * level.scale - 0.5,
                    y: (Float(cy) + 0.5) * level.scale - 0.5,
                    scale: level.scale, angle: angle, response: c.response, level: Int32(level.index)))
            }
            FeatureExtractor.appendDescriptors(
                of: level.smooth, centers: centers, bins: bins, pattern: pattern, xSign: -1, to: &words)
        }
        return ImageFeatures(width: width, height: height, keypoints: keypoints, descriptorWords: words)
    }
}
