import Foundation
import GlimpseTestSupport
import GlimpseWire
import Testing

/// An in-process daemon given its own executor answers while every thread of Swift's shared executor is
/// held by other work: the condition under which, on its shared threads, it once took over 600 s.
@Suite("The daemon on its own executor")
struct DaemonExecutorTests {
    @Test func aQueryIsAnsweredWhileEverySharedThreadIsBlocked() async throws {
        let daemon = try await RunningDaemon.start()
        let photo = bundledCatalogDirectory + "/photos/" + samplePhotos[1]
        let (allHeld, reply) = await withEverySharedThreadHeld {
            // 60 s: the daemon answers in well under a second; on the shared threads it never would.
            blockingCurl(daemon.socketPath,
                         ["-H", "Content-Type: image/jpeg", "--data-binary", "@" + photo, "http://g/v1/query"], maxTime: 60)
        }
        #expect(allHeld, "every thread of the shared executor was held")
        let answer = try #require(reply, "the daemon did not answer within 60 s")
        #expect(answer.status == 200)
        let found = try JSONDecoder().decode(QueryResponseJSON.self, from: answer.body)
        #expect(found.results.first?.entity.id == "colorful-plastic-cups")
        try await daemon.stop()
    }
}
