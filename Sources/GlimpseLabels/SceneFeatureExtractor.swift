public import GlimpseImage

/// Scene features for labels: colour, texture and layout of a picture, in one normalised vector.
///
/// The vector holds, each as a separately normalised histogram block:
/// - a global HSV colour histogram (soft hue bins; grey and dark pixels counted by brightness);
/// - a coarser colour histogram for each horizontal band (top, middle, bottom), so that "blue at the
///   top" and "green at the bottom" are visible; bands are used rather than a grid because they are
///   unchanged by a horizontal flip;
/// - per band and at two scales, a histogram of edge orientation (angle from horizontal, folded so a
///   flip leaves it unchanged, weighted by gradient strength) and a histogram of gradient strength;
/// - per band, a rotation-invariant local-binary-pattern histogram (fine texture: foliage, water,
///   sky, masonry).
///
/// Each block is square-rooted and scaled to a fixed Euclidean length, so Euclidean distance between
/// two vectors is a weighted sum of Hellinger distances between their histograms.
public struct SceneFeatureExtractor: ImageFeatureExtractor {
    /// The settings of the extractor; every one of them is recorded in model files.
    public struct Parameters: Sendable, Hashable {
        /// Long side, in pixels, of the reduced copy the features are computed on.
        public var workingLongSide = 160
        /// Number of horizontal bands.
        public var bands = 3
        /// Hue, saturation, value and grey bins of the global colour histogram.
        public var globalColour = ColourBins(hue: 12, saturation: 2, value: 3, grey: 4)
        /// Hue, saturation, value and grey bins of each band's colour histogram.
        public var bandColour = ColourBins(hue: 8, saturation: 2, value: 2, grey: 3)
        /// Weight (block length) of the global colour histogram.
        public var globalColourWeight: Float = 1.0
        /// Weight of each band's colour histogram.
        public var bandColourWeight: Float = 0.8
        /// Weight of each edge-orientation histogram.
        public var orientationWeight: Float = 0.6
        /// Weight of each gradient-strength histogram.
        public var strengthWeight: Float = 0.6
        /// Weight of each local-binary-pattern histogram.
        public var patternWeight: Float = 0.8

        /// The default settings.
        public init() {}

        /// The settings as `key=value` pairs in a fixed order.
        public var canonicalString: String {
            [
                "long=\(workingLongSide)", "bands=\(bands)",
                "global=\(globalColour.canonicalString)", "band=\(bandColour.canonicalString)",
                "wg=\(globalColourWeight)", "wb=\(bandColourWeight)", "wo=\(orientationWeight)",
                "ws=\(strengthWeight)", "wp=\(patternWeight)",
            ].joined(separator: ";")
        }
    }

    /// The layout of an HSV colour histogram.
    public struct ColourBins: Sendable, Hashable {
        /// Hue bins for coloured pixels (soft-assigned to the two nearest).
        public var hue: Int
        /// Saturation bins for coloured pixels.
        public var saturation: Int
        /// Value (brightness) bins for coloured pixels.
        public var value: Int
        /// Brightness bins for grey or very dark pixels, whose hue means nothing.
        public var grey: Int

        /// Creates a layout.
        public init(hue: Int, saturation: Int, value: Int, grey: Int) {
            self.hue = hue
            self.saturation = saturation
            self.value = value
            self.grey = grey
        }

        /// Number of bins.
        public var count: Int { hue * saturation * value + grey }

        /// The binning as `HxSxV+G`, as stored in the model file.
        public var canonicalString: String { "\(hue)x\(saturation)x\(value)+\(grey)" }
    }

    /// Orientation bins between horizontal and vertical edges.
    static let orientationBins = 4
    /// Gradient-strength bins; the upper edges of all but the last.
    static let strengthEdges: [Float] = [0.02, 0.06, 0.15]
    /// Rotation-invariant uniform LBP codes (0…8 set bits) plus one bin for all other codes.
    static let patternBins = 10

    /// The settings in use.
    public let parameters: Parameters

    /// Creates an extractor; the defaults are the settings of the committed model.
    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// `scene`, version 1, with this extractor's settings and dimension.
    public var descriptor: FeatureExtractorDescriptor {
        FeatureExtractorDescriptor(id: "scene", version: 1, parameters: parameters.canonicalString,
                                   dimension: layout.dimension)
    }

    /// Offsets of each block in the vector.
    struct Layout {
        let bands: Int
        let globalColour: Range<Int>
        let bandColourStart: Int
        let bandColourCount: Int
        let textureStart: Int
        /// orientation + strength bins, per band per scale
        let texturePerBand: Int
        let patternStart: Int
        let dimension: Int

        init(_ p: Parameters) {
            bands = p.bands
            globalColour = 0..<p.globalColour.count
            bandColourStart = globalColour.upperBound
            bandColourCount = p.bandColour.count
            textureStart = bandColourStart + bands * bandColourCount
            texturePerBand = SceneFeatureExtractor.orientationBins + SceneFeatureExtractor.strengthEdges.count + 1
            patternStart = textureStart + 2 * bands * texturePerBand
            dimension = patternStart + bands * SceneFeatureExtractor.patternBins
        }
    }

    var layout: Layout { Layout(parameters) }

    /// The feature vector of `image`.
    public func features(of image: PixelBuffer) -> [Float] {
        features(of: WorkingImage(image, longSide: parameters.workingLongSide))
    }

    func features(of image: WorkingImage) -> [Float] {
        let layout = self.layout
        var vector = [Float](repeating: 0, count: layout.dimension)
        addColour(image, into: &vector, layout: layout)
        let luma = image.luminance()
        let (halfLuma, halfWidth, halfHeight) = Self.halve(luma, width: image.width, height: image.height)
        addTexture(luma, width: image.width, height: image.height,
                   start: layout.textureStart, into: &vector, layout: layout)
        addTexture(halfLuma, width: halfWidth, height: halfHeight,
                   start: layout.textureStart + layout.bands * layout.texturePerBand, into: &vector, layout: layout)
        addPatterns(luma, width: image.width, height: image.height, into: &vector, layout: layout)
        normalise(&vector, layout: layout)
        return vector
    }

    // MARK: Colour

    private func addColour(_ image: WorkingImage, into vector: inout [Float], layout: Layout) {
        let global = parameters.globalColour
        let band = parameters.bandColour
        for y in 0..<image.height {
            let bandStart = layout.bandColourStart + (y * layout.bands / image.height) * layout.bandColourCount
            for x in 0..<image.width {
                let i = y * image.width + x
                let (h, s, v) = Self.hsv(image.red[i], image.green[i], image.blue[i])
                Self.addColour(h, s, v, bins: global, start: layout.globalColour.lowerBound, into: &vector)
                Self.addColour(h, s, v, bins: band, start: bandStart, into: &vector)
            }
        }
    }

    /// Hue in 0..<1, saturation and value in 0…1.
    static func hsv(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        let maxC = max(r, g, b)
        let minC = min(r, g, b)
        let delta = maxC - minC
        guard maxC > 0, delta > 0 else { return (0, 0, maxC) }
        var hue: Float
        if maxC == r {
            hue = (g - b) / delta
        } else if maxC == g {
            hue = 2 + (b - r) / delta
        } else {
            hue = 4 + (r - g) / delta
        }
        hue /= 6
        if hue < 0 { hue += 1 }
        return (min(hue, 0.999_999), delta / maxC, maxC)
    }

    static let minimumSaturation: Float = 0.15
    static let minimumValue: Float = 0.12

    static func addColour(_ h: Float, _ s: Float, _ v: Float, bins: ColourBins, start: Int, into vector: inout [Float]) {
        if s < minimumSaturation || v < minimumValue {
            let grey = min(bins.grey - 1, Int(v * Float(bins.grey)))
            vector[start + bins.hue * bins.saturation * bins.value + grey] += 1
            return
        }
        let sat = min(bins.saturation - 1,
                      Int((s - minimumSaturation) / (1 - minimumSaturation) * Float(bins.saturation)))
        let val = min(bins.value - 1, Int((v - minimumValue) / (1 - minimumValue) * Float(bins.value)))
        // Soft hue: split between the two nearest bin centres, wrapping around red.
        let position = h * Float(bins.hue) - 0.5
        let lower = position.rounded(.down)
        let fraction = position - lower
        var first = Int(lower) % bins.hue
        if first < 0 { first += bins.hue }
        let second = (first + 1) % bins.hue
        let cell = sat * bins.value + val
        vector[start + first * bins.saturation * bins.value + cell] += 1 - fraction
        vector[start + second * bins.saturation * bins.value + cell] += fraction
    }

    // MARK: Texture

    /// Sobel gradients: per band, orientation (weighted by strength) and strength histograms.
    private func addTexture(_ luma: [Float], width: Int, height: Int, start: Int,
                            into vector: inout [Float], layout: Layout) {
        guard width >= 3, height >= 3 else { return }
        for y in 1..<(height - 1) {
            let base = start + (y * layout.bands / height) * layout.texturePerBand
            for x in 1..<(width - 1) {
                let gradient = Self.gradient(luma, at: y * width + x, width: width)
                vector[base + Self.orientationBins + gradient.level] += 1
                guard let bin = gradient.orientationBin else { continue }
                vector[base + bin] += gradient.strength
            }
        }
    }

    /// The Sobel gradient at pixel `i` (not on the border) of a `width`-wide luminance image: its
    /// strength (a full black-to-white step is 1), the strength bin (``strengthEdges``) and, for edges
    /// at least as strong as the first edge, the orientation bin of the angle from the horizontal
    /// folded into 0…π/2 (so a horizontal flip changes nothing).
    @inline(__always)
    static func gradient(_ luma: [Float], at i: Int, width: Int) -> (strength: Float, level: Int, orientationBin: Int?) {
        let gx = (luma[i - width + 1] + 2 * luma[i + 1] + luma[i + width + 1])
            - (luma[i - width - 1] + 2 * luma[i - 1] + luma[i + width - 1])
        let gy = (luma[i + width - 1] + 2 * luma[i + width] + luma[i + width + 1])
            - (luma[i - width - 1] + 2 * luma[i - width] + luma[i - width + 1])
        let strength = (gx * gx + gy * gy).squareRoot() / 4
        let edges = strengthEdges
        var level = edges.count
        for (k, edge) in edges.enumerated() where strength < edge {
            level = k
            break
        }
        guard strength >= edges[0] else { return (strength, level, nil) }
        let angle = Float.atan2Folded(abs(gy), abs(gx))
        return (strength, level, min(orientationBins - 1, Int(angle * Float(orientationBins))))
    }

    /// Rotation-invariant uniform local binary patterns (8 neighbours, radius 1) per band.
    private func addPatterns(_ luma: [Float], width: Int, height: Int, into vector: inout [Float], layout: Layout) {
        guard width >= 3, height >= 3 else { return }
        let offsets = Self.neighbourOffsets(width: width)
        for y in 1..<(height - 1) {
            let base = layout.patternStart + (y * layout.bands / height) * Self.patternBins
            for x in 1..<(width - 1) {
                vector[base + Self.patternBin(luma, at: y * width + x, offsets: offsets)] += 1
            }
        }
    }

    /// The offsets of a pixel's 8 neighbours in a `width`-wide image, clockwise from the top left.
    static func neighbourOffsets(width: Int) -> [Int] {
        [-width - 1, -width, -width + 1, 1, width + 1, width, width - 1, -1]
    }

    /// The rotation-invariant uniform local-binary-pattern bin of pixel `i` (not on the border): the
    /// number of brighter neighbours for a uniform pattern, the last bin for any other.
    @inline(__always)
    static func patternBin(_ luma: [Float], at i: Int, offsets: [Int]) -> Int {
        let centre = luma[i] + 0.01
        var ones = 0
        var transitions = 0
        var previous = luma[i + offsets[7]] >= centre
        for offset in offsets {
            let bit = luma[i + offset] >= centre
            if bit { ones += 1 }
            if bit != previous { transitions += 1 }
            previous = bit
        }
        return transitions <= 2 ? ones : patternBins - 1
    }

    /// The image at half size (2×2 box average).
    static func halve(_ luma: [Float], width: Int, height: Int) -> ([Float], Int, Int) {
        let w = max(1, width / 2)
        let h = max(1, height / 2)
        guard width >= 2, height >= 2 else { return (luma, width, height) }
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let i = 2 * y * width + 2 * x
                out[y * w + x] = 0.25 * (luma[i] + luma[i + 1] + luma[i + width] + luma[i + width + 1])
            }
        }
        return (out, w, h)
    }

    // MARK: Normalisation

    private func normalise(_ vector: inout [Float], layout: Layout) {
        let p = parameters
        normaliseBlock(&vector, layout.globalColour, weight: p.globalColourWeight)
        for band in 0..<layout.bands {
            let start = layout.bandColourStart + band * layout.bandColourCount
            normaliseBlock(&vector, start..<(start + layout.bandColourCount), weight: p.bandColourWeight)
            let pattern = layout.patternStart + band * Self.patternBins
            normaliseBlock(&vector, pattern..<(pattern + Self.patternBins), weight: p.patternWeight)
        }
        for block in 0..<(2 * layout.bands) {
            let start = layout.textureStart + block * layout.texturePerBand
            normaliseBlock(&vector, start..<(start + Self.orientationBins), weight: p.orientationWeight)
            normaliseBlock(&vector, (start + Self.orientationBins)..<(start + layout.texturePerBand),
                           weight: p.strengthWeight)
        }
    }
}

extension Float {
    /// `atan2(y, x) / (π/2)` for `x, y ≥ 0`: 0 for a horizontal vector, 1 for a vertical one.
    ///
    /// A rational approximation (error below 0.003) keeps this free of libm calls in the hot loop.
    static func atan2Folded(_ y: Float, _ x: Float) -> Float {
        guard x > 0 || y > 0 else { return 0 }
        // atan(t) for t in 0…1, then reflect for t > 1.
        let swap = y > x
        let t = swap ? x / y : y / x
        let atan = t * (0.785_398_2 + 0.273 * (1 - t)) // π/4·t + 0.273·t·(1−t)
        let angle = swap ? (Float.pi / 2 - atan) : atan
        return angle / (Float.pi / 2)
    }
}
