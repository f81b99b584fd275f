import Foundation
import GlimpseImage
import GlimpseTestSupport
import Testing
@testable import GlimpseVision

/// A matcher over a few catalog photos of distinct places, by photo name; built once.
private let regionMatcher: VisualMatcher = {
    let names = [
        "040-eiffel-tower", "070-chich-n-itz-el-castillo", "004-rowing-boats-on-a-lakeshore-at-sunset",
        "046-berlin-cathedral", "017-weathered-wooden-boards", "050-colosseum", "077-two-jaguars-on-rocks",
        "002-rows-of-colorful-plastic-cups", "062-petra-ad-deir-the-monastery", "048-neuschwanstein-castle",
    ]
    let references = names.compactMap { name -> (id: String, features: ImageFeatures)? in
        guard let picture = try? Fixtures.decode(Fixtures.photosDirectory + "/\(name).jpg") else { return nil }
        return (name, FeatureExtractor.extract(from: picture))
    }
    return VisualMatcher(references: references)
}()

private func photo(_ name: String) throws -> PixelBuffer {
    try Fixtures.decode(Fixtures.photosDirectory + "/\(name).jpg", maxDimension: 1024)
}

@Suite("Places located in the query picture")
struct PlaceRegionTests {
    @Test func onePhotoIsOnePlaceCoveringThePicture() throws {
        let report = regionMatcher.match(try photo("040-eiffel-tower"))
        #expect(report.accepted?.referenceID == "040-eiffel-tower")
        #expect(report.places.count == 1)
        let region = try #require(report.places.first?.geometry.region)
        #expect(region.x < 0.05 && region.y < 0.05 && region.width > 0.9 && region.height > 0.9)
        #expect(report.places.first?.geometry.correspondences.count == report.accepted?.inliers)
    }

    @Test(arguments: [
        ("070-chich-n-itz-el-castillo", "046-berlin-cathedral"),
        ("017-weathered-wooden-boards", "040-eiffel-tower"),
    ])
    func twoPhotosSideBySideAreTwoPlacesInTheirHalves(left: String, right: String) throws {
        let picture = TestImages.sideBySide(try photo(left), try photo(right), height: 600)
        let report = regionMatcher.match(picture)
        let ids = report.places.map(\.candidate.referenceID)
        #expect(Set(ids) == [left, right])
        for place in report.places {
            let region = place.geometry.region
            let centre = region.x + region.width / 2
            if place.candidate.referenceID == left {
                #expect(centre < 0.5 && region.x + region.width < 0.6)
            } else {
                #expect(centre > 0.5 && region.x > 0.4)
            }
            #expect(region.height > 0.85)
        }
        // Every located place is a candidate, marked verified, with its own evidence.
        for place in report.places {
            #expect(report.candidates.contains { $0.referenceID == place.candidate.referenceID && $0.verified })
        }
    }

    @Test func aMirroredPhotoIsLocatedInThePictureAsShown() throws {
        let picture = try photo("046-berlin-cathedral")
        let report = regionMatcher.match(try Fixtures.buffer(GrayImage(luminanceOf: picture).mirrored()))
        guard let place = report.places.first, place.geometry.mirrored else { return }  // matched unmirrored: nothing to check
        // The outline's top-left corner of the photo lands at the right of the mirrored picture.
        #expect(place.geometry.outline[0].x > 0.9)
    }
}
