import Foundation
import GlimpseImage
import GlimpseTestSupport
import GlimpseWire
import Testing

/// A catalog photo decoded with its long side at `size` pixels.
private func catalogPhoto(_ name: String, size: Int = 512) throws -> PixelBuffer {
    try ImageDecoder.decode(
        contentsOfFile: bundledCatalogDirectory + "/photos/" + name, options: DecodingOptions(maxDimension: size)
    ).pixelBuffer
}

/// An unrelated picture: a labelled non-catalog photo when the shared folder is present, else a gradient
/// with noise.
private func unrelatedPicture() throws -> PixelBuffer {
    let path = Repository.labelledPhotos + "/004-bactrian-camels-steppe.jpg"
    if FileManager.default.fileExists(atPath: path) {
        return try ImageDecoder.decode(contentsOfFile: path, options: DecodingOptions(maxDimension: 1024)).pixelBuffer
    }
    var state: UInt32 = 12_345
    return try TestImages.image(width: 1024, height: 683) { x, y in
        state = state &* 1_103_515_245 &+ 12_345
        let noise = UInt8(truncatingIfNeeded: state >> 24) / 4
        return (UInt8(x / 5 % 256) &+ noise, UInt8(y / 3 % 256) &+ noise, 128 &+ noise)
    }
}

/// Writes `picture` as a PNG file in `directory` and returns its path.
private func pngFile(_ picture: PixelBuffer, _ name: String, in directory: TemporaryDirectory) throws -> String {
    try directory.write(name, try picture.pngData())
}

/// Regions of interest, several places in one picture and the explain picture, through `curl`.
@Suite("Regions through the daemon", .serialized)
struct RegionQueryTests {
    @Test func aPhotoPastedIntoALargerPictureIsFoundWithTheBoxAndMissedWithout() async throws {
        // The region the cups photo is pasted into, in a picture 4× its size.
        let pasteRegion = try ImageRegion(x: 0.6, y: 0.55, width: 0.25, height: 0.25)
        let daemon = try await RunningDaemon.start()
        let directory = try TemporaryDirectory()
        let photo = try catalogPhoto("002-rows-of-colorful-plastic-cups.jpg")
        let picture = TestImages.pasted(
            photo, into: try unrelatedPicture(), width: photo.width * 4, height: photo.height * 4,
            region: pasteRegion)
        let file = try pngFile(picture, "pasted.png", in: directory)
        let post = ["-H", "Content-Type: image/png", "--data-binary", "@" + file]

        let box = pasteRegion.description
        let boxed = try #require(await curl(daemon.socketPath, post + ["http://g/v1/query?box=" + box]))
        #expect(boxed.status == 200)
        let found = try JSONDecoder().decode(QueryResponseJSON.self, from: boxed.body)
        let top = try #require(found.results.first)
        #expect(top.type == "place" && top.entity.id == "colorful-plastic-cups")
        // The region is in the whole picture's coordinates, inside the box.
        let region = try #require(top.evidence.region)
        #expect(abs(region.x - 0.6) < 0.03 && abs(region.y - 0.55) < 0.03)
        #expect(abs(region.width - 0.25) < 0.03 && abs(region.height - 0.25) < 0.03)

        let whole = try #require(await curl(daemon.socketPath, post + ["http://g/v1/query"]))
        #expect(whole.status == 200)
        let missed = try JSONDecoder().decode(QueryResponseJSON.self, from: whole.body)
        #expect(!missed.results.contains { $0.type == "place" })

        let bad = try #require(await curl(daemon.socketPath, post + ["http://g/v1/query?box=0.5,0.5,0.6,0.2"]))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("bad_box"))
        directory.remove()
        try await daemon.stop()
    }

    @Test func twoPhotosSideBySideReturnBothPlacesWithBoxes() async throws {
        let daemon = try await RunningDaemon.start()
        let directory = try TemporaryDirectory()
        let picture = TestImages.sideBySide(
            try catalogPhoto("002-rows-of-colorful-plastic-cups.jpg"),
            try catalogPhoto("006-curved-facade-of-a-modern-building.jpg"), height: 600)
        let file = try pngFile(picture, "pair.png", in: directory)
        let answer = try #require(await curl(
            daemon.socketPath, ["-H", "Content-Type: image/png", "--data-binary", "@" + file, "http://g/v1/query"]))
        #expect(answer.status == 200)
        let page = try JSONDecoder().decode(QueryResponseJSON.self, from: answer.body)
        let places = page.results.filter { $0.type == "place" }
        #expect(Set(places.map(\.entity.id)) == ["colorful-plastic-cups", "curved-building-facade"])
        for place in places {
            let region = try #require(place.evidence.region)
            if place.entity.id == "colorful-plastic-cups" {
                #expect(region.x < 0.05 && region.x + region.width < 0.56)
            } else {
                #expect(region.x > 0.44 && region.x + region.width > 0.95)
            }
        }
        // Each place is followed by its collections.
        let first = try #require(page.results.first)
        let following = page.results.dropFirst().prefix { $0.type == "collection" }
        #expect(following.allSatisfy { $0.evidence.matchedPlace == first.entity.id })
        directory.remove()
        try await daemon.stop()
    }

    @Test func explainAnswersAPNGOfThePictureAndTheMatch() async throws {
        let daemon = try await RunningDaemon.start()
        let directory = try TemporaryDirectory()
        let file = bundledCatalogDirectory + "/photos/002-rows-of-colorful-plastic-cups.jpg"
        let answer = try #require(await curl(
            daemon.socketPath,
            ["-H", "Content-Type: image/jpeg", "--data-binary", "@" + file, "http://g/v1/query?explain=1"]))
        #expect(answer.status == 200)
        #expect(header("Content-Type", in: answer.head) == "image/png")
        let decoded = try ImageDecoder.decode(Array(answer.body))
        #expect(decoded.format == .png)
        // The picture and the reference photo side by side: wider than tall.
        #expect(decoded.pixelBuffer.width > decoded.pixelBuffer.height)
        directory.remove()
        try await daemon.stop()
    }
}
