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

    /// Every route the router serves is an operation of docs/openapi.yaml, and every operation there
    /// is a route the router serves. (scripts/test.sh validates the file against OpenAPI 3.1, and
    /// scripts/schemathesis.sh checks a live daemon's answers against it.)
    @Test func openAPIDescribesExactlyTheRouterRoutes() async throws {
        let text = try String(contentsOfFile: repositoryRoot + "/docs/openapi.yaml", encoding: .utf8)
        let described = Set(Self.openAPIOperations(text))
        let server = try GlimpseServer(
            configuration: GlimpseServerConfiguration(socketPath: "/tmp/unused.sock"),
            service: try await SharedService.shared.get(),
            logger: Logger(label: "test")
        )
        let served = Set(server.routeDescriptions)
        #expect(described.count >= 7)
        #expect(described == served, "described but not served: \(described.subtracting(served)); served but not described: \(served.subtracting(described))")
    }

    /// The reader below finds operations in block-style YAML as docs/openapi.yaml writes it.
    @Test func openAPIOperationsAreReadFromThePathsBlock() {
        let yaml = """
            openapi: 3.1.0
            paths:
              /a/{id}:
                get:
                  responses: {}
                delete:
                  summary: x
                parameters: []
              '/b':
                post: {}
            components:
              schemas:
                get: {}
            """
        #expect(Self.openAPIOperations(yaml) == ["GET /a/{id}", "DELETE /a/{id}", "POST /b"])
    }

    /// The operations under the top-level `paths:` key of an OpenAPI document, as `METHOD /path`:
    /// path keys are the keys indented one level under `paths:`, methods the HTTP-method keys one level
    /// under a path.
    static func openAPIOperations(_ yaml: String) -> [String] {
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var operations: [String] = []
        var inPaths = false
        var pathIndent: Int?
        var currentPath: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: true) {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = line.count - trimmed.count
            if indent == 0 {
                inPaths = trimmed.hasPrefix("paths:")
                pathIndent = nil
                currentPath = nil
                continue
            }
            guard inPaths, let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = trimmed[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            if pathIndent == nil { pathIndent = indent }
            if indent == pathIndent {
                currentPath = key.hasPrefix("/") ? key : nil
            } else if let currentPath, indent > pathIndent ?? 0, methods.contains(key) {
                let methodIndent = (pathIndent ?? 0) * 2
                if indent == methodIndent { operations.append("\(key.uppercased()) \(currentPath)") }
            }
        }
        return operations
    }
}
