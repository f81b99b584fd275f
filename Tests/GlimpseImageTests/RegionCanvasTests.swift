import GlimpseImage
import GlimpseTestSupport
import Testing

@Suite("Regions, the canvas and PNG encoding")
struct RegionCanvasTests {
    @Test func boxesParseAndOutOfRangeOnesAreRefused() throws {
        let region = try ImageRegion(parsing: "0.25, 0.5,0.5,0.25")
        #expect(region.x == 0.25 && region.y == 0.5 && region.width == 0.5 && region.height == 0.25)
        #expect(try ImageRegion(parsing: region.description) == region)
        for text in ["", "1,2,3", "a,b,c,d", "0,0,1,1,1"] {
            #expect(throws: ImageRegionError.malformed(text)) { try ImageRegion(parsing: text) }
        }
        for text in ["-0.1,0,0.5,0.5", "0.6,0,0.5,0.5", "0,0,0,0.5", "0,0,nan,0.5", "0,0.9,0.5,0.2"] {
            #expect(throws: ImageRegionError.self) { try ImageRegion(parsing: text) }
        }
    }

    @Test func regionsMapIntoTheWholePictureAndCoverWholePixels() throws {
        let outer = try ImageRegion(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        let inner = try ImageRegion(x: 0.5, y: 0, width: 0.5, height: 1)
        #expect(outer.mapping(inner) == (try ImageRegion(x: 0.75, y: 0.5, width: 0.25, height: 0.5)))
        #expect(outer.mapping(ImagePoint(x: 0, y: 1)) == ImagePoint(x: 0.5, y: 1))
        let rect = try ImageRegion(x: 0.1, y: 0.25, width: 0.2, height: 0.25).pixelRect(width: 15, height: 8)
        #expect(rect.x == 1 && rect.y == 2 && rect.width == 4 && rect.height == 2)
        let clipped = try #require(ImageRegion.bounding([ImagePoint(x: -0.5, y: 0.2), ImagePoint(x: 0.5, y: 1.5)]))
        #expect(clipped == (try ImageRegion(x: 0, y: 0.2, width: 0.5, height: 0.8)))
        #expect(ImageRegion.bounding([ImagePoint(x: 2, y: 2), ImagePoint(x: 3, y: 3)]) == nil)
    }

    @Test func croppingKeepsTheRegionsPixels() throws {
        let picture = try TestImages.image(width: 8, height: 4) { x, y in (UInt8(x), UInt8(y), 7) }
        let part = picture.cropped(to: try ImageRegion(x: 0.5, y: 0.5, width: 0.25, height: 0.5))
        #expect(part.width == 2 && part.height == 2)
        let bytes = part.withUnsafeBytes { Array($0) }
        #expect(bytes == [4, 2, 7, 5, 2, 7, 4, 3, 7, 5, 3, 7])
        let options = DecodingOptions(maxDimension: 512).showing(try ImageRegion(x: 0, y: 0, width: 0.25, height: 0.5))
        #expect(options.maxDimension == 1024)
        // A tiny region does not decode the picture without bound.
        let tiny = DecodingOptions(maxDimension: 512).showing(try ImageRegion(x: 0, y: 0, width: 0.001, height: 0.001))
        #expect(tiny.maxDimension == 512 * DecodingOptions.regionEnlargement)
        #expect(DecodingOptions().showing(try ImageRegion(x: 0, y: 0, width: 0.5, height: 0.5)).maxDimension == nil)
    }

    @Test func theCanvasDrawsLinesPicturesAndOutlinesAndEncodesAsPNG() throws {
        var canvas = RGBCanvas(width: 20, height: 10, background: RGBColour(1, 2, 3))
        let red = RGBColour(255, 0, 0), green = RGBColour(0, 255, 0)
        canvas.line(from: 0, 0, to: 19, 9, colour: red)
        #expect(canvas.colour(atX: 0, y: 0) == red && canvas.colour(atX: 19, y: 9) == red)
        #expect(canvas.colour(atX: 19, y: 0) == RGBColour(1, 2, 3))
        canvas.rectangle(x: 2, y: 2, width: 4, height: 4, colour: green)
        #expect(canvas.colour(atX: 6, y: 4) == green && canvas.colour(atX: 4, y: 4) == RGBColour(1, 2, 3))
        // Lines far outside are clipped, not drawn or trapped.
        canvas.line(from: -1e9, 5, to: 1e9, 5, colour: green)
        #expect(canvas.colour(atX: 10, y: 5) == green)
        let picture = try TestImages.image(width: 4, height: 2) { x, _ in (x < 2 ? 200 : 50, 0, 0) }
        canvas.draw(picture, x: 10, y: 0, width: 8, height: 4)
        #expect(canvas.colour(atX: 11, y: 1) == RGBColour(200, 0, 0) && canvas.colour(atX: 17, y: 3) == RGBColour(50, 0, 0))
        let png = try canvas.pixelBuffer.pngData()
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.format == .png)
        #expect(decoded.pixelBuffer == canvas.pixelBuffer)
    }
}
