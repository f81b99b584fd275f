import GlimpseServer
import NIOCore
import Testing
import HTTPTypes

/// Error bodies are byte-stable: the same error always gives the same JSON, keys sorted (docs/api.md).
@Suite("Error bodies")
struct ErrorBodyTests {
    @Test func keysAreSortedAndTheBodyIsStable() {
        let error = APIError(.badRequest, code: "bad_limit", message: "limit must be in 1…100")
        let expected = #"{"error":{"code":"bad_limit","message":"limit must be in 1…100","status":400}}"#
        for _ in 0..<20 {
            #expect(String(buffer: error.jsonBody) == expected)
        }
    }
}
