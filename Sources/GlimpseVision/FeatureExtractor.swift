import CGlimpseVisionKernels
import Foundation
public import GlimpseImage

/// Extracts ORB-style features: FAST corners on an image pyramid, ranked by Harris response,
/// oriented by their intensity centroid and described by a rotated 256-bit BRIEF test pattern on
/// a smoothed copy of each level.
public enum FeatureExtractor {
    /// Features of `buffer` as a reference photo (or as a query when `query` is true): its luminance is
    /// resampled to the configured size, then extracted.
    public static func extract(
        from buffer: PixelBuffer, configuration: VisionConfiguration = .default, query: Bool = false
    ) -> ImageFeatures {
        extract(fromPrepared: prepare(buffer, configuration: configuration, query: query),
                configuration: configuration, query: query)
    }

    /// The luminance of `buffer` resampled so its long side fits the configuration (the query
    /// size when `query` is true, else the reference size): the image that
    /// ``extract(fromPrepared:configuration:)`` expects. A larger picture is area averaged in colour
    /// (`PixelBuffer.areaAveraged(width:height:)`), then converted to luma (`Luma`), so the conversion
    /// runs on the smaller image; a smaller one (only with a ``VisionConfiguration/minLongSide``) is
    /// converted, then enlarged.
    public static func prepare(
        _ buffer: PixelBuffer, configuration: VisionConfiguration = .default, query: Bool = false
    ) -> GrayImage {
        let size = GrayImage.fittedSize(
            width: buffer.width, height: buffer.height,
            maxLongSide: query ? configuration.queryMaxLongSide : configuration.maxLongSide,
            minLongSide: configuration.minLongSide)
        guard size.width <= buffer.width, size.height <= buffer.height else {
            return GrayImage(luminanceOf: buffer).resampled(width: size.width, height: size.height)
        }
        return GrayImage(luminanceOf: buffer.areaAveraged(width: size.width, height: size.height))
    }

    /// Features of an image that is already at its extraction size (see ``prepare(_:configuration:query:)``):
    /// a reference photo's keypoints are spread over ``VisionConfiguration/referenceKeypointGrid``, a
    /// query's (`query` true) are the strongest.
    public static func extract(
        fromPrepared image: GrayImage, configuration: VisionConfiguration = .default, query: Bool = false
    ) -> ImageFeatures {
        extract(fromPrepared: image, configuration: configuration, query: query, retainingLevels: false).features
    }

    /// ``extract(fromPrepared:configuration:query:)`` of a query that also keeps what the features of the
    /// image's mirror image are derived from (``MirrorSource/mirroredFeatures()``), without a second extraction.
    public static func extractWithMirror(
        fromPrepared image: GrayImage, configuration: VisionConfiguration = .default
    ) -> (features: ImageFeatures, mirror: MirrorSource) {
        let (features, levels) = extract(
            fromPrepared: image, configuration: configuration, query: true, retainingLevels: true)
        return (features, MirrorSource(
            width: image.width, height: image.height, levels: levels, pattern: pattern(for: configuration)))
    }

    static func pattern(for configuration: VisionConfiguration) -> BRIEFPattern {
        configuration.patternSeed == VisionConfiguration.default.patternSeed
            ? defaultPattern : BRIEFPattern(seed: configuration.patternSeed)
    }

    static func extract(
        fromPrepared image: GrayImage, configuration: VisionConfiguration, query: Bool, retainingLevels: Bool
    ) -> (features: ImageFeatures, levels: [MirrorSource.Level]) {
        let cells = query ? 1 : configuration.referenceKeypointGrid
        let pattern = pattern(for: configuration)
        let levels = max(1, configuration.pyramidLevels)
        let step = configuration.pyramidScale
        // Keypoint budget per level, proportional to the level's area.
        var shares: [Double] = []
        var total = 0.0
        for l in 0..<levels {
            let f = 1 / pow(step, 2 * Double(l))
            shares.append(f)
            total += f
        }
        var keypoints: [Keypoint] = []
        keypoints.reserveCapacity(configuration.maxKeypoints)
        var words: [UInt64] = []
        words.reserveCapacity(configuration.maxKeypoints * 4)
        var retained: [MirrorSource.Level] = []
        var level = configuration.contrastStretch ? image.contrastStretched() : image
        var scores: [UInt16] = []
        for l in 0..<levels {
            if l > 0 {
                let s = pow(step, Double(l))
                let w = Int((Double(image.width) / s).rounded()), h = Int((Double(image.height) / s).rounded())
                guard w > 2 * border + 8, h > 2 * border + 8 else { break }
                level = level.bilinearResampled(width: w, height: h)
            }
            let budget = max(1, Int((Double(configuration.maxKeypoints) * shares[l] / total).rounded()))
            scores = [UInt16](repeating: 0, count: level.width * level.height)
            var corners = FASTDetector.detect(level, threshold: configuration.fastThreshold, border: border, scores: &scores)
            if corners.count < budget && configuration.fastFallbackThreshold < configuration.fastThreshold {
                scores = [UInt16](repeating: 0, count: level.width * level.height)
                corners = FASTDetector.detect(
                    level, threshold: configuration.fastFallbackThreshold, border: border, scores: &scores)
            }
            if corners.isEmpty { continue }
            // Pre-select by FAST score before the costlier Harris ranking.
            if corners.count > budget * 3 { corners = FASTDetector.strongest(corners, count: budget * 3) }
            FASTDetector.harris(level, corners: &corners)
            corners = FASTDetector.spread(corners, count: budget, width: level.width, height: level.height, cells: cells)
            let smooth = level.smoothed()
            let scale = Float(pow(step, Double(l)))
            let moments = describe(
                corners, level: level, smooth: smooth, levelIndex: l, scale: scale, pattern: pattern,
                keypoints: &keypoints, words: &words)
            if retainingLevels {
                retained.append(MirrorSource.Level(
                    smooth: smooth, corners: corners, moments: moments, index: l, scale: scale))
            }
        }
        let features = ImageFeatures(width: image.width, height: image.height, keypoints: keypoints, descriptorWords: words)
        return (features, retained)
    }

    /// Minimum distance in pixels between a keypoint and the edge of its level.
    static let border = BRIEFPattern.radius + 4

    static let defaultPattern = BRIEFPattern(seed: VisionConfiguration.default.patternSeed)

    /// Orientation and descriptor of each corner, appended to `keypoints` and `words`.
    ///
    /// - Returns: each corner's intensity moments `(m10, m01)` over the disc, from which its
    ///   orientation came (what the mirror image's orientation is derived from).
    @discardableResult
    static func describe(
        _ corners: [FASTDetector.Corner], level: GrayImage, smooth: GrayImage, levelIndex: Int, scale: Float,
        pattern: BRIEFPattern, keypoints: inout [Keypoint], words: inout [UInt64]
    ) -> [SIMD2<Int32>] {
        let w = level.width
        let (m10, m01) = intensityMoments(of: corners, in: level)
        var moments: [SIMD2<Int32>] = []
        moments.reserveCapacity(corners.count)
        var centers: [Int32] = []
        centers.reserveCapacity(corners.count)
        var bins: [UInt8] = []
        bins.reserveCapacity(corners.count)
        for (n, c) in corners.enumerated() {
            let cx = Int(c.x), cy = Int(c.y)
            moments.append(SIMD2(m10[n], m01[n]))
            let angle = Float(atan2(Double(m01[n]), Double(m10[n])))
            centers.append(Int32(truncatingIfNeeded: cy * w + cx))
            bins.append(UInt8(BRIEFPattern.bin(for: angle)))
            keypoints.append(Keypoint(
                x: (Float(cx) + 0.5) * scale - 0.5,
                y: (Float(cy) + 0.5) * scale - 0.5,
                scale: scale, angle: angle, response: c.response, level: Int32(levelIndex)))
        }
        appendDescriptors(of: smooth, centers: centers, bins: bins, pattern: pattern, xSign: 1, to: &words)
        return moments
    }

    /// The intensity moments `(m10, m01)` over the disc of radius 15 about each corner (the C kernel
    /// `glimpse_intensity_moments`); every corner lies at least ``border`` from the level's edges.
    ///
    /// - Parameter scalar: run the kernel's scalar variant whatever the CPU (for tests).
    static func intensityMoments(
        of corners: [FASTDetector.Corner], in level: GrayImage, scalar: Bool = false
    ) -> (m10: [Int32], m01: [Int32]) {
        let w = level.width
        let centers = corners.map { Int32(truncatingIfNeeded: Int($0.y) * w + Int($0.x)) }
        precondition(corners.allSatisfy {
            Int($0.x) >= border && Int($0.y) >= border && Int($0.x) < w - border && Int($0.y) < level.height - border
        }, "a corner lies within the border")
        var m10 = [Int32](repeating: 0, count: corners.count), m01 = m10
        level.pixels.withUnsafeBufferPointer { src in
            centers.withUnsafeBufferPointer { cp in
                m10.withUnsafeMutableBufferPointer { a in
                    m01.withUnsafeMutableBufferPointer { b in
                        // Fenced: every disc lies inside the level (checked above); outputs hold one value per corner.
                        guard let s = src.baseAddress, let c = cp.baseAddress, let ap = a.baseAddress, let bp = b.baseAddress
                        else { return }
                        glimpse_intensity_moments(s, Int32(w), c, corners.count, scalar ? 1 : 0, ap, bp)
                    }
                }
            }
        }
        return (m10, m01)
    }

    /// The four words of the rotated-BRIEF descriptor of each keypoint (pixel index `centers[i]` on the
    /// smoothed level `smooth`, angle bin `bins[i]`), appended to `words`: the C kernel `glimpse_brief`.
    /// With `xSign` −1 every test's horizontal offset is reflected: the descriptors the mirror image has at
    /// the reflected points.
    ///
    /// - Parameter scalar: run the kernel's scalar variant whatever the CPU (for tests).
    static func appendDescriptors(
        of smooth: GrayImage, centers: [Int32], bins: [UInt8], pattern: BRIEFPattern, xSign: Int32, scalar: Bool = false,
        to words: inout [UInt64]
    ) {
        let w = smooth.width, h = smooth.height
        precondition(centers.count == bins.count, "one angle bin per keypoint")
        precondition(xSign == 1 || xSign == -1, "xSign is 1 or -1")
        precondition(centers.allSatisfy {
            let x = Int($0) % max(w, 1), y = Int($0) / max(w, 1)
            return $0 >= 0 && x >= border && y >= border && x < w - border && y < h - border
        }, "a keypoint lies within the border")
        precondition(bins.allSatisfy { Int($0) < BRIEFPattern.angleBins }, "an angle bin is out of range")
        let start = words.count
        words.append(contentsOf: repeatElement(0, count: centers.count * 4))
        smooth.pixels.withUnsafeBufferPointer { src in
            centers.withUnsafeBufferPointer { cp in
                bins.withUnsafeBufferPointer { bp in
                    pattern.planar.withUnsafeBufferPointer { pp in
                        words.withUnsafeMutableBufferPointer { out in
                            // Fenced: every test lies within 15 pixels of a centre at least `border` (19) from
                            // every edge (checked above); the kernel writes 4 words per keypoint from `start`.
                            guard let s = src.baseAddress, let c = cp.baseAddress, let b = bp.baseAddress,
                                  let p = pp.baseAddress, let o = out.baseAddress else { return }
                            glimpse_brief(s, Int32(w), c, b, centers.count, p, xSign, scalar ? 1 : 0, o + start)
                        }
                    }
                }
            }
        }
    }
}
