import Foundation
import GlimpseImage
import GlimpseServer
import Synchronization
import Testing

/// The real catalog service, except that the first picture search waits until the test lets it go
/// and every picture search is counted.
private final class HeldSearchService: SearchService {
    private let real: CatalogSearchService
    private let searches = Atomic(0)
    private let released = Atomic(false)

    init(real: CatalogSearchService) { self.real = real }

    /// Picture searches started so far.
    var searchCount: Int { searches.load(ordering: .acquiring) }

    /// Lets the held search finish.
    func release() { released.store(true, ordering: .releasing) }

    var placeCount: Int { real.placeCount }
    var collectionCount: Int { real.collectionCount }
    var decodingOptions: DecodingOptions { real.decodingOptions }

    func search(image: PixelBuffer, labels: [String], limit: Int, cancellation: QueryCancellation) async throws -> SearchPage {
        if searches.add(1, ordering: .acquiringAndReleasing).newValue == 1 {
            // Blocks its query thread, as a long CPU-bound query does (an `await` would free the thread).
            let deadline = ContinuousClock.now + .seconds(60)
            while !released.load(ordering: .acquiring) && ContinuousClock.now < deadline {
                usleep(5_000)
            }
        }
        return try await real.search(image: image, labels: labels, limit: limit, cancellation: cancellation)
    }

    func nextPage(cursor: String, limit: Int?, cancellation: QueryCancellation) async throws -> SearchPage {
        try await real.nextPage(cursor: cursor, limit: limit, cancellation: cancellation)
    }

    func entity(type: String, id: String) async throws -> EntityJSON? { try await real.entity(type: type, id: id) }

    func entities(matching text: String, limit: Int) async throws -> [EntityJSON] {
        try await real.entities(matching: text, limit: limit)
    }

    func entities(type: String, query: PropertyQueryJSON) async throws -> [EntityJSON] {
        try await real.entities(type: type, query: query)
    }
}

/// A query whose client leaves while it waits for a query thread is never run.
@Suite("Abandoned queries", .serialized)
struct AbandonedQueryTests {
    @Test func aQueuedQueryWhoseClientLeftIsNeverSearched() async throws {
        let service = HeldSearchService(real: try await SharedService.shared.get())
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(maxConcurrentQueries: 1, maxQueuedQueries: 4), service: service)
        let photo = try photoBytes(samplePhotos[0])
        let request = "POST /v1/query?limit=1 HTTP/1.1\r\nHost: glimpse\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: \(photo.count)\r\n\r\n"

        // A: takes the only query thread and is held there.
        let first = try RawConnection(path: daemon.socketPath, readTimeout: .seconds(90))
        #expect(first.send(Array(request.utf8) + photo))
        try await waitUntil { service.searchCount == 1 }

        // B: admitted behind A, then its client leaves.
        let second = try RawConnection(path: daemon.socketPath)
        #expect(second.send(Array(request.utf8) + photo))
        try await waitUntil {
            (try? await daemon.client.withConnection { try await $0.health() }.queriesInFlight) == 2
        }
        second.close()
        // The close reaches the daemon's event loop at once on a local socket; give it ample time.
        try await Task.sleep(for: .seconds(1))

        // A finishes normally; B's turn comes and it stops before decoding or searching.
        service.release()
        let answer = await offThread { first.readResponse() }
        #expect(answer?.status == 200)
        try await waitUntil {
            (try? await daemon.client.withConnection { try await $0.health() }.queriesInFlight) == 0
        }
        #expect(service.searchCount == 1)
        first.close()
        try await daemon.stop()
    }

    @Test func aQueryWhoseClientClosesRightAfterSendingIsNeverSearched() async throws {
        let service = HeldSearchService(real: try await SharedService.shared.get())
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(maxConcurrentQueries: 1, maxQueuedQueries: 8), service: service)
        let photo = try photoBytes(samplePhotos[0])
        let request = "POST /v1/query?limit=1 HTTP/1.1\r\nHost: glimpse\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: \(photo.count)\r\n\r\n"

        let first = try RawConnection(path: daemon.socketPath, readTimeout: .seconds(90))
        #expect(first.send(Array(request.utf8) + photo))
        try await waitUntil { service.searchCount == 1 }

        // Four clients send a whole query and hang up at once, without waiting to be admitted.
        for _ in 0..<4 {
            let gone = try RawConnection(path: daemon.socketPath)
            #expect(gone.send(Array(request.utf8) + photo))
            gone.close()
        }
        try await Task.sleep(for: .seconds(1))

        service.release()
        let answer = await offThread { first.readResponse() }
        #expect(answer?.status == 200)
        try await waitUntil {
            (try? await daemon.client.withConnection { try await $0.health() }.queriesInFlight) == 0
        }
        #expect(service.searchCount == 1)
        first.close()
        try await daemon.stop()
    }

    /// Polls `condition` every 10 ms for up to 30 s.
    private func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else {
                Issue.record("condition not reached within 30 s")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
