import Foundation
import GlimpseFiles
public import GlimpseImage
public import GlimpseWire

/// What the daemon serves: visual search and entity lookups over one loaded catalog.
///
/// The daemon decodes pictures itself and hands the pixels here; every method runs on the query
/// threads (never on an event loop) and may do CPU-bound work. A query whose client goes away, or that
/// is still running when the daemon stops, is cancelled (task cancellation): long work checks it
/// between stages and throws `CancellationError`. Errors meant for the client are the domain's own
/// (`VisualSearchError`, `EntityQueryError`, `UnknownEntityTypeError`), which the daemon's middleware
/// turns into `400`s, or an ``APIError``; anything else becomes a `500`.
public protocol SearchService: Sendable {
    /// The number of places in the loaded catalog.
    var placeCount: Int { get }
    /// The number of collections in the loaded catalog.
    var collectionCount: Int { get }
    /// The number of reference photos in the loaded catalog.
    var photoCount: Int { get }
    /// The id of the catalog snapshot queries run against.
    var snapshotID: String { get }
    /// How query pictures are decoded (the same options the in-process query uses). The daemon
    /// lowers the pixel and byte limits to its own.
    var decodingOptions: DecodingOptions { get }
    /// Why the matcher serves some references less well than it should (keypoint slots found damaged),
    /// or `nil`: `GET /healthz` then says `degraded` with this reason.
    var matcherProblem: String? { get }
    /// The keypoint slots found damaged since the daemon started, once each (`GET /metrics`).
    var keypointSlotDamage: Int { get }
    /// The print-alone accept line measured for the served catalog, when it has one.
    var printLine: PrintLineJSON? { get }

    /// Finds the entities a picture shows.
    /// - Parameters:
    ///   - labels: scene labels the caller already knows, added to the derived ones.
    ///   - limit: the most results on the first page.
    /// - Returns: the page, without the request's image information and timings (the daemon adds them).
    func search(image: PixelBuffer, labels: [String], limit: Int) async throws -> QueryResponseJSON

    /// Finds the entities `region` of a picture shows (`box=`): only the region is matched and
    /// labelled; regions in the answer are in the whole picture's coordinates.
    func search(image: PixelBuffer, labels: [String], limit: Int, region: ImageRegion?) async throws -> QueryResponseJSON

    /// Finds the entities `region` of a picture shows, listing every result scoring at least
    /// `minimumScore` (`min_score=`; `nil`: the accept line, so only what is accepted). Below the line
    /// come possible places and suggested collections, each with its evidence and a reason saying it
    /// was not accepted.
    func search(
        image: PixelBuffer, labels: [String], limit: Int, region: ImageRegion?, minimumScore: Double?
    ) async throws -> QueryResponseJSON

    /// The explain picture of a query (`explain=1`): the picture, the reference photos of the places
    /// found and the correspondences between them, encoded as PNG.
    func explain(image: PixelBuffer, region: ImageRegion?) async throws -> [UInt8]

    /// The page after the one that returned `cursor`, of `limit` results (`nil`: the default).
    func nextPage(cursor: String, limit: Int?) async throws -> QueryResponseJSON

    /// The entity of `type` (`place` or `collection`) with `id`, or `nil`.
    func entity(type: String, id: String) async throws -> EntityJSON?

    /// Entities whose names or descriptions match `text`.
    func entities(matching text: String, limit: Int) async throws -> [EntityJSON]

    /// Entities of `type` matching a property query.
    func entities(type: String, query: PropertyQueryJSON) async throws -> [EntityJSON]

    /// The picture of the entity of `type` with `id` (served at `GET /v1/entities/{type}/{id}/image`),
    /// or `nil` when there is no such entity or it has no picture.
    func entityImage(type: String, id: String) async throws -> EntityImage?
}

extension SearchService {
    /// One photo per place, for services that do not say.
    public var photoCount: Int { placeCount }
    /// No snapshot id, for services that do not say.
    public var snapshotID: String { "" }
    /// No matcher problem, for services that do not say.
    public var matcherProblem: String? { nil }
    /// No damage, for services that do not say.
    public var keypointSlotDamage: Int { 0 }
    /// No print line, for services that do not say.
    public var printLine: PrintLineJSON? { nil }

    /// Searches the region cropped out of the picture; regions in the answer are mapped back to the
    /// whole picture's coordinates, the one convention of every answer (as ``CatalogSearchService`` and
    /// the in-process query give them).
    public func search(image: PixelBuffer, labels: [String], limit: Int, region: ImageRegion?) async throws -> QueryResponseJSON {
        guard let region else { return try await search(image: image, labels: labels, limit: limit) }
        var page = try await search(image: image.cropped(to: region), labels: labels, limit: limit)
        for index in page.results.indices {
            page.results[index].evidence.region = page.results[index].evidence.region.map { Self.whole($0, of: region) }
        }
        return page
    }

    /// `inner`, a region in `crop`'s coordinates, in the whole picture's, kept to four decimals as
    /// answers keep regions.
    static func whole(_ inner: RegionJSON, of crop: ImageRegion) -> RegionJSON {
        func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
        return RegionJSON(
            x: rounded(crop.x + inner.x * crop.width), y: rounded(crop.y + inner.y * crop.height),
            width: rounded(inner.width * crop.width), height: rounded(inner.height * crop.height))
    }

    /// Services without a line list what they list by default, whatever `minimumScore`.
    public func search(
        image: PixelBuffer, labels: [String], limit: Int, region: ImageRegion?, minimumScore: Double?
    ) async throws -> QueryResponseJSON {
        try await search(image: image, labels: labels, limit: limit, region: region)
    }

    /// No explanations: services without a matcher answer `404 no_explanation`.
    public func explain(image: PixelBuffer, region: ImageRegion?) async throws -> [UInt8] {
        throw APIError.notFound("no_explanation", "this daemon does not draw explain pictures; leave explain out")
    }

    /// No pictures: services that do not serve entity pictures answer `404` for every one.
    public func entityImage(type: String, id: String) async throws -> EntityImage? { nil }
}

/// An entity's picture as the daemon serves it: its bytes, media type and entity tag.
public struct EntityImage: Sendable, Equatable {
    /// The file's bytes.
    public var bytes: [UInt8]
    /// `image/jpeg`, `image/png`, or `application/octet-stream`.
    public var contentType: String
    /// A strong entity tag (quoted) that changes whenever the bytes do.
    public var eTag: String

    /// Creates a picture from its bytes, deriving the media type from the leading bytes and the entity
    /// tag from a 64-bit FNV-1a hash of the bytes and their count.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        switch ImageDecoder.format(of: bytes) {
        case .jpeg?: contentType = "image/jpeg"
        case .png?: contentType = "image/png"
        default: contentType = "application/octet-stream"
        }
        var hash = FNV1a64()
        hash.add(bytes)
        eTag = "\"" + hash.hex + "-" + String(bytes.count, radix: 16) + "\""
    }

    /// Whether an `If-None-Match` value names `eTag` (or is `*`). Weak comparison, as RFC 9110 asks.
    public static func matches(_ condition: String, eTag: String) -> Bool {
        let wanted = eTag.hasPrefix("W/") ? String(eTag.dropFirst(2)) : eTag
        return condition.split(separator: ",").contains { item in
            let tag = item.trimmingCharacters(in: .whitespaces)
            return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == wanted
        }
    }
}
