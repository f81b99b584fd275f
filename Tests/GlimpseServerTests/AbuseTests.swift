import Foundation
import GlimpseImage
import GlimpseServer
import GlimpseWire
import Synchronization
import GlimpseTestSupport
import Testing
import GlimpseClient

/// The hostile-client attacks of scripts/abuse.sh, scaled down to run in seconds, against a daemon in this process and
/// byte-level clients on their own threads. What is checked is outcomes and order (every request is
/// answered, a refusal comes before the upload ends, the daemon keeps serving), never tight wall-clock
/// bounds: the full-size attacks and their timings are `scripts/abuse.sh`.
@Suite("Abuse, scaled down", .serialized)
struct AbuseTests {
    /// How one upload went.
    struct Upload: Sendable {
        var status: Int?
        /// The answer arrived before the client had sent its whole body.
        var answeredBeforeUploadEnded: Bool
    }

    /// Sends `head` and `body` in 64 KiB pieces, stopping as soon as an answer arrives (as HTTP clients
    /// that read while they send do), then reads the answer.
    private static func upload(path: String, head: String, body: [UInt8]) -> Upload {
        guard let connection = try? RawConnection(path: path, readTimeout: .seconds(120)) else {
            return Upload(status: nil, answeredBeforeUploadEnded: false)
        }
        connection.setSendTimeout(.seconds(60))
        var early = false
        if connection.send(head) {
            var offset = 0
            while offset < body.count {
                if connection.hasSomethingToRead() {
                    early = true
                    break
                }
                let end = min(body.count, offset + 65_536)
                guard connection.send(Array(body[offset..<end])) else {
                    early = true  // the daemon closed: it had answered first
                    break
                }
                offset = end
            }
        }
        let response = connection.readResponse()
        return Upload(status: response?.status, answeredBeforeUploadEnded: early)
    }

    @Test func uploadsBeyondTheMemoryBudgetAreRefusedBeforeTheirBody() async throws {
        let budget = 16 * 1024 * 1024
        // Deadlines of minutes: in the parallel suite the in-process daemon shares the two cooperative
        // threads with tests that hold them for minutes, and an admitted upload once outlived the default
        // 30 s body deadline there. What is checked here is admission, not deadlines.
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(
                maxBodyBytes: 10 * 1024 * 1024, headerTimeout: .seconds(600), requestDeadline: .seconds(600),
                maxConcurrentQueries: 1, maxQueuedQueries: 30, maxBufferedBytes: budget
            )
        )
        // A real photo padded to 8 MB (the decoder stops at the end of the JPEG).
        var body = try photoBytes(samplePhotos[0])
        body += [UInt8](repeating: 0, count: 8_000_000 - body.count)
        let head = "POST /v1/query?limit=1 HTTP/1.1\r\nHost: g\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\n\r\n"
        let path = daemon.socketPath
        let uploads = await withTaskGroup(of: Upload.self) { group in
            for _ in 0..<20 {
                group.addTask { [body] in await offThread { Self.upload(path: path, head: head, body: body) } }
            }
            var all: [Upload] = []
            for await upload in group { all.append(upload) }
            return all
        }
        let statuses = uploads.map { $0.status ?? 0 }
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 || (400..<500).contains($0) }, "every upload answered: \(statuses)")
        let refused = uploads.filter { $0.status == 503 }
        #expect(!refused.isEmpty, "20 × 8 MB do not fit in a 16 MiB budget at once")
        #expect(refused.allSatisfy { $0.answeredBeforeUploadEnded }, "a 503 comes before the body, never after it")
        #expect(uploads.contains { $0.status == 200 }, "the admitted uploads are answered: \(statuses)")
        let health = try await daemon.client.withConnection { try await $0.health() }
        #expect(health.queriesInFlight == 0)
        try await daemon.stop()
    }

    @Test func slowHeaderClientsDoNotLockOutHealthChecksOrCatalogQueries() async throws {
        // Twice as many slow clients as connections: without eviction the checks below would wait
        // in the listen backlog until the attackers' heads time out, round after round.
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(headerTimeout: .seconds(2), maxConnections: 20)
        )
        let path = daemon.socketPath
        let stop = StopFlag()
        defer { stop.set() }  // the attackers end on their own if the test stops early
        let started = SharedCount()
        // 40 clients, twice the connection cap, each sending one header byte every 300 ms and
        // reconnecting whenever it is closed.
        let attackers = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        await offThread {
                            let bytes = Array("GET /healthz HTTP/1.1\r\nHost: glimpse\r\nX-Slow: yes\r\n\r\n".utf8)
                            var first = true
                            while !stop.isSet {
                                guard let connection = try? RawConnection(path: path, readTimeout: .milliseconds(300)) else {
                                    Thread.sleep(forTimeInterval: 0.05)
                                    continue
                                }
                                for byte in bytes.prefix(30) {
                                    if stop.isSet || !connection.send([byte]) { break }
                                    if first {
                                        first = false
                                        started.increment()
                                    }
                                    let (_, closed) = connection.readUntilClosed()  // waits 300 ms
                                    if closed { break }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Every attacker connected and trickling (twice the cap), however late their threads start.
        try await poll(upTo: .seconds(120), "all 40 slow clients sending") { started.value == 40 }
        // Meanwhile another client checks health and searches the catalog, one request a connection,
        // six rounds (a count, not a time: a loaded machine takes as long as it takes).
        var answers: [Int] = []
        for _ in 0..<6 {
            for target in ["/healthz", "/v1/entities?q=lake"] {
                let status = await offThread { () -> Int in
                    guard let connection = try? RawConnection(path: path, readTimeout: .seconds(30)) else { return -1 }
                    guard connection.send("GET \(target) HTTP/1.1\r\nHost: glimpse\r\n\r\n") else { return -2 }
                    return connection.readResponse()?.status ?? -3
                }
                answers.append(status)
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        stop.set()
        await attackers.value
        #expect(answers.count == 12)
        #expect(answers.allSatisfy { $0 == 200 }, "every health check and search answered 200: \(answers)")
        try await daemon.stop()
    }

    @Test func anEarlyErrorReachesAClientThatWritesItsWholeBodyFirst() async throws {
        let daemon = try await RunningDaemon.start()
        let path = daemon.socketPath
        let outcome = await offThread { () -> (sentAll: Bool, status: Int?, closed: Bool) in
            guard let connection = try? RawConnection(path: path, readTimeout: .seconds(30)) else { return (false, nil, false) }
            connection.setSendTimeout(.seconds(30))
            let body = [UInt8](repeating: 0x5A, count: 10_000_000)
            let head = "POST /v1/query?limit=0 HTTP/1.1\r\nHost: g\r\nConnection: close\r\nContent-Type: image/jpeg\r\n"
                + "Content-Length: \(body.count)\r\n\r\n"
            // Everything first, as Python's http.client does; only then the answer is read.
            let sentAll = connection.send(head) && connection.send(body)
            let response = connection.readResponse()
            return (sentAll, response?.status, connection.readUntilClosed().closed)
        }
        #expect(outcome.sentAll, "the daemon read (and dropped) the body instead of leaving the client blocked")
        #expect(outcome.status == 400)
        #expect(outcome.closed)
        try await daemon.stop()
    }

    @Test func everyQueryStillWaitingWhenTheGraceRunsOutIsAnswered() async throws {
        // The first query holds the only query thread until the grace runs out: what is waiting then
        // does not depend on how busy the machine is.
        let service = HeldSearchService(real: try await SharedService.shared.get())
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(maxConcurrentQueries: 1, maxQueuedQueries: 64, firstRequestGrace: .zero),
            service: service, shutdownGracePeriod: .seconds(1)
        )
        let photo = try photoBytes(samplePhotos[0])
        let request = Array(("POST /v1/query?limit=1 HTTP/1.1\r\nHost: glimpse\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: \(photo.count)\r\n\r\n").utf8) + photo
        var connections: [RawConnection] = []
        for _ in 0..<40 {
            let connection = try RawConnection(path: daemon.socketPath, readTimeout: .seconds(120))
            #expect(connection.send(request))
            connections.append(connection)
        }
        // Every query admitted (one held, the rest waiting) before the signal.
        try await poll(every: .milliseconds(20), upTo: .seconds(120), "40 queries in flight") {
            (try? await daemon.client.withConnection { try await $0.health() }.queriesInFlight) == 40
        }
        #expect(service.searchCount == 1)
        await daemon.beginShutdown()
        let answers = await withTaskGroup(of: (Int?, String?).self) { group in
            for connection in connections {
                group.addTask {
                    await offThread {
                        let response = connection.readResponse()
                        let retry = response?.head.split(separator: "\r\n")
                            .first { $0.lowercased().hasPrefix("retry-after:") }.map(String.init)
                        return (response?.status, retry)
                    }
                }
            }
            var all: [(Int?, String?)] = []
            for await answer in group { all.append(answer) }
            return all
        }
        try await daemon.waitUntilStopped()
        #expect(answers.count == 40)
        #expect(answers.allSatisfy { $0.0 == 200 || $0.0 == 503 }, "40 answers, none empty: \(answers.map { $0.0 ?? 0 })")
        let refused = answers.filter { $0.0 == 503 }
        #expect(refused.count == 40, "the held query and the 39 behind it outlast a 1 s grace")
        #expect(refused.allSatisfy { $0.1 != nil }, "each 503 says when to retry")
    }
}

/// A flag set once by one task and read by others.
final class StopFlag: Sendable {
    private let flag = Atomic(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
