public import GlimpseImage

/// Region features for labels: the picture is cut into a fixed grid of cells, and each cell gets its
/// own vector of colour, edge and fine-texture histograms plus its height in the picture.
///
/// Labels are mostly about parts of a scene (sky at the top, grass at the bottom, water, foliage,
/// walls), so comparing cells with the cells of labelled references generalises better than
/// comparing whole pictures. Per cell, each block is square-rooted and scaled to a fixed length:
/// - an HSV colour histogram (soft hue bins; grey and dark pixels by brightness);
/// - an edge-orientation histogram (angle from horizontal folded into 0…90°, so a horizontal flip
///   changes nothing; weighted by gradient strength) and a gradient-strength histogram;
/// - a rotation-invariant uniform local-binary-pattern histogram;
/// - one value for the cell's vertical position (0 at the top), times a weight.
public struct RegionFeatureExtractor: ImageFeatureExtractor {
    /// The settings of the extractor; every one of them is recorded in model files.
    public struct Parameters: Sendable, Hashable {
        /// Long side, in pixels, of the reduced copy the features are computed on.
        public var workingLongSide = 160
        /// Cells across.
        public var columns = 6
        /// Cells down.
        public var rows = 6
        /// Colour histogram layout of each cell.
        public var colour = SceneFeatureExtractor.ColourBins(hue: 8, saturation: 2, value: 2, grey: 3)
        /// Weight (block length) of the colour histogram.
        public var colourWeight: Float = 1.0
        /// Weight of the edge-orientation histogram.
        public var orientationWeight: Float = 0.5
        /// Weight of the gradient-strength histogram.
        public var strengthWeight: Float = 0.5
        /// Weight of the local-binary-pattern histogram.
        public var patternWeight: Float = 0.7
        /// Weight of the vertical position.
        public var positionWeight: Float = 0.6

        /// The default settings: a 6 × 6 grid.
        public init() {}

        /// The grid, binning and weights as `key=value` pairs in a fixed order.
        public var canonicalString: String {
            [
                "long=\(workingLongSide)", "grid=\(columns)x\(rows)", "colour=\(colour.canonicalString)",
                "wc=\(colourWeight)", "wo=\(orientationWeight)", "ws=\(strengthWeight)", "wp=\(patternWeight)",
                "wy=\(positionWeight)",
            ].joined(separator: ";")
        }
    }

    /// The grid, binning and weights in use.
    public let parameters: Parameters

    /// Creates a region extractor; the defaults are the settings of the committed model.
    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    static let orientationBins = SceneFeatureExtractor.orientationBins
    static let strengthBins = SceneFeatureExtractor.strengthEdges.count + 1
    static let patternBins = SceneFeatureExtractor.patternBins

    var colourStart: Int { 0 }
    var orientationStart: Int { parameters.colour.count }
    var strengthStart: Int { orientationStart + Self.orientationBins }
    var patternStart: Int { strengthStart + Self.strengthBins }
    var positionIndex: Int { patternStart + Self.patternBins }
    var dimension: Int { positionIndex + 1 }

    /// `regions`, version 1: one row per cell, cells row by row from the top left.
    public var descriptor: FeatureExtractorDescriptor {
        FeatureExtractorDescriptor(id: "regions", version: 1, parameters: parameters.canonicalString,
                                   dimension: dimension, rows: parameters.columns * parameters.rows)
    }

    /// The cell vectors of `image`.
    public func features(of image: PixelBuffer) -> [Float] {
        features(of: WorkingImage(image, longSide: parameters.workingLongSide))
    }

    func features(of image: WorkingImage) -> [Float] {
        let p = parameters
        let width = image.width
        let height = image.height
        let dimension = self.dimension
        let cells = p.columns * p.rows
        var out = [Float](repeating: 0, count: cells * dimension)
        let columnOf = (0..<width).map { min(p.columns - 1, $0 * p.columns / width) }
        let rowOf = (0..<height).map { min(p.rows - 1, $0 * p.rows / height) }

        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let base = (rowOf[y] * p.columns + columnOf[x]) * dimension
                let (h, s, v) = SceneFeatureExtractor.hsv(image.red[i], image.green[i], image.blue[i])
                SceneFeatureExtractor.addColour(h, s, v, bins: p.colour, start: base + colourStart, into: &out)
            }
        }

        let luma = image.luminance()
        if width >= 3, height >= 3 {
            let offsets = SceneFeatureExtractor.neighbourOffsets(width: width)
            for y in 1..<(height - 1) {
                for x in 1..<(width - 1) {
                    let i = y * width + x
                    let base = (rowOf[y] * p.columns + columnOf[x]) * dimension
                    let gradient = SceneFeatureExtractor.gradient(luma, at: i, width: width)
                    out[base + strengthStart + gradient.level] += 1
                    if let bin = gradient.orientationBin {
                        out[base + orientationStart + bin] += gradient.strength
                    }
                    out[base + patternStart + SceneFeatureExtractor.patternBin(luma, at: i, offsets: offsets)] += 1
                }
            }
        }

        for cell in 0..<cells {
            let base = cell * dimension
            normaliseBlock(&out, (base + colourStart)..<(base + orientationStart), weight: p.colourWeight)
            normaliseBlock(&out, (base + orientationStart)..<(base + strengthStart), weight: p.orientationWeight)
            normaliseBlock(&out, (base + strengthStart)..<(base + patternStart), weight: p.strengthWeight)
            normaliseBlock(&out, (base + patternStart)..<(base + positionIndex), weight: p.patternWeight)
            out[base + positionIndex] = p.positionWeight * (Float(cell / p.columns) + 0.5) / Float(p.rows)
        }
        return out
    }
}
