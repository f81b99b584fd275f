import Foundation
import Testing
@testable import GlimpseCatalog

@Suite("Hashing and cursor encoding")
struct CursorCodingTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256KnownAnswers(message: String, digest: String) {
        #expect(SHA256.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func hmacKnownAnswers() {
        // RFC 4231 test cases 2 and 6 (a key longer than one block).
        #expect(SHA256.hex(SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(SHA256.hex(SHA256.hmac(key: longKey, message: message))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func base64URLMatchesFoundationAndRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == bytes)
        }
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("abcde") == nil)
    }

    /// Signed cursor bodies the encoder never writes: 10,001 (just above 1) as the minimum fit (bytes 13–14),
    /// a label weight (19–20), a match score (24–25), a region value (36–37), a print similarity (40–41),
    /// a margin (42–43) or the minimum score (44–45), or 2 as the accepted flag (26) or the region flag (31).
    /// The body is version 0, snapshot 1–8, offset 9–12, fit 13–14, source 15, label count 16, one label
    /// 17–20, match count 21, one match 22–43 (place, score, accepted, inliers, region flag, region,
    /// similarity, margin), minimum score 44–45.
    @Test("a signed cursor holding a weight, score or fit above 1, or an accepted flag past 1, is refused",
          arguments: [(13, [0x27, 0x11]), (19, [0x27, 0x11]), (24, [0x27, 0x11]), (26, [2]), (31, [2]),
                      (36, [0x27, 0x11]), (40, [0x27, 0x11]), (42, [0x27, 0x11]), (44, [0x27, 0x11])]
              as [(Int, [UInt8])])
    func signedCursorOutOfRange(position: Int, replacement: [UInt8]) throws {
        let key = CursorKey(passphrase: "test")
        let contents = VisualSearchCursorCodec.Contents(
            snapshotID: [1, 2, 3, 4, 5, 6, 7, 8], offset: 1,
            evidence: VisualSearchEvidence(
                labels: [.init(offset: 3, weight: 10_000)], labelSource: .given,
                matches: [.init(placeOffset: 9, score: 10_000, accepted: true, inliers: 41,
                                region: .init(x: 0, y: 100, width: 5_000, height: 9_900), similarity: 10_000,
                                margin: -10_000)],
                minimumLabelFit: 10_000, minimumScore: 10_000))
        var body = Array(try #require(Base64URL.decode(VisualSearchCursorCodec.encode(contents, key: key)))
            .dropLast(VisualSearchCursorCodec.tagLength))
        #expect(body.count == 46)
        #expect(VisualSearchCursorCodec.decode(VisualSearchCursorCodec.sign(body, key: key), key: key) == contents)
        body.replaceSubrange(position..<(position + replacement.count), with: replacement)
        #expect(VisualSearchCursorCodec.decode(VisualSearchCursorCodec.sign(body, key: key), key: key) == nil)
    }

    @Test func aVersion1CursorWithoutRegionsStillDecodes() throws {
        let key = CursorKey(passphrase: "test")
        // Version 1: as version 2 without the region flag after each match's inliers.
        let body: [UInt8] = [1, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 1, 0x07, 0xD0, 1, 0, 1, 0, 9, 0x27, 0x10, 1, 0, 0, 0, 41]
        let contents = try #require(VisualSearchCursorCodec.decode(VisualSearchCursorCodec.sign(body, key: key), key: key))
        #expect(contents.offset == 1)
        #expect(contents.evidence.matches == [.init(placeOffset: 9, score: 10_000, accepted: true, inliers: 41)])
    }

    @Test func cursorRoundTripsAndRejectsTampering() throws {
        let key = CursorKey(passphrase: "test")
        let contents = VisualSearchCursorCodec.Contents(
            snapshotID: [1, 2, 3, 4, 5, 6, 7, 8], offset: 12,
            evidence: VisualSearchEvidence(
                labels: [.init(offset: 3, weight: 10_000), .init(offset: 39, weight: 2_500)], labelSource: .derived,
                matches: [.init(placeOffset: 90, score: 8_123, accepted: true, inliers: 41,
                                region: .init(x: 5_000, y: 0, width: 5_000, height: 10_000)),
                          .init(placeOffset: 0, score: 10, accepted: false, inliers: nil)],
                minimumLabelFit: 2_000))
        let text = VisualSearchCursorCodec.encode(contents, key: key)
        #expect(VisualSearchCursorCodec.decode(text, key: key) == contents)
        #expect(VisualSearchCursorCodec.decode(text, key: CursorKey(passphrase: "other")) == nil)
        // Changing any single character breaks the signature or the encoding.
        for index in text.indices {
            var changed = text
            changed.replaceSubrange(index...index, with: text[index] == "A" ? "B" : "A")
            #expect(VisualSearchCursorCodec.decode(changed, key: key) == nil)
        }
        #expect(VisualSearchCursorCodec.decode(String(text.dropLast(3)), key: key) == nil)
        #expect(VisualSearchCursorCodec.decode("", key: key) == nil)
    }
}
