import Foundation
import GlimpseImage
import Testing

@Suite("Catalog photos")
struct CatalogDecodeTests {
    @Test("the sample catalog has its 91 photos")
    func catalogIsPresent() {
        #expect(Fixtures.photos.count == 91)
    }

    @Test("every photo decodes at the size its header declares")
    func everyPhotoDecodes() throws {
        for url in Fixtures.photos {
            let bytes = try Fixtures.bytes(url)
            let declared = try #require(HeaderSize.of(bytes), "no size in the header of \(url.lastPathComponent)")
            let image = try ImageDecoder.decode(bytes)
            #expect(image.format == (url.pathExtension.lowercased() == "png" ? .png : .jpeg))
            #expect(image.sourceWidth == declared.width && image.sourceHeight == declared.height, "\(url.lastPathComponent)")
            #expect(image.pixelBuffer.width == declared.width && image.pixelBuffer.height == declared.height)
            #expect(image.orientation == 1)
            #expect(image.pixelBuffer.pixelFormat != .gray8)
        }
    }

    @Test("decoding from a file equals decoding its bytes")
    func fileAndBytesAgree() throws {
        for url in Fixtures.photos.prefix(4) {
            let fromFile = try ImageDecoder.decode(contentsOfFile: url.path)
            let fromBytes = try ImageDecoder.decode(try Fixtures.bytes(url))
            #expect(fromFile.pixelBuffer == fromBytes.pixelBuffer)
        }
    }

    @Test("scaled decodes fit the requested size and keep the aspect ratio", arguments: [64, 100, 257, 400, 799])
    func scaledSizes(maxDimension: Int) throws {
        for url in Fixtures.photos.prefix(12) {
            let image = try ImageDecoder.decode(contentsOfFile: url.path, options: .init(maxDimension: maxDimension))
            let buffer = image.pixelBuffer
            let longer = max(image.sourceWidth, image.sourceHeight)
            let shorter = min(image.sourceWidth, image.sourceHeight)
            #expect(max(buffer.width, buffer.height) == min(maxDimension, longer), "\(url.lastPathComponent)")
            let expectedShorter = Double(shorter) * Double(min(maxDimension, longer)) / Double(longer)
            #expect(abs(Double(min(buffer.width, buffer.height)) - expectedShorter) <= 1.0)
            #expect((buffer.width >= buffer.height) == (image.sourceWidth >= image.sourceHeight))
        }
    }

    @Test("a scaled JPEG decode looks like the downscaled full decode")
    func scaledDecodeMatchesFullDecode() throws {
        let url = try #require(Fixtures.firstPhoto(withExtension: "jpg"))
        let full = try ImageDecoder.decode(contentsOfFile: url.path).pixelBuffer
        let scaled = try ImageDecoder.decode(contentsOfFile: url.path, options: .init(maxDimension: 150)).pixelBuffer
        let reference = full.areaAveraged(width: scaled.width, height: scaled.height)
        let mean = try #require(scaled.meanDifference(reference))
        #expect(mean < 4, "mean difference \(mean)")
    }

    @Test("a PNG and a JPEG of the same picture decode to nearly the same pixels")
    func pngAndJPEGAgree() throws {
        for url in Fixtures.photos.prefix(3) {
            let original = try ImageDecoder.decode(contentsOfFile: url.path).pixelBuffer.converted(to: .rgb8)
            let png = try ImageDecoder.decode(try Encode.png(original))
            let jpeg = try ImageDecoder.decode(try Encode.jpeg(original, quality: 95))
            #expect(png.format == .png && jpeg.format == .jpeg)
            #expect(png.pixelBuffer == original, "PNG is lossless")
            let mean = try #require(jpeg.pixelBuffer.meanDifference(png.pixelBuffer))
            #expect(mean < 3.0, "mean difference \(mean) for \(url.lastPathComponent)")
        }
    }

    @Test("a progressive JPEG decodes to the same pixels as the baseline one")
    func progressiveMatchesBaseline() throws {
        let picture = try Synthetic.gradient(width: 123, height: 77)
        let baseline = try ImageDecoder.decode(try Encode.jpeg(picture, quality: 90))
        let progressive = try ImageDecoder.decode(try Encode.jpeg(picture, quality: 90, progressive: true))
        // Same quantisation, so the same coefficients; the IDCT output is identical.
        #expect(progressive.pixelBuffer == baseline.pixelBuffer)
    }

    @Test("a grayscale JPEG decodes to gray8 and scales with DCT scaling")
    func grayscaleJPEG() throws {
        let gray = try Synthetic.gradient(width: 200, height: 120).converted(to: .gray8)
        let jpeg = try Encode.jpeg(gray, quality: 95)
        let full = try ImageDecoder.decode(jpeg)
        #expect(full.pixelBuffer.pixelFormat == .gray8)
        #expect(try #require(full.pixelBuffer.maxDifference(gray)) <= 6)
        let eighth = try ImageDecoder.decode(jpeg, options: .init(maxDimension: 25))
        #expect(eighth.pixelBuffer.width == 25 && eighth.pixelBuffer.height == 15)
    }

    @Test("the format is recognised by its leading bytes only")
    func formatSniffing() throws {
        let png = try Encode.png(try Synthetic.gradient(width: 4, height: 4))
        let jpeg = try Encode.jpeg(try Synthetic.gradient(width: 4, height: 4))
        #expect(ImageDecoder.format(of: png) == .png)
        #expect(ImageDecoder.format(of: jpeg) == .jpeg)
        #expect(ImageDecoder.format(of: Array("GIF89a".utf8)) == nil)
        #expect(ImageDecoder.format(of: []) == nil)
        #expect(ImageDecoder.format(of: [0xFF, 0xD8]) == nil)
    }
}
