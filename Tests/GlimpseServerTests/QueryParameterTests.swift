import Foundation
import GlimpseImage
import GlimpseTestSupport
import GlimpseWire
import Testing

/// Query parameters through the daemon: a parameter that takes one value is refused when repeated (the
/// first would otherwise win in silence), and a value holding a NUL or another control character is refused
/// (`min_score=0.5%00` would otherwise be read as 0.5).
@Suite("query parameters through the daemon", .serialized)
struct QueryParameterTests {
    static func code(_ body: Data) -> String? {
        (try? JSONDecoder().decode(ErrorEnvelope.self, from: body))?.error.code
    }

    @Test func repeatedAndControlCharacterParametersAreRefused() async throws {
        let daemon = try await RunningDaemon.start()
        let directory = try TemporaryDirectory()
        let file = try directory.write("nothing.png", try MinScoreQueryTests.nothing().pngData())
        let post = ["-H", "Content-Type: image/png", "--data-binary", "@" + file]
        let cases: [(arguments: [String], status: Int, code: String?)] = [
            (post + ["http://g/v1/query?min_score=0.5%00"], 400, "bad_parameter"),
            (post + ["http://g/v1/query?min_score=0.5&min_score=0.9"], 400, "repeated_parameter"),
            (post + ["http://g/v1/query?limit=2&limit=3"], 400, "repeated_parameter"),
            (post + ["http://g/v1/query?labels=sky%01"], 400, "bad_parameter"),
            (post + ["http://g/v1/query?explain=0&explain=1"], 400, "repeated_parameter"),
            (["http://g/v1/entities?q=tower&q=lake"], 400, "repeated_parameter"),
            (["http://g/v1/entities?q=tow%00er"], 400, "bad_parameter"),
            (post + ["http://g/v1/query?min_score=0.5&labels=sky&labels=water"], 200, nil),
        ]
        for request in cases {
            let answer = try #require(await curl(daemon.socketPath, request.arguments))
            #expect(answer.status == request.status, "\(request.arguments.last ?? "")")
            if let expected = request.code {
                #expect(Self.code(answer.body) == expected, "\(String(decoding: answer.body, as: UTF8.self))")
            }
        }
        let repeated = try #require(await curl(daemon.socketPath, post + ["http://g/v1/query?min_score=0.5&min_score=0.9"]))
        #expect(String(decoding: repeated.body, as: UTF8.self).contains("min_score is given 2 times; pass it once"))
        directory.remove()
        try await daemon.stop()
    }
}
