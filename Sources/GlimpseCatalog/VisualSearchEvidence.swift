import GlimpseFiles
import GlimpseImage

/// Everything a visual search ranking depends on besides the catalog snapshot, quantised so that it
/// travels exactly in a cursor: re-ranking the same evidence on the same snapshot gives the same list.
struct VisualSearchEvidence: Sendable, Hashable {
    struct Label: Sendable, Hashable {
        /// Position in the snapshot's label vocabulary.
        var offset: Int
        /// Weight in units of 1/10000.
        var weight: Int
    }

    struct Match: Sendable, Hashable {
        /// Position of the place in the snapshot's places.
        var placeOffset: Int
        /// Score in units of 1/10000.
        var score: Int
        var accepted: Bool
        var inliers: Int?
        /// Where the place lies in the query picture, for an accepted match that reports it.
        var region: Region? = nil
        /// The print similarity, in units of 1/10000, when prints were compared.
        var similarity: Int? = nil
        /// The print margin over the next place, in units of 1/10000 (may be negative), when prints were compared.
        var margin: Int? = nil
        /// The place (its position in the snapshot's places) that kept this one from being accepted on its
        /// print, when one did; only the first page has it (a cursor does not carry it).
        var heldBackBy: Int? = nil
    }

    /// A region of the query picture (`ImageRegion`), each value in units of 1/10000.
    struct Region: Sendable, Hashable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int

        init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// `region` with its edges rounded, so that the rounded box still ends inside the picture.
        init(_ region: ImageRegion) {
            let left = VisualSearchEvidence.quantise(region.x), top = VisualSearchEvidence.quantise(region.y)
            let right = VisualSearchEvidence.quantise(region.x + region.width)
            let bottom = VisualSearchEvidence.quantise(region.y + region.height)
            self.init(x: min(left, 9_999), y: min(top, 9_999), width: max(1, right - min(left, 9_999)),
                      height: max(1, bottom - min(top, 9_999)))
        }

        /// The region, or `nil` when the values do not describe one inside the picture.
        var imageRegion: ImageRegion? {
            let scale = VisualSearchEvidence.scale
            return try? ImageRegion(x: Double(x) / scale, y: Double(y) / scale, width: Double(width) / scale,
                                    height: Double(height) / scale)
        }
    }

    var labels: [Label]
    var labelSource: LabelSource
    var matches: [Match]
    /// The smallest label fit that admits a collection without a matched member, in units of 1/10000.
    var minimumLabelFit: Int
    /// The least score a result needs to be listed, in units of 1/10000 (``acceptLine`` lists what is
    /// accepted, 0 every candidate and suggestion too).
    var minimumScore: Int = VisualSearchEvidence.acceptLine

    static let scale = 10_000.0
    /// The accept line, 0.5, in units of 1/10000: results at or above it are accepted, below it suggestions.
    static let acceptLine = 5_000
    /// The highest score a result below the line can have.
    static let belowLine = 4_999

    static func quantise(_ value: Double) -> Int { Int((min(max(value, 0), 1) * scale).rounded()) }

    /// `value` in −1…1, in units of 1/10000.
    static func quantiseSigned(_ value: Double) -> Int { Int((min(max(value, -1), 1) * scale).rounded()) }
}

/// Turns a cursor into bytes and back, signed with HMAC-SHA-256 (truncated to 16 bytes).
///
/// Layout: version (1) · snapshot id (8) · offset (4) · minimum label fit (2) · label source (1) ·
/// label count (1) · labels (offset 2, weight 2) · match count (1) · matches (place 2, score 2,
/// accepted 1, inliers 4 with `UInt32.max` for none, then in version 2 a region flag 1 and, when it is
/// 1, the region's x, y, width and height, 2 each, then in version 3 the print similarity 2 with
/// `UInt16.max` for none and the margin as a signed 2 with `Int16.min` for none) · in version 3 the
/// minimum score 2 · tag (16). Big-endian; base64url without padding. Version 1 and 2 cursors still
/// decode (minimum score: the accept line).
enum VisualSearchCursorCodec {
    static let version: UInt8 = 3
    static let tagLength = 16
    /// The largest weight, score or fit: 1 in units of 1/10000.
    static let maximumQuantity = UInt16(VisualSearchEvidence.scale)

    struct Contents: Equatable {
        var snapshotID: [UInt8]
        var offset: Int
        var evidence: VisualSearchEvidence
    }

    static func encode(_ contents: Contents, key: CursorKey) -> String {
        var writer = ByteWriter()
        writer.append(version)
        writer.append(contentsOf: contents.snapshotID)
        writer.append(bigEndian: UInt32(clamping: contents.offset))
        writer.append(bigEndian: UInt16(clamping: contents.evidence.minimumLabelFit))
        writer.append(contents.evidence.labelSource.rawValue)
        writer.append(UInt8(clamping: contents.evidence.labels.count))
        for label in contents.evidence.labels.prefix(255) {
            writer.append(bigEndian: UInt16(clamping: label.offset))
            writer.append(bigEndian: UInt16(clamping: label.weight))
        }
        writer.append(UInt8(clamping: contents.evidence.matches.count))
        for match in contents.evidence.matches.prefix(255) {
            writer.append(bigEndian: UInt16(clamping: match.placeOffset))
            writer.append(bigEndian: UInt16(clamping: match.score))
            writer.append(UInt8(match.accepted ? 1 : 0))
            writer.append(bigEndian: match.inliers.map { UInt32(clamping: $0) } ?? .max)
            if let region = match.region {
                writer.append(UInt8(1))
                for value in [region.x, region.y, region.width, region.height] {
                    writer.append(bigEndian: UInt16(clamping: value))
                }
            } else {
                writer.append(UInt8(0))
            }
            writer.append(bigEndian: match.similarity.map { UInt16(clamping: $0) } ?? .max)
            writer.append(bigEndian: UInt16(bitPattern: match.margin.map { Int16(clamping: $0) } ?? .min))
        }
        writer.append(bigEndian: UInt16(clamping: contents.evidence.minimumScore))
        return sign(writer.bytes, key: key)
    }

    /// `body` followed by its tag, as cursor text.
    static func sign(_ body: [UInt8], key: CursorKey) -> String {
        Base64URL.encode(body + SHA256.hmac(key: key.bytes, message: body).prefix(tagLength))
    }

    /// The contents, or `nil` when the text is not a cursor signed with `key`, or holds what ``encode(_:key:)``
    /// never writes (a weight, score or fit above 1, an accepted flag other than 0 or 1).
    static func decode(_ text: String, key: CursorKey) -> Contents? {
        guard let bytes = Base64URL.decode(text), bytes.count > tagLength + 1 else { return nil }
        let body = Array(bytes.dropLast(tagLength))
        let tag = Array(bytes.suffix(tagLength))
        let expected = Array(SHA256.hmac(key: key.bytes, message: body).prefix(tagLength))
        // Compare every byte so the time taken does not depend on where they differ.
        guard zip(tag, expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        return body.withUnsafeBytes { decode(ByteReader($0)) }
    }

    /// The contents of a cursor's signed bytes, or `nil` when they do not parse.
    private static func decode(_ reader: ByteReader<ByteReadError>) -> Contents? {
        var reader = reader
        guard let format = try? reader.read(UInt8.self), (1...version).contains(format), let id = try? reader.readBytes(count: 8),
              let offset = try? reader.read(bigEndian: UInt32.self), let minimumFit = try? reader.read(bigEndian: UInt16.self),
              minimumFit <= maximumQuantity, let sourceRaw = try? reader.read(UInt8.self),
              let source = LabelSource(rawValue: sourceRaw), let labelCount = try? reader.read(UInt8.self)
        else { return nil }
        var labels: [VisualSearchEvidence.Label] = []
        for _ in 0..<labelCount {
            guard let offset = try? reader.read(bigEndian: UInt16.self), let weight = try? reader.read(bigEndian: UInt16.self),
                  weight <= maximumQuantity
            else { return nil }
            labels.append(.init(offset: Int(offset), weight: Int(weight)))
        }
        guard let matchCount = try? reader.read(UInt8.self) else { return nil }
        var matches: [VisualSearchEvidence.Match] = []
        for _ in 0..<matchCount {
            guard let place = try? reader.read(bigEndian: UInt16.self), let score = try? reader.read(bigEndian: UInt16.self),
                  score <= maximumQuantity, let accepted = try? reader.read(UInt8.self), accepted <= 1,
                  let inliers = try? reader.read(bigEndian: UInt32.self)
            else { return nil }
            var region: VisualSearchEvidence.Region?
            if format >= 2 {
                guard let flag = try? reader.read(UInt8.self), flag <= 1 else { return nil }
                if flag == 1 {
                    guard let x = try? reader.read(bigEndian: UInt16.self), let y = try? reader.read(bigEndian: UInt16.self),
                          let w = try? reader.read(bigEndian: UInt16.self), let h = try? reader.read(bigEndian: UInt16.self),
                          [x, y, w, h].allSatisfy({ $0 <= maximumQuantity })
                    else { return nil }
                    region = .init(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
                }
            }
            var similarity: Int?, margin: Int?
            if format >= 3 {
                guard let s = try? reader.read(bigEndian: UInt16.self), s == .max || s <= maximumQuantity,
                      let m = try? reader.read(bigEndian: UInt16.self)
                else { return nil }
                let signed = Int16(bitPattern: m)
                guard signed == .min || abs(Int(signed)) <= Int(maximumQuantity) else { return nil }
                similarity = s == .max ? nil : Int(s)
                margin = signed == .min ? nil : Int(signed)
            }
            matches.append(.init(placeOffset: Int(place), score: Int(score), accepted: accepted == 1,
                                 inliers: inliers == .max ? nil : Int(inliers), region: region, similarity: similarity,
                                 margin: margin))
        }
        var minimumScore = VisualSearchEvidence.acceptLine
        if format >= 3 {
            guard let value = try? reader.read(bigEndian: UInt16.self), value <= maximumQuantity else { return nil }
            minimumScore = Int(value)
        }
        guard reader.isAtEnd else { return nil }
        return Contents(
            snapshotID: id, offset: Int(offset),
            evidence: VisualSearchEvidence(labels: labels, labelSource: source, matches: matches,
                                           minimumLabelFit: Int(minimumFit), minimumScore: minimumScore))
    }
}

/// Base64 with the URL-safe alphabet (`-`, `_`) and no padding, so cursors survive shells and URLs.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
            for position in 0...chunk.count {
                out.append(alphabet[Int(value >> UInt32(18 - 6 * position) & 0x3f)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt32] = []
        for byte in text.utf8 {
            guard let value = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt32(value))
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | $1.element << UInt32(18 - 6 * $1.offset) }
            for position in 0..<(chunk.count - 1) {
                out.append(UInt8(truncatingIfNeeded: value >> UInt32(16 - 8 * position)))
            }
            index += 4
        }
        return out
    }
}
