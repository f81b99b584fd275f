import GlimpseTestSupport
import Foundation
import GlimpseCatalog
import GlimpseImage
import GlimpseIntents
import GlimpseServer
import GlimpseTerminalText
import GlimpseWire
import NIOCore
import Testing
import GlimpseClient
import GlimpseEngine
import NIOHTTP1

/// The daemon's answers against the same queries run in this process.
@Suite("Daemon queries", .serialized)
struct ServerQueryTests {
    /// The in-process answer for a photo, as `glimpse query` computes it: decode no larger than the
    /// matcher looks at, then ``VisualSearchQuery/search(_:limit:)``.
    private func inProcess(_ name: String, limit: Int) async throws -> QueryResponseJSON {
        let engine = try await SharedService.shared.get().engine
        let picture = try engine.decode(try photoBytes(name))
        return QueryResponseJSON(page: try await engine.search(SemanticContentDescriptor(pixelBuffer: picture), limit: limit))
    }

    /// The printed text without the cursor line (cursors are signed with per-process keys).
    private func printed(_ response: QueryResponseJSON) -> String {
        response.text().split(separator: "\n").filter { !$0.hasPrefix("more: ") }.joined(separator: "\n")
    }

    private func summary(_ results: [SearchResultJSON]) -> [String] {
        results.map { "\($0.type)/\($0.entity.id) \($0.score) \($0.reason)" }
    }

    @Test func clientAnswersPrintExactlyLikeTheInProcessQuery() async throws {
        let daemon = try await RunningDaemon.start()
        // The in-process answers first: computed while the connection is open, they would leave it idle
        // for as long as a search takes in a loaded debug run, and the daemon closes idle connections.
        var inProcessAnswers: [String: (first: QueryResponseJSON, all: QueryResponseJSON)] = [:]
        for name in samplePhotos {
            inProcessAnswers[name] = (try await inProcess(name, limit: 3), try await inProcess(name, limit: 100))
        }
        let places = try await SharedService.shared.get().catalog.places.count
        try await daemon.client.withConnection { [inProcessAnswers] connection in
            for name in samplePhotos {
                let (expected, all) = try #require(inProcessAnswers[name])
                let answer = try await connection.query(image: try photoBytes(name), limit: 3)
                let viaDaemon = answer
                #expect(printed(viaDaemon) == printed(expected), "\(name)")
                // The same results, but for the picture: the daemon names its URL, never a host path.
                #expect(viaDaemon.results.map(\.entity) == expected.results.map(\.entity))
                #expect(viaDaemon.results.map(\.score) == expected.results.map(\.score))
                #expect(viaDaemon.results.map(\.reason) == expected.results.map(\.reason))
                for result in viaDaemon.results {
                    let image = result.entity.displayRepresentation.image
                    #expect(image == nil || image == "/v1/entities/\(result.type)/\(result.entity.id)/image")
                }
                #expect(viaDaemon.labels == expected.labels)
                #expect((answer.next != nil) == (expected.next != nil))
                #expect(answer.image?.format == "jpeg")
                #expect(answer.timings.totalMs >= answer.timings.decodeMs + answer.timings.queryMs)
                #expect(!answer.results.isEmpty)
                if let cursor = answer.next {
                    let next = try await connection.next(cursor: cursor)
                    #expect(next.offset == 3)
                    #expect(next.results.map(\.entity.id) == Array(all.results.dropFirst(3).prefix(10)).map(\.entity.id))
                }
            }
            let health = try await connection.health()
            #expect(health.places == places)
        }
        try await daemon.stop()
    }

    @Test func curlAnswerMatchesTheClientAnswer() async throws {
        let daemon = try await RunningDaemon.start()
        let name = samplePhotos[0]
        let viaClient = try await daemon.client.withConnection { try await $0.query(image: try photoBytes(name), limit: 5) }
        let socket = daemon.socketPath
        let output = await offThread { () -> (Int32, Data) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = [
                "-s", "--unix-socket", socket, "-H", "Content-Type: image/jpeg",
                "--data-binary", "@" + bundledCatalogDirectory + "/photos/" + name, "http://glimpse/v1/query?limit=5",
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            do { try process.run() } catch { return (-1, Data()) }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, data)
        }
        #expect(output.0 == 0)
        let viaCurl = try JSONDecoder().decode(QueryResponseJSON.self, from: output.1)
        #expect(viaCurl.results == viaClient.results)
        #expect(viaCurl.labels == viaClient.labels)
        try await daemon.stop()
    }

    @Test func entityRoutesAnswerFromTheCatalog() async throws {
        let daemon = try await RunningDaemon.start()
        let service = try await SharedService.shared.get()
        let place = try #require(service.catalog.places.first)
        try await daemon.client.withConnection { connection in
            let entity = try await connection.entity(type: "place", id: place.id)
            #expect(entity.id == place.id)
            #expect(entity.displayRepresentation.title == place.name)
            let missing = try await connection.send(method: .GET, target: "/v1/entities/place/no-such-place")
            #expect(missing.status == 404)
            let found = try await connection.entities(matching: place.name)
            #expect(found.entities.first?.id == place.id)
            let lakes = try await connection.entities(
                type: "place",
                query: PropertyQueryJSON(
                    comparators: [ComparatorJSON(property: "kind", comparator: "equalTo", value: .string(place.kind))],
                    sort: [SortJSON(property: "name")], limit: 50
                )
            )
            let expected = service.catalog.places.filter { $0.kind == place.kind }.map(\.id).sorted()
            #expect(lakes.entities.map(\.id).sorted() == expected)
            let names = lakes.entities.compactMap { entity -> String? in
                if case .string(let name) = entity.properties["name"] { return name }
                return nil
            }
            #expect(names == names.sorted { $0.lowercased() < $1.lowercased() } || names.count == lakes.entities.count)
            let bad = try await connection.send(
                method: .POST, target: "/v1/entities/place/query", headers: [("Content-Type", "application/json")],
                body: ByteBuffer(string: #"{"comparators":[{"property":"nope","comparator":"equalTo","value":"x"}]}"#)
            )
            #expect(bad.status == 400)
        }
        try await daemon.stop()
    }

    @Test func thirtyTwoClientsGetTheSameAnswersAsSequential() async throws {
        let daemon = try await RunningDaemon.start()
        let client = daemon.client
        let service = try await SharedService.shared.get()
        // Mostly cheap entity lookups, with a picture query from every fourth client (debug builds
        // match slowly).
        let ids = service.catalog.places.prefix(8).map(\.id)
        let picture = try photoBytes(samplePhotos[1])
        let sequential = try await client.withConnection { connection in
            var answers: [String: String] = [:]
            for id in ids { answers[id] = try await connection.entity(type: "place", id: id).displayRepresentation.title }
            answers["picture"] = summary(try await connection.query(image: picture, limit: 3).results).joined(separator: "|")
            return answers
        }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<32 {
                group.addTask {
                    try await client.withConnection { connection in
                        var wrong = 0
                        for request in 0..<50 {
                            if worker % 4 == 0, request == worker % 50 {
                                let answer = try await connection.query(image: picture, limit: 3)
                                if summary(answer.results).joined(separator: "|") != sequential["picture"] { wrong += 1 }
                            } else {
                                let id = ids[(worker + request) % ids.count]
                                let entity = try await connection.entity(type: "place", id: id)
                                if entity.displayRepresentation.title != sequential[id] { wrong += 1 }
                            }
                        }
                        return wrong
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        try await daemon.stop()
    }
}
