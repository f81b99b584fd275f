public import GlimpseImage

/// The baseline extractor: one global RGB colour histogram (`binsPerChannel`³ bins), Hellinger-normalised.
///
/// It carries no layout and no texture; label evaluation reports it next to ``SceneFeatureExtractor``
/// to show what those add.
public struct ColourHistogramExtractor: ImageFeatureExtractor {
    /// Bins per colour channel.
    public let binsPerChannel: Int
    /// Long side, in pixels, of the reduced copy the histogram is computed on.
    public let workingLongSide: Int

    /// Creates the baseline extractor.
    public init(binsPerChannel: Int = 4, workingLongSide: Int = 160) {
        self.binsPerChannel = binsPerChannel
        self.workingLongSide = workingLongSide
    }

    /// `colour-histogram`, version 1.
    public var descriptor: FeatureExtractorDescriptor {
        FeatureExtractorDescriptor(
            id: "colour-histogram", version: 1, parameters: "rgb=\(binsPerChannel);long=\(workingLongSide)",
            dimension: binsPerChannel * binsPerChannel * binsPerChannel)
    }

    /// The normalised histogram of `image`.
    public func features(of image: PixelBuffer) -> [Float] {
        features(of: WorkingImage(image, longSide: workingLongSide))
    }

    func features(of image: WorkingImage) -> [Float] {
        let n = binsPerChannel
        var vector = [Float](repeating: 0, count: n * n * n)
        let scale = Float(n)
        func bin(_ value: Float) -> Int { min(n - 1, max(0, Int(value * scale))) }
        for i in 0..<(image.width * image.height) {
            vector[(bin(image.red[i]) * n + bin(image.green[i])) * n + bin(image.blue[i])] += 1
        }
        normaliseBlock(&vector, 0..<vector.count, weight: 1)
        return vector
    }
}
