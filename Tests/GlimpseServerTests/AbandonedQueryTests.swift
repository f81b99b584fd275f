import Foundation
import GlimpseImage
import GlimpseServer
import GlimpseWire
import NIOCore
import NIOHTTP1
import Synchronization
import GlimpseTestSupport
import Testing
import GlimpseClient

/// A query whose client leaves while it waits for a query thread is never run.
@Suite("Abandoned queries", .serialized)
struct AbandonedQueryTests {
    @Test func aQueuedQueryWhoseClientLeftIsNeverSearched() async throws {
        try await whileTheOnlyQueryThreadIsHeld { daemon, request in
            // Admitted behind the held query, then its client leaves.
            let second = try RawConnection(path: daemon.socketPath)
            #expect(second.send(request))
            try await poll("the second query queued") { await inFlight(daemon) == 2 }
            second.close()
            // A query whose client leaves while it waits leaves the queue at once.
            try await poll("the second query left the queue") { await inFlight(daemon) == 1 }
        }
    }

    @Test func aQueryWhoseClientClosesRightAfterSendingIsNeverSearched() async throws {
        try await whileTheOnlyQueryThreadIsHeld { daemon, request in
            // Four clients send a whole query and hang up at once, without waiting to be admitted.
            for _ in 0..<4 {
                let gone = try RawConnection(path: daemon.socketPath)
                #expect(gone.send(request))
                gone.close()
            }
            // Each was admitted behind A and left the queue when its client went: the daemon answered
            // (and counted) all four as cancelled, and only A is in flight.
            try await poll("the four queries of clients that left cancelled") {
                let count = await cancelled(daemon)
                let running = await inFlight(daemon)
                return count == 4 && running == 1
            }
        }
    }

    /// Starts a daemon with one query thread, holds it with a first query (A), runs `leave` (clients
    /// that send the same query and go away, and a wait until the daemon has seen them go), then releases A and checks that A is answered and that
    /// no query of a client that left was ever searched.
    private func whileTheOnlyQueryThreadIsHeld(
        _ leave: (RunningDaemon, [UInt8]) async throws -> Void
    ) async throws {
        let service = HeldSearchService(real: try await SharedService.shared.get())
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(maxConcurrentQueries: 1, maxQueuedQueries: 8), service: service)
        let photo = try photoBytes(samplePhotos[0])
        let request = Array(("POST /v1/query?limit=1 HTTP/1.1\r\nHost: glimpse\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: \(photo.count)\r\n\r\n").utf8) + photo

        let first = try RawConnection(path: daemon.socketPath, readTimeout: .seconds(90))
        #expect(first.send(request))
        try await poll("the held search to start") { service.searchCount == 1 }
        try await leave(daemon, request)

        // A finishes normally; the queries of clients that left stop before decoding or searching.
        service.release()
        let answer = await offThread { first.readResponse() }
        #expect(answer?.status == 200)
        try await poll("no query in flight") { await inFlight(daemon) == 0 }
        #expect(service.searchCount == 1)
        first.close()
        try await daemon.stop()
    }

    /// The requests the daemon answered as cancelled (their client went away), or `nil` when it cannot be read.
    private func cancelled(_ daemon: RunningDaemon) async -> Int? {
        let text = try? await daemon.client.withConnection { connection in
            String(buffer: try await connection.send(method: .GET, target: "/metrics").body)
        }
        return text.map { metricSample($0, #"glimpse_errors_total{kind="cancelled"}"#).map { Int($0) } ?? 0 }
    }

    /// The daemon's count of queries running or waiting, or `nil` when it cannot be read.
    private func inFlight(_ daemon: RunningDaemon) async -> Int? {
        try? await daemon.client.withConnection { try await $0.health() }.queriesInFlight
    }
}
