import GlimpseCatalog
import GlimpseImage
import GlimpseLabels

/// A matcher that returns fixed candidates, standing in for the real one in ranking and paging tests.
struct FixedMatcher: PlaceMatching {
    var candidates: [PlaceMatchCandidate]

    func matchPlaces(in image: PixelBuffer, limit: Int) async throws -> PlaceMatchReport {
        PlaceMatchReport(candidates: Array(candidates.prefix(limit)))
    }
}

/// A label model that returns fixed labels.
struct FixedLabeler: LabelDeriving {
    var labels: [ScoredLabel]

    func labels(for image: PixelBuffer) async throws -> [ScoredLabel] { labels }
}

/// A 1×1 gray picture: enough to make a descriptor carry pixels.
func tinyPicture() throws -> PixelBuffer {
    try PixelBuffer(width: 1, height: 1, pixelFormat: .gray8, bytes: [128])
}
