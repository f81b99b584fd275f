import GlimpseTestSupport
import Foundation
import GlimpseServer
import GlimpseWire
import NIOCore
import Testing
import GlimpseClient
import NIOHTTP1

/// Bad input and limits, against a daemon running in this process.
@Suite("Daemon limits and bad input", .serialized)
struct ServerLimitsTests {
    @Test func garbageTruncatedEmptyAndWrongTypeGetJSONErrorsAndTheDaemonKeepsServing() async throws {
        let daemon = try await RunningDaemon.start()
        let photo = try photoBytes(samplePhotos[0])
        let cases: [(body: [UInt8], contentType: String, status: Int, code: String)] = [
            (Array("definitely not a picture".utf8), "application/octet-stream", 415, "unsupported_image_format"),
            (Array(photo.prefix(2)), "image/jpeg", 415, "unsupported_image_format"),
            (Array(photo.prefix(300)), "image/jpeg", 422, "bad_image"),
            ([], "image/jpeg", 400, "empty_body"),
            (photo, "text/plain", 415, "unsupported_media_type"),
        ]
        try await daemon.client.withConnection { connection in
            for item in cases {
                let response = try await connection.send(
                    method: .POST, target: "/v1/query", headers: [("Content-Type", item.contentType)],
                    body: ByteBuffer(bytes: item.body)
                )
                #expect(response.status == item.status, "\(item.code)")
                let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(response.bodyBytes))
                #expect(envelope.error.code == item.code)
                #expect(envelope.error.status == item.status)
                #expect(!envelope.error.message.isEmpty)
                #expect(response.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
            }
            let health = try await connection.health()
            #expect(health.status == "ok")
        }
        let unknown = try await daemon.client.withConnection {
            try await $0.send(method: .GET, target: "/no/such/route")
        }
        #expect(unknown.status == 404)
        #expect(try JSONDecoder().decode(ErrorEnvelope.self, from: Data(unknown.bodyBytes)).error.code == "not_found")
        let badLimit = try await daemon.client.withConnection {
            try await $0.send(method: .POST, target: "/v1/query?limit=0", body: ByteBuffer(bytes: photo))
        }
        #expect(badLimit.status == 400)
        try await daemon.stop()
    }

    @Test func oversizedContentLengthIsRefusedBeforeTheBodyIsRead() async throws {
        let daemon = try await RunningDaemon.start(limits: ServerLimits(maxBodyBytes: 64 * 1024))
        let path = daemon.socketPath
        let outcome = await offThread { () -> (Int?, String, Bool) in
            guard let connection = try? RawConnection(path: path) else { return (nil, "", false) }
            // Declare 1 GB and send none of it: the answer must come without the body.
            connection.send("POST /v1/query HTTP/1.1\r\nHost: g\r\nContent-Length: 1000000000\r\n\r\n")
            let response = connection.readResponse()
            let closed = connection.readUntilClosed().closed
            return (response?.status, response?.body ?? "", closed)
        }
        #expect(outcome.0 == 413)
        #expect(outcome.1.contains("body_too_large"))
        #expect(outcome.2, "the connection is closed after 413")
        let health = try await daemon.client.withConnection { try await $0.health() }
        #expect(health.status == "ok")
        try await daemon.stop()
    }

    @Test func chunkedBodyIsCutOffAtTheLimit() async throws {
        let daemon = try await RunningDaemon.start(limits: ServerLimits(maxBodyBytes: 64 * 1024))
        let path = daemon.socketPath
        let outcome = await offThread { () -> (Int?, Bool) in
            guard let connection = try? RawConnection(path: path) else { return (nil, false) }
            connection.send("POST /v1/query HTTP/1.1\r\nHost: g\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = [UInt8](repeating: 0x41, count: 16 * 1024)
            for _ in 0..<8 {
                guard connection.send("4000\r\n") else { break }
                guard connection.send(chunk) else { break }
                guard connection.send("\r\n") else { break }
            }
            let response = connection.readResponse()
            return (response?.status, connection.readUntilClosed().closed)
        }
        #expect(outcome.0 == 413)
        #expect(outcome.1)
        try await daemon.stop()
    }

    @Test func headersSentOneByteAtATimeAreClosedByTheIdleTimeout() async throws {
        // The guard's part (no answer before the head deadline, 408 at it) is checked on an embedded
        // channel with a hand-driven clock (RequestGuardTests); this checks that in the daemon a head
        // trickled byte by byte does not hold the idle timeout off.
        let daemon = try await RunningDaemon.start(limits: ServerLimits(idleTimeout: .seconds(1)))
        let path = daemon.socketPath
        let outcome = await offThread { () -> (sent: Int, headBytes: Int, closedSilently: Bool) in
            guard let connection = try? RawConnection(path: path, readTimeout: .seconds(5)) else {
                return (0, 0, false)
            }
            let request = Array("GET /healthz HTTP/1.1\r\nHost: glimpse\r\nX-Padding: \(String(repeating: "p", count: 40))\r\n\r\n".utf8)
            // 100 ms a byte until the daemon closes: the whole head would take over 9 s.
            var sent = 0
            while sent < request.count, connection.send([request[sent]]) {
                sent += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
            let result = connection.readUntilClosed()
            return (sent, request.count, result.closed && result.bytes.isEmpty)
        }
        #expect(outcome.sent < outcome.headBytes,
                "closed before the head was complete (\(outcome.sent) of \(outcome.headBytes) bytes sent)")
        // Closed without an answer, so by the 1 s idle timeout: the 5 s head deadline would answer 408, and
        // the 30 s default idle timeout would come after that.
        #expect(outcome.closedSilently, "the daemon closed the connection without answering")
        try await daemon.stop()
    }

    @Test func bodyTrickledOneByteAtATimeGets408AtTheDeadline() async throws {
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(idleTimeout: .seconds(5), requestDeadline: .seconds(1))
        )
        let path = daemon.socketPath
        let outcome = await offThread { () -> (Int?, String) in
            let start = ContinuousClock.now
            guard let connection = try? RawConnection(path: path, readTimeout: .seconds(5)) else { return (nil, "") }
            connection.send("POST /v1/query HTTP/1.1\r\nHost: g\r\nContent-Length: 1000\r\n\r\n")
            for _ in 0..<40 {
                if !connection.send([0xFF]) { break }
                Thread.sleep(forTimeInterval: 0.1)
                if ContinuousClock.now - start > .milliseconds(1500) { break }
            }
            let response = connection.readResponse()
            return (response?.status, response?.body ?? "")
        }
        #expect(outcome.0 == 408)
        // Only the 1 s request deadline answers 408 (the idle timeout, 5 s, would close silently).
        #expect(outcome.1.contains("request_timeout"))
        try await daemon.stop()
    }

    @Test func peersOutsideTheAllowListGet403() async throws {
        let me = getuid()
        let refused = try await RunningDaemon.start(peerPolicy: PeerPolicy(allowedUIDs: [me &+ 1], allowedGIDs: [getgid() &+ 1]))
        let response = try await refused.client.withConnection { try await $0.send(method: .GET, target: "/healthz") }
        #expect(response.status == 403)
        let envelope = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(response.bodyBytes))
        #expect(envelope.error.code == "peer_not_allowed")
        #expect(envelope.error.message.contains("uid \(me)"))
        try await refused.stop()

        let allowed = try await RunningDaemon.start(peerPolicy: PeerPolicy(allowedUIDs: [me]))
        let health = try await allowed.client.withConnection { try await $0.health() }
        #expect(health.status == "ok")
        try await allowed.stop()
    }

    @Test func fullQueueAnswers503WithRetryAfter() async throws {
        let daemon = try await RunningDaemon.start(
            limits: ServerLimits(maxConcurrentQueries: 1, maxQueuedQueries: 0, retryAfterSeconds: 3)
        )
        let photo = try photoBytes(samplePhotos[0])
        let client = daemon.client
        let statuses = await withTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let response = try? await client.withConnection {
                        try await $0.send(method: .POST, target: "/v1/query", body: ByteBuffer(bytes: photo))
                    }
                    return (response?.status ?? 0, response?.headers.first(name: "Retry-After"))
                }
            }
            var all: [(Int, String?)] = []
            for await item in group { all.append(item) }
            return all
        }
        #expect(statuses.contains { $0.0 == 200 })
        let refused = statuses.filter { $0.0 == 503 }
        #expect(!refused.isEmpty)
        #expect(refused.allSatisfy { $0.1 == "3" })
        #expect(statuses.allSatisfy { $0.0 == 200 || $0.0 == 503 })
        try await daemon.stop()
    }
}
