import Foundation
import GlimpseBasics
import GlimpseImage
import Testing

@Suite("Malformed and hostile input")
struct MalformedInputTests {
    /// A small real photo re-encoded, so that the mutation loops stay fast.
    static func smallJPEG() throws -> [UInt8] {
        let url = try #require(Fixtures.firstPhoto(withExtension: "jpg"))
        let picture = try ImageDecoder.decode(contentsOfFile: url.path, options: .init(maxDimension: 160)).pixelBuffer
        return try Encode.jpeg(picture, quality: 85)
    }

    static func smallPNG() throws -> [UInt8] {
        let url = try #require(Fixtures.firstPhoto(withExtension: "png"))
        let picture = try ImageDecoder.decode(contentsOfFile: url.path, options: .init(maxDimension: 120)).pixelBuffer
        return try Encode.png(picture)
    }

    @Test("empty input")
    func empty() {
        #expect(throws: ImageDecodingError.empty) { try ImageDecoder.decode([]) }
    }

    @Test("unknown leading bytes name the bytes they saw")
    func unsupported() {
        let gif = Array("GIF89a\u{1}\u{0}xyz".utf8)
        #expect(throws: ImageDecodingError.unsupportedFormat(leadingBytes: Array(gif.prefix(8)))) {
            try ImageDecoder.decode(gif)
        }
        let error = ImageDecodingError.unsupportedFormat(leadingBytes: Array(gif.prefix(8)))
        #expect(error.description.contains("47 49 46 38 39 61"))
        #expect(error.description.contains("GIF89a"))
    }

    @Test("seeded random bytes, raw and behind real signatures, only ever throw the typed error")
    func randomBytes() {
        var generator = SeededGenerator(seed: 0x61_6D_70_73)
        let prefixes: [[UInt8]] = [[], [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]]
        var decoded = 0, failures = 0
        for round in 0..<3000 {
            let count = Int.random(in: 0...2048, using: &generator)
            let body = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let input = prefixes[round % 3] + body
            do {
                _ = try ImageDecoder.decode(input)
                decoded += 1
            } catch {
                failures += 1
            }
        }
        #expect(decoded + failures == 3000)
        #expect(failures > 2900, "random bytes decoded \(decoded) times")
    }

    @Test("a single-scan JPEG missing only its end-of-image marker decodes, with a warning")
    func missingEndOfImage() throws {
        let jpeg = try Self.smallJPEG()
        #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        let whole = try ImageDecoder.decode(jpeg)
        let cut = try ImageDecoder.decode(Array(jpeg.dropLast(2)))
        #expect(cut.pixelBuffer.bytes == whole.pixelBuffer.bytes)
        #expect(cut.warningCount >= 1 && whole.warningCount == 0)
        // Any byte of the scan fewer and pixels are missing: refused as truncated, with that message.
        for missing in [3, 4, 16, 200] {
            do {
                _ = try ImageDecoder.decode(Array(jpeg.dropLast(missing)))
                Issue.record("a JPEG missing \(missing) bytes decoded")
            } catch {
                guard case .truncated(_, let message) = error else {
                    Issue.record("missing \(missing) bytes: \(error)")
                    continue
                }
                #expect(message.contains("Premature end"), "\(message)")
            }
        }
        // A progressive file ends between scans: there is no telling what is missing, so it is refused.
        let progressive = try Encode.jpeg(whole.pixelBuffer, quality: 85, progressive: true)
        #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(Array(progressive.dropLast(2))) }
    }

    @Test("every 1 % truncation of a real JPEG and PNG is refused with a typed error")
    func truncations() throws {
        for url in [Fixtures.firstPhoto(withExtension: "jpg"), Fixtures.firstPhoto(withExtension: "png")] {
            let bytes = try Fixtures.bytes(try #require(url))
            var truncated = 0
            for percent in 0..<100 {
                let cut = bytes.count * percent / 100
                do {
                    _ = try ImageDecoder.decode(Array(bytes.prefix(cut)))
                    Issue.record("\(url?.lastPathComponent ?? "") cut to \(cut) bytes decoded")
                } catch {
                    switch error {
                    case .truncated, .empty, .corrupt, .unsupportedFormat: break
                    default: Issue.record("unexpected error for a cut at \(cut): \(error)")
                    }
                    if case .truncated = error { truncated += 1 }
                }
            }
            #expect(truncated >= 90, "\(url?.lastPathComponent ?? ""): only \(truncated) cuts reported as truncated")
        }
    }

    @Test("bit-flipped files decode or throw the typed error, never more pixels than the original")
    func bitFlips() throws {
        for original in [try Self.smallJPEG(), try Self.smallPNG()] {
            var generator = SeededGenerator(seed: UInt64(original.count))
            let limits = DecodingLimits(maxPixels: 1_000_000)
            for _ in 0..<400 {
                var mutated = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<mutated.count, using: &generator)
                    mutated[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                }
                if let image = try? ImageDecoder.decode(mutated, options: .init(limits: limits)) {
                    #expect(image.pixelBuffer.pixelCount <= limits.maxPixels)
                }
            }
        }
    }

    @Test("a 100,000 × 100,000 PNG of a few bytes is refused from its header")
    func pngBomb() throws {
        let bomb = HandBuiltPNG.file(width: 100_000, height: 100_000)
        #expect(bomb.count < 100)
        #expect(throws: ImageDecodingError.tooLarge(width: 100_000, height: 100_000, maxPixels: 40_000_000,
                                                     maxDimension: 32_768)) {
            try ImageDecoder.decode(bomb)
        }
        let tall = HandBuiltPNG.file(width: 1, height: 0x7FFF_FFFF)
        #expect(throws: ImageDecodingError.tooLarge(width: 1, height: 0x7FFF_FFFF, maxPixels: 40_000_000,
                                                     maxDimension: 32_768)) {
            try ImageDecoder.decode(tall)
        }
        // Within the pixel limit but the header's tiny IDAT cannot fill it.
        let short = #expect(throws: ImageDecodingError.self) {
            try ImageDecoder.decode(HandBuiltPNG.file(width: 1000, height: 1000))
        }
        guard case let .truncated(format, message)? = short else {
            Issue.record("expected a truncated PNG, got \(String(describing: short))")
            return
        }
        #expect(format == .png && message.contains("1000 × 1000"), "\(message)")
    }

    @Test("a few bytes declaring 6000 × 6000 pixels are refused before pixel memory is allocated")
    func pngTooShortForItsSize() throws {
        let forged = HandBuiltPNG.file(width: 6000, height: 6000)
        #expect(forged.count < 100)
        do {
            _ = try ImageDecoder.decode(forged)
            Issue.record("a 6000 × 6000 PNG of \(forged.count) bytes decoded")
        } catch let ImageDecodingError.truncated(format, message) {
            #expect(format == .png)
            #expect(message.contains("6000 × 6000") && message.contains("1032:1"), "\(message)")
        }
        // The bound is deflate's: 1-bit gray at 6000 × 6000 is 4,500,000 bytes stored, so 4,360 bytes of
        // data after the header could hold it and go on to libpng (which finds them wrong), 4,350 cannot.
        let gray = HandBuiltPNG.file(width: 6000, height: 6000, bitDepth: 1, colorType: 0)
        let dataAfterHeader = gray.count - 41  // signature, IHDR chunk, IDAT length and type
        for (padding, refusedEarly) in [(4_350 - dataAfterHeader, true), (4_370 - dataAfterHeader, false)] {
            let padded = Array(gray[..<(gray.count - 12)]) + HandBuiltPNG.chunk("tEXt", Array("c\0".utf8)
                + [UInt8](repeating: 0x61, count: padding - 14)) + Array(gray[(gray.count - 12)...])
            do {
                _ = try ImageDecoder.decode(padded)
                Issue.record("a forged PNG decoded")
            } catch let ImageDecodingError.truncated(_, message) where message.contains("1032:1") {
                #expect(refusedEarly, "refused by the bound although \(padded.count - 41) bytes follow the header")
            } catch {
                #expect(!refusedEarly, "not refused by the bound: \(error)")
            }
        }
    }

    @Test("highly compressible PNGs near deflate's limit still decode")
    func compressiblePNGsDecode() throws {
        // 4000 × 4000 black, gray and RGB: stored 16 and 48 MB; libpng deflates them ~1000:1.
        for (channels, colorType) in [(1, Int32(0)), (3, Int32(2))] {
            let rows = [UInt8](repeating: 0, count: 4000 * 4000 * channels)
            let png = try Encode.png(rows: rows, width: 4000, height: 4000, stride: 4000 * channels,
                                     colorType: colorType, bitDepth: 8)
            #expect(png.count < 4000 * 4000 * channels / 500, "\(png.count) bytes: not near the bound")
            let decoded = try ImageDecoder.decode(png)
            #expect(decoded.pixelBuffer.width == 4000 && decoded.pixelBuffer.height == 4000)
        }
    }

    @Test("zero dimensions in a PNG header are refused")
    func zeroDimensions() {
        // libpng refuses the header itself ("Invalid IHDR data"), before the decoder sees a size.
        let error = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(HandBuiltPNG.file(width: 0, height: 10)) }
        guard case let .corrupt(format, message)? = error else {
            Issue.record("expected a corrupt PNG header, got \(String(describing: error))")
            return
        }
        #expect(format == .png && message.contains("IHDR"), "\(message)")
    }

    @Test("a JPEG whose frame header declares 65,500 × 65,500 is refused from its header")
    func jpegBomb() throws {
        var jpeg = try Self.smallJPEG()
        // Patch the SOF0 marker's height and width.
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 5] = 0xFF; jpeg[sof + 6] = 0xDC; jpeg[sof + 7] = 0xFF; jpeg[sof + 8] = 0xDC
        #expect(throws: ImageDecodingError.tooLarge(width: 65_500, height: 65_500, maxPixels: 40_000_000,
                                                     maxDimension: 32_768)) {
            try ImageDecoder.decode(jpeg)
        }
    }

    @Test("a progressive JPEG with hundreds of scans is refused; fewer scans are fine")
    func scanBomb() throws {
        let picture = try Synthetic.gradient(width: 64, height: 48)
        let bomb = try Encode.jpeg(picture.bytes, width: 64, height: 48, components: 3, manyScans: true)
        #expect(throws: ImageDecodingError.tooManyScans(limit: 100)) { try ImageDecoder.decode(bomb) }
        let generous = DecodingLimits(maxProgressiveScans: 200)
        let image = try ImageDecoder.decode(bomb, options: .init(limits: generous))
        #expect(image.pixelBuffer.width == 64)
        let standard = try Encode.jpeg(picture, progressive: true)
        #expect(throws: ImageDecodingError.tooManyScans(limit: 5)) {
            try ImageDecoder.decode(standard, options: .init(limits: DecodingLimits(maxProgressiveScans: 5)))
        }
    }

    @Test("input, pixel and dimension limits are enforced with the numbers in the error")
    func limits() throws {
        let url = try #require(Fixtures.firstPhoto(withExtension: "jpg"))
        let bytes = try Fixtures.bytes(url)
        let size = try #require(HeaderSize.of(bytes))
        let small = DecodingLimits(maxInputBytes: 1000)
        #expect(throws: ImageDecodingError.inputTooLarge(byteCount: bytes.count, limit: 1000)) {
            try ImageDecoder.decode(bytes, options: .init(limits: small))
        }
        #expect(throws: ImageDecodingError.inputTooLarge(byteCount: bytes.count, limit: 1000)) {
            try ImageDecoder.decode(contentsOfFile: url.path, options: .init(limits: small))
        }
        let fewPixels = DecodingLimits(maxPixels: size.width * size.height - 1)
        #expect(throws: ImageDecodingError.tooLarge(width: size.width, height: size.height,
                                                     maxPixels: fewPixels.maxPixels, maxDimension: 32_768)) {
            try ImageDecoder.decode(bytes, options: .init(limits: fewPixels))
        }
        let narrow = DecodingLimits(maxDimension: 100)
        let error = ImageDecodingError.tooLarge(width: size.width, height: size.height, maxPixels: 40_000_000,
                                                maxDimension: 100)
        #expect(throws: error) { try ImageDecoder.decode(bytes, options: .init(limits: narrow)) }
        #expect(error.description.contains("\(size.width)×\(size.height)"))
        #expect(throws: ImageDecodingError.invalidOptions("maxDimension is 0; pass nil for full size or a value of at least 1")) {
            try ImageDecoder.decode(bytes, options: .init(maxDimension: 0))
        }
    }

    @Test("unreadable files report the system's reason")
    func unreadableFile() {
        do {
            _ = try ImageDecoder.decode(contentsOfFile: "/nonexistent/glimpse.jpg")
            Issue.record("a missing file decoded")
        } catch {
            guard case let .unreadableFile(path, reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == "/nonexistent/glimpse.jpg")
            #expect(reason.contains("No such file"))
        }
        let folder = Fixtures.photosDirectory.path
        #expect(throws: ImageDecodingError.unreadableFile(path: folder, reason: "it is a directory")) {
            try ImageDecoder.decode(contentsOfFile: folder)
        }
    }

    @Test("a corrupt PNG chunk CRC is reported as corrupt with libpng's message")
    func pngCRC() throws {
        var png = try Self.smallPNG()
        png[29] ^= 0xFF  // last byte of the IHDR CRC
        do {
            _ = try ImageDecoder.decode(png)
            Issue.record("a PNG with a bad IHDR CRC decoded")
        } catch {
            guard case let .corrupt(format, message) = error else { Issue.record("unexpected \(error)"); return }
            #expect(format == .png)
            #expect(message.contains("CRC"))
        }
    }

    @Test("a bad CRC on an ancillary chunk is a warning; the image still decodes")
    func ancillaryCRC() throws {
        let png = try Self.smallPNG()
        var text = HandBuiltPNG.chunk("tEXt", Array("Comment\u{0}made by the test".utf8))
        text[text.count - 1] ^= 0xFF
        let clean = try ImageDecoder.decode(png)
        let damaged = try ImageDecoder.decode(HandBuiltPNG.inserting(text, into: png))
        #expect(clean.warningCount == 0)
        #expect(damaged.warningCount >= 1)
        #expect(damaged.pixelBuffer == clean.pixelBuffer)
    }

    @Test("a 9 MB zTXt chunk is skipped with a warning and the image still decodes")
    func hugeTextChunk() throws {
        let png = try Self.smallPNG()
        let text = HandBuiltPNG.chunk("zTXt", Array("Comment\u{0}\u{0}".utf8) + [UInt8](repeating: 0x41, count: 9_000_000))
        let image = try ImageDecoder.decode(HandBuiltPNG.inserting(text, into: png))
        #expect(image.warningCount >= 1)
        #expect(image.pixelBuffer == (try ImageDecoder.decode(png)).pixelBuffer)
    }
}
