import GlimpseImage
import GlimpseTestSupport
import Testing
@testable import GlimpseLabels

@Suite("Scene features")
struct FeatureTests {
    let extractors: [any ImageFeatureExtractor] = [SceneFeatureExtractor(), RegionFeatureExtractor(),
                                                   ColourHistogramExtractor()]

    static func scene(flipped: Bool) throws -> PixelBuffer {
        try TestImages.image(width: 200, height: 120) { x, y in
            let x = flipped ? 199 - x : x
            if y < 50 { return (UInt8(80 + x / 4), 140, 220) }
            if x < 60 { return (120, 110, UInt8(90 + (x * y) % 40)) }
            return ((x + y) % 6 < 3 ? 30 : 70, 130, 40)
        }
    }

    @Test("every extractor gives vectors of its declared size with finite values")
    func shapes() throws {
        let image = try Self.scene(flipped: false)
        for extractor in extractors {
            let vector = extractor.features(of: image)
            #expect(vector.count == extractor.descriptor.rows * extractor.descriptor.dimension)
            #expect(vector.allSatisfy { $0.isFinite })
            #expect(vector.contains { $0 != 0 })
        }
    }

    @Test("scene features do not change when the picture is flipped horizontally")
    func flipInvariance() throws {
        let extractor = SceneFeatureExtractor()
        let a = extractor.features(of: try Self.scene(flipped: false))
        let b = extractor.features(of: try Self.scene(flipped: true))
        let distance = zip(a, b).reduce(Float(0)) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        #expect(distance < 0.01)
    }

    @Test("scene features see layout: sky above grass differs from grass above sky")
    func layout() throws {
        let extractor = SceneFeatureExtractor()
        let skyTop = try TestImages.image(width: 90, height: 90) { _, y in y < 45 ? (90, 150, 230) : (40, 140, 40) }
        let skyBottom = try TestImages.image(width: 90, height: 90) { _, y in y >= 45 ? (90, 150, 230) : (40, 140, 40) }
        let a = extractor.features(of: skyTop)
        let b = extractor.features(of: skyBottom)
        let layout = extractor.layout
        // Same colours overall …
        let global = layout.globalColour
        #expect(zip(a[global], b[global]).allSatisfy { abs($0 - $1) < 1e-4 })
        // … but different bands.
        let distance = zip(a, b).reduce(Float(0)) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        #expect(distance > 0.5)
    }

    @Test("grey, colour and alpha pixel formats are all read")
    func pixelFormats() throws {
        let grey = try PixelBuffer(width: 40, height: 30, pixelFormat: .gray8,
                                   bytes: (0..<1200).map { UInt8(($0 * 13) % 256) })
        let rgba = try PixelBuffer(width: 40, height: 30, pixelFormat: .rgba8,
                                   bytes: (0..<4800).map { (i: Int) -> UInt8 in i % 4 == 3 ? 255 : UInt8((i / 4 * 13) % 256) })
        let rgb = try PixelBuffer(width: 40, height: 30, pixelFormat: .rgb8,
                                  bytes: (0..<3600).map { UInt8(($0 / 3 * 13) % 256) })
        let extractor = SceneFeatureExtractor()
        #expect(extractor.features(of: grey) == extractor.features(of: rgb))
        #expect(extractor.features(of: rgba) == extractor.features(of: rgb))
    }

    @Test("box filtering averages the pixels of each cell")
    func boxFilter() throws {
        let image = try TestImages.image(width: 4, height: 2) { x, _ in x < 2 ? (0, 0, 0) : (255, 255, 255) }
        let small = WorkingImage(image, longSide: 2)
        #expect(small.width == 2 && small.height == 1)
        #expect(small.red == [0, 1])
        let tiny = try TestImages.image(width: 1, height: 1) { _, _ in (255, 0, 0) }
        #expect(SceneFeatureExtractor().features(of: tiny).allSatisfy { $0.isFinite })
    }

    @Test("the folded angle is 0 for horizontal and 1 for vertical gradients")
    func foldedAngle() {
        #expect(Float.atan2Folded(0, 1) == 0)
        #expect(Float.atan2Folded(1, 0) == 1)
        #expect(abs(Float.atan2Folded(1, 1) - 0.5) < 0.01)
        #expect(Float.atan2Folded(0, 0) == 0)
    }
}

@Suite("Reference views")
struct ReferenceViewTests {
    @Test("a crop copies exactly the pixels inside its rectangle")
    func crop() throws {
        let image = try TestImages.image(width: 10, height: 6) { x, y in (UInt8(x), UInt8(y), 7) }
        let cropped = try #require(image.cropped(x: 3, y: 2, width: 4, height: 3))
        let expected = try TestImages.image(width: 4, height: 3) { x, y in (UInt8(x + 3), UInt8(y + 2), 7) }
        #expect(cropped == expected)
        #expect(image.cropped(x: 8, y: 0, width: 4, height: 1) == nil)
        #expect(image.cropped(x: -1, y: 0, width: 2, height: 1) == nil)
    }

    @Test("views are the whole picture first, then one per crop")
    func views() throws {
        let image = try TestImages.image(width: 40, height: 20) { x, _ in (UInt8(x), 0, 0) }
        let views = ReferenceViews.crops.views(of: image)
        #expect(views.count == 4)
        #expect(views[0] == image)
        #expect(views[1].width == 32 && views[1].height == 16)
        #expect(ReferenceViews.none.views(of: image).count == 1)
    }
}
