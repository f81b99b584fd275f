public import GlimpseCatalog
public import GlimpseImage
public import GlimpseIntents
import GlimpseVision

extension Engine {
    /// How query pictures are decoded when only `region` of them is searched: large enough that the
    /// region, not the whole picture, gets the size the matcher looks at (``decodingOptions`` for `nil`).
    public func decodingOptions(showing region: ImageRegion?) -> DecodingOptions {
        region.map { decodingOptions.showing($0) } ?? decodingOptions
    }

    /// The first page of the visual search limited to `region` of the picture (see
    /// `VisualSearchQuery.search(_:limit:region:minimumScore:)`), on the current generation.
    ///
    /// - Parameters:
    ///   - input: the picture and/or labels searched with.
    ///   - limit: the page size; `nil` for the default.
    ///   - region: the part of the picture searched, normalised; `nil` for the whole picture.
    ///   - minimumScore: the least score listed (`nil`: the accept line for a picture, 0 for labels
    ///     alone); 0 lists the places the matcher ranked but did not accept, with their evidence.
    public func search(
        _ input: SemanticContentDescriptor, limit: Int? = nil, region: ImageRegion?, minimumScore: Double? = nil
    ) async throws -> VisualSearchPage {
        try await current.query.search(input, limit: limit, region: region, minimumScore: minimumScore)
    }

    /// A picture of why the search answers what it does for `picture` (limited to `region`): the
    /// picture on the left, the reference photo of each place found on the right, the inlier
    /// correspondences as lines between them and each photo's outline as the matcher placed it in the
    /// picture, one colour per place; the region of interest is framed in white. With no place found,
    /// the picture alone. What `glimpse query --explain` and `POST /v1/query?explain=1` return, as PNG.
    ///
    /// - Throws: ``ExplainError`` when the engine does not match pictures; `CancellationError` when
    ///   the task is cancelled.
    public func explain(_ picture: PixelBuffer, region: ImageRegion? = nil) throws -> PixelBuffer {
        let generation = current
        guard let matcher = generation.matcher else { throw ExplainError.noMatcher }
        let crop = region == .whole ? nil : region
        let report = try matcher.matchUnlessCancelled(crop.map { picture.cropped(to: $0) } ?? picture, limit: 5)
        let places = report.places.map { place in
            crop.map { place.geometry.inPicture(croppedTo: $0) } ?? place.geometry
        }
        let photos = places.map { referencePhoto(key: $0.referenceKey, catalog: generation.catalog) }
        return ExplainDrawing.draw(picture: picture, region: crop, places: places, photos: photos)
    }

    /// The reference photo a matcher key names, decoded for drawing, or `nil` when it cannot be read.
    private func referencePhoto(key: String, catalog: Catalog) -> PixelBuffer? {
        let path: String
        if let separator = key.firstIndex(of: "\u{0}") {
            path = String(key[key.index(after: separator)...])
        } else {
            // Keys of matchers built from ids alone (`id#n`): the place's first photo.
            let id = key.split(separator: "#").dropLast().joined(separator: "#")
            guard let place = catalog.place(id: id.isEmpty ? key : id) else { return nil }
            path = place.photoPath
        }
        return try? ImageDecoder.decode(contentsOfFile: path, options: DecodingOptions(maxDimension: 800)).pixelBuffer
    }
}

/// Why an explain picture could not be made.
public enum ExplainError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine was loaded without the matcher (pictures are not matched).
    case noMatcher

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .noMatcher:
            "this engine does not match pictures, so there is nothing to explain; load it with matching on"
        }
    }
}

/// Lays out and draws the explain picture (see ``Engine/explain(_:region:)``).
enum ExplainDrawing {
    /// The height of the picture panel in pixels.
    static let height = 600
    static let gap = 12
    /// The most correspondence lines drawn per place (evenly chosen); every inlier still gets its dots.
    static let maxLines = 150
    static let colours = [
        RGBColour(40, 220, 80), RGBColour(255, 150, 30), RGBColour(40, 190, 255), RGBColour(240, 60, 200),
    ]

    static func draw(
        picture: PixelBuffer, region: ImageRegion?, places: [MatchGeometry], photos: [PixelBuffer?]
    ) -> PixelBuffer {
        // The picture at its aspect ratio, `height` pixels high unless that makes it wider than 3 × `height`.
        let scale = min(Double(height) / Double(picture.height), 3 * Double(height) / Double(picture.width))
        let w = max(1, Int((Double(picture.width) * scale).rounded()))
        let h = max(1, Int((Double(picture.height) * scale).rounded()))
        // The reference photos stacked on the right, each fitted into a cell of equal height.
        let cell = places.isEmpty ? 0 : max(1, (h - gap * (places.count - 1)) / places.count)
        let sizes = photos.map { photo -> (width: Int, height: Int) in
            guard let photo else { return (cell * 4 / 3, cell) }
            let fit = min(Double(cell) / Double(photo.height), 2 * Double(h) / Double(photo.width))
            return (max(1, Int((Double(photo.width) * fit).rounded())), max(1, Int((Double(photo.height) * fit).rounded())))
        }
        let column = sizes.map(\.width).max() ?? 0
        var canvas = RGBCanvas(
            width: w + (places.isEmpty ? 0 : gap + column), height: h, background: RGBColour(24, 24, 24))
        canvas.draw(picture, x: 0, y: 0, width: w, height: h)
        if let region {
            canvas.rectangle(
                x: region.x * Double(w), y: region.y * Double(h), width: region.width * Double(w),
                height: region.height * Double(h), colour: RGBColour(255, 255, 255), thickness: 2)
        }
        for (index, place) in places.enumerated() {
            let colour = colours[index % colours.count]
            let left = w + gap, top = index * (cell + gap)
            let size = sizes[index]
            if let photo = photos[index] {
                canvas.draw(photo, x: left, y: top, width: size.width, height: size.height)
            } else {
                canvas.rectangle(x: Double(left), y: Double(top), width: Double(size.width), height: Double(size.height),
                                 colour: RGBColour(128, 128, 128))
            }
            canvas.rectangle(x: Double(left), y: Double(top), width: Double(size.width - 1),
                             height: Double(size.height - 1), colour: colour, thickness: 2)
            let step = max(1, (place.correspondences.count + maxLines - 1) / maxLines)
            for (k, pair) in place.correspondences.enumerated() {
                let qx = pair.query.x * Double(w), qy = pair.query.y * Double(h)
                let rx = Double(left) + pair.reference.x * Double(size.width)
                let ry = Double(top) + pair.reference.y * Double(size.height)
                if k % step == 0 { canvas.line(from: qx, qy, to: rx, ry, colour: colour) }
                canvas.dot(x: qx, y: qy, radius: 2, colour: colour)
                canvas.dot(x: rx, y: ry, radius: 2, colour: colour)
            }
            canvas.polygon(place.outline.map { ($0.x * Double(w), $0.y * Double(h)) }, colour: colour, thickness: 3)
        }
        return canvas.pixelBuffer
    }
}
