import Foundation
import GlimpseBasics
import GlimpseFiles
import GlimpseTestSupport
import GlimpseWire
import Testing

// The soak's traffic (see SoakTests): the kinds of request, their proportions and payloads, and the
// comparable part of an answer.

/// The catalog photos the soak sends, with the place each must match best.
let soakPhotos: [(file: String, place: String)] = [
    ("001-wooden-jetty-on-a-calm-lake.jpg", "wooden-jetty-calm-lake"),
    ("002-rows-of-colorful-plastic-cups.jpg", "colorful-plastic-cups"),
    ("003-misty-lake-at-blue-hour.jpg", "misty-lake-blue-hour"),
    ("004-rowing-boats-on-a-lakeshore-at-sunset.jpg", "rowing-boats-lakeshore-sunset"),
]

/// Texts for `GET /v1/entities?q=`; each names at least one entity of the test catalog.
let soakSearches = ["lake", "cups", "moss", "sunset"]

/// The kinds of request in the soak, with how many of the 600 each makes up.
enum SoakKind: String, CaseIterable, Sendable {
    /// `POST /v1/query` with a catalog photo: 200 and its own place first.
    case goodQuery
    /// The same, but the client closes without reading the answer.
    case abandonedQuery
    /// Random bytes declared as `image/jpeg`: 415 `unsupported_image_format`.
    case garbage
    /// A JPEG cut just before its first scan (SOS): 422 `bad_image`.
    case jpegCutBeforeScan
    /// A PNG declaring 100,000 × 100,000 pixels: 413 `image_too_large`.
    case pngBomb
    /// `Content-Length: 1000000000` and no body: 413 `body_too_large`, connection closed.
    case hugeContentLength
    /// Half a request head, then the client closes.
    case halfHead
    /// `GET /v1/entities?q=…`: 200 and at least one entity.
    case entitySearch
    /// `GET /healthz`: 200.
    case health
    /// An unknown route: 404 `not_found`.
    case unknownRoute

    /// Requests of this kind in the soak. Picture queries are what cost time (about 0.4 s of CPU each
    /// in a debug build, two at a time on two cores; an abandoned one mostly runs to the end too), so
    /// they are about a tenth of the mix: the whole test then takes about 21 s on an idle 2-core
    /// machine and 42 s beside two CPU-bound processes.
    var count: Int {
        switch self {
        case .goodQuery: 48
        case .abandonedQuery: 16
        default: 67
        }
    }

    /// The error code the daemon counts in `glimpse_errors_total` for each request of this kind.
    var errorCode: String? {
        switch self {
        case .garbage: "unsupported_image_format"
        case .jpegCutBeforeScan: "bad_image"
        case .pngBomb: "image_too_large"
        case .hugeContentLength: "body_too_large"
        case .unknownRoute: "not_found"
        default: nil
        }
    }
}

/// One planned request: its kind and which photo or search text it uses.
struct SoakStep: Sendable {
    var kind: SoakKind
    var variant: Int
}

private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

/// A PNG chunk: length, type, data, CRC-32 of type and data.
private func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
}

/// A decompression bomb: a valid PNG header declaring `side` × `side` RGB pixels (30 GB decoded for
/// 100,000), a one-byte zlib stream as its only IDAT, and IEND.
private func pngBomb(side: UInt32) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header = bigEndian(side) + bigEndian(side) + [8, 2, 0, 0, 0]  // 8-bit RGB, no interlace
    let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]  // zlib of one zero byte
    return signature + pngChunk("IHDR", header) + pngChunk("IDAT", idat) + pngChunk("IEND", [])
}

/// The bytes of `jpeg` up to (not including) its first start-of-scan marker, found by walking the
/// marker segments.
private func cutBeforeFirstScan(_ jpeg: [UInt8]) -> [UInt8]? {
    guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
    var index = 2
    while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
        let marker = jpeg[index + 1]
        if marker == 0xDA { return Array(jpeg[..<index]) }
        let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
        index += 2 + length
    }
    return nil
}

/// Everything one soak client sends, prepared once.
struct SoakPayloads: Sendable {
    let photos: [[UInt8]]
    let garbage: [UInt8]
    let jpegCut: [UInt8]
    let bomb: [UInt8]

    /// The soak's photos, 4 KiB of seeded random bytes, the first photo cut before its first scan, and
    /// a PNG declaring 100,000 × 100,000 pixels.
    init() throws {
        photos = try soakPhotos.map { try photoBytes($0.file) }
        var generator = SeededGenerator(seed: 0x6172_6261_6765)
        garbage = [0x00] + (1..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        jpegCut = try #require(cutBeforeFirstScan(try photoBytes(soakPhotos[0].file)))
        bomb = pngBomb(side: 100_000)
    }
}

/// The comparable part of a query answer: the answer with its timings zeroed and its cursor, signed per
/// request, reduced to whether there is one.
struct SoakAnswer: Equatable, Sendable {
    let answer: QueryResponseJSON

    init(_ answer: QueryResponseJSON) {
        var comparable = answer
        comparable.timings = TimingsJSON(bodyMs: 0, decodeMs: 0, queryMs: 0, totalMs: 0)
        comparable.matcherTimingsMs = [:]
        comparable.next = answer.next.map { _ in "" }
        self.answer = comparable
    }
}
