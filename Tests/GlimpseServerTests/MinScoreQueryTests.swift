import Foundation
import GlimpseClient
import GlimpseImage
import GlimpseTestSupport
import GlimpseWire
import Testing

/// `min_score` on `POST /v1/query`: by default only what is accepted; below the line, on request, the
/// places the matcher ranked with their evidence and a reason saying they were not accepted.
@Suite("min_score through the daemon", .serialized)
struct MinScoreQueryTests {
    /// A gradient with noise: no catalog place.
    static func nothing() throws -> PixelBuffer {
        var state: UInt32 = 777
        return try TestImages.image(width: 640, height: 480) { x, y in
            state = state &* 1_103_515_245 &+ 12_345
            let noise = UInt8(truncatingIfNeeded: state >> 24) / 4
            return (UInt8(x / 3 % 256) &+ noise, UInt8(y / 2 % 256) &+ noise, 90 &+ noise)
        }
    }

    @Test func aPictureOfNothingAnswersNothingAndItsCandidatesOnRequest() async throws {
        let daemon = try await RunningDaemon.start()
        let directory = try TemporaryDirectory()
        let file = try directory.write("nothing.png", try Self.nothing().pngData())
        let post = ["-H", "Content-Type: image/png", "--data-binary", "@" + file]

        let plain = try #require(await curl(daemon.socketPath, post + ["http://g/v1/query"]))
        #expect(plain.status == 200)
        let accepted = try JSONDecoder().decode(QueryResponseJSON.self, from: plain.body)
        #expect(accepted.results.isEmpty)

        let open = try #require(await curl(daemon.socketPath, post + ["http://g/v1/query?min_score=0&limit=20"]))
        #expect(open.status == 200)
        let all = try JSONDecoder().decode(QueryResponseJSON.self, from: open.body)
        let places = all.results.filter { $0.type == "place" }
        #expect(!places.isEmpty)
        for result in all.results {
            #expect(result.score < 0.5)
            #expect(result.evidence.accepted == false)
            #expect(result.reason.hasSuffix("not accepted: below the line 0.5"))
        }
        // Places ranked best first; the client sends the same parameter.
        #expect(zip(places, places.dropFirst()).allSatisfy { $0.score >= $1.score })
        let bytes = try Self.nothing().pngData()
        let viaClient = try await daemon.client.withConnection { try await $0.query(image: bytes, minimumScore: 0) }
        #expect(viaClient.results.contains { $0.type == "place" })

        let bad = try #require(await curl(daemon.socketPath, post + ["http://g/v1/query?min_score=2"]))
        #expect(bad.status == 400)
        #expect(String(decoding: bad.body, as: UTF8.self).contains("bad_min_score"))
        directory.remove()
        try await daemon.stop()
    }
}
