public import GlimpseFeaturePrint
/// One detected keypoint, in the coordinates of the extraction image (level 0 of the pyramid).
public struct Keypoint: Sendable, Hashable, Codable {
    /// Horizontal position in pixels of the extraction image.
    public var x: Float
    /// Vertical position in pixels of the extraction image.
    public var y: Float
    /// The pyramid scale it was found at (1 for level 0, `pyramidScale^level` above).
    public var scale: Float
    /// Dominant orientation in radians, from the intensity centroid of its patch.
    public var angle: Float
    /// Harris corner response that ranked it (larger is stronger).
    public var response: Float
    /// The pyramid level it was found at.
    public var level: Int32

    /// Creates a keypoint.
    public init(x: Float, y: Float, scale: Float, angle: Float, response: Float, level: Int32) {
        self.x = x
        self.y = y
        self.scale = scale
        self.angle = angle
        self.response = response
        self.level = level
    }
}

/// The keypoints and 256-bit binary descriptors of one image, ready for matching.
///
/// Descriptors are stored contiguously, four 64-bit words per keypoint in keypoint order, so
/// descriptor `i` occupies `descriptorWords[4*i ..< 4*i+4]`.
public struct ImageFeatures: Sendable, Equatable {
    /// Number of 64-bit words per descriptor.
    public static let wordsPerDescriptor = 4

    /// Width of the extraction image (the input resampled to the configured long side).
    public let width: Int
    /// Height of the extraction image.
    public let height: Int
    /// The keypoints, strongest first.
    public let keypoints: [Keypoint]
    /// All descriptors, `4 × keypoints.count` words.
    public let descriptorWords: [UInt64]
    /// The feature prints of the picture's views (see ``FeaturePrinting/referencePrints(of:)``; the
    /// first is the whole picture's), empty when none were computed.
    public let featurePrints: [FeaturePrint]

    /// The number of keypoints.
    public var count: Int { keypoints.count }

    /// Creates features from parts.
    ///
    /// - Precondition: `descriptorWords.count == 4 × keypoints.count`.
    public init(
        width: Int, height: Int, keypoints: [Keypoint], descriptorWords: [UInt64], featurePrints: [FeaturePrint] = []
    ) {
        precondition(descriptorWords.count == keypoints.count * Self.wordsPerDescriptor, "descriptor count mismatch")
        self.width = width
        self.height = height
        self.keypoints = keypoints
        self.descriptorWords = descriptorWords
        self.featurePrints = featurePrints
    }

    /// The same keypoints and descriptors with `prints` as the feature prints.
    public func with(featurePrints prints: [FeaturePrint]) -> ImageFeatures {
        ImageFeatures(width: width, height: height, keypoints: keypoints, descriptorWords: descriptorWords,
                      featurePrints: prints)
    }

    /// Only the keypoints (with their descriptors) at `indices`, in that order; size and prints kept.
    public func keeping(_ indices: [Int]) -> ImageFeatures {
        var kept: [Keypoint] = []
        var words: [UInt64] = []
        kept.reserveCapacity(indices.count)
        words.reserveCapacity(indices.count * Self.wordsPerDescriptor)
        for i in indices {
            kept.append(keypoints[i])
            let w = i * Self.wordsPerDescriptor
            words.append(contentsOf: descriptorWords[w..<(w + Self.wordsPerDescriptor)])
        }
        return ImageFeatures(width: width, height: height, keypoints: kept, descriptorWords: words, featurePrints: featurePrints)
    }

    /// The four words of descriptor `index`.
    public func descriptor(_ index: Int) -> (UInt64, UInt64, UInt64, UInt64) {
        let o = index * 4
        return (descriptorWords[o], descriptorWords[o + 1], descriptorWords[o + 2], descriptorWords[o + 3])
    }
}
