import Foundation
import GlimpseServer
import GlimpseTestSupport
import Logging
import Testing

@Suite("API reference")
struct APIDocumentationTests {
    /// Every route the router serves has a `### METHOD /path` heading in docs/api.md, and every such
    /// heading names a route the router serves.
    @Test func docsListExactlyTheRouterRoutes() async throws {
        let text = try String(contentsOfFile: repositoryRoot + "/docs/api.md", encoding: .utf8)
        let documented = Set(
            text.split(separator: "\n")
                .filter { $0.hasPrefix("### ") }
                .map { String($0.dropFirst(4)).trimmingCharacters(in: .whitespaces) }
        )
        let server = try GlimpseServer(
            configuration: GlimpseServerConfiguration(socketPath: "/tmp/unused.sock"),
            service: try await SharedService.shared.get(),
            logger: Logger(label: "test")
        )
        let served = Set(server.routeDescriptions)
        #expect(served.count >= 7)
        #expect(documented == served, "documented but not served: \(documented.subtracting(served)); served but not documented: \(served.subtracting(documented))")
    }
}
