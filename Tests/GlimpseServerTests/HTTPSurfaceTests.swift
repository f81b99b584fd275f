import GlimpseTestSupport
import Foundation
import CGlimpseSocket
@testable import GlimpseServer
import GlimpseWire
import Testing
import GlimpseClient

/// Runs `curl ARGUMENTS` (`-s`, over the daemon's socket, or over TCP when `socket` is `nil`) and returns
/// the status, the head and the body.
///
/// `--max-time` is a bound on a hang (600 s, as the other hang guards of the suite), not on speed: with
/// every test of the run started at once on two cores, a query of a picture of several MB has taken over
/// 60 s to be answered.
func curl(_ socket: String?, _ arguments: [String]) async -> (status: Int, head: String, body: Data)? {
    await offThread { blockingCurl(socket, arguments) }
}

/// ``curl(_:_:)`` on the calling thread, which it blocks until curl exits (at most `maxTime` seconds).
func blockingCurl(_ socket: String?, _ arguments: [String], maxTime: Int = 600) -> (status: Int, head: String, body: Data)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["curl", "-s", "-i", "--max-time", String(maxTime)] + (socket.map { ["--unix-socket", $0] } ?? [])
        + arguments
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return finalResponse(in: data)
}

/// The final response in `curl -i` output: its status, head and body, after any interim `1xx` heads
/// (curl sends `Expect: 100-continue` with a body over 1 MB, and the daemon answers `100 Continue` once it
/// admits the query).
func finalResponse(in output: Data) -> (status: Int, head: String, body: Data)? {
    var rest = output[...]
    while let split = rest.range(of: Data("\r\n\r\n".utf8)) {
        let head = String(decoding: rest[..<split.lowerBound], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        rest = rest[split.upperBound...]
        if !(100..<200).contains(status) { return (status, head, Data(rest)) }
    }
    return nil
}

/// The header `name` of a response head, if present.
func header(_ name: String, in head: String) -> String? {
    for line in head.split(separator: "\r\n") {
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == name.lowercased() {
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
    }
    return nil
}

/// The daemon's HTTP surface through real clients (curl, raw sockets): entity pictures and no host
/// paths, `405`, JSON parser errors, oversized pictures.
@Suite("HTTP surface", .serialized)
struct HTTPSurfaceTests {
    @Test func curlsInterimContinueIsNotTheAnswer() throws {
        let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"results\":[]}"
        let interim = try #require(finalResponse(in: Data(("HTTP/1.1 100 Continue\r\n\r\n" + answer).utf8)))
        #expect(interim.status == 200 && interim.head.hasSuffix("application/json"))
        #expect(String(decoding: interim.body, as: UTF8.self) == "{\"results\":[]}")
        let direct = try #require(finalResponse(in: Data(answer.utf8)))
        #expect(direct.status == 200 && direct.body == interim.body)
        #expect(finalResponse(in: Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) == nil)
    }

    @Test func answersCarryPictureURLsThatTheDaemonServesWithETags() async throws {
        let daemon = try await RunningDaemon.start()
        let socket = daemon.socketPath
        let search = try #require(await curl(socket, ["http://glimpse/v1/entities?q=lake"]))
        #expect(search.status == 200)
        let text = String(decoding: search.body, as: UTF8.self)
        #expect(!text.contains(catalogDirectory) && !text.contains(bundledCatalogDirectory) && !text.contains("/photos/"),
                "no answer names a path on the daemon's host")
        let list = try JSONDecoder().decode(EntityListJSON.self, from: search.body)
        let entity = try #require(list.entities.first { $0.displayRepresentation.image != nil })
        let path = try #require(entity.displayRepresentation.image)
        #expect(path == "/v1/entities/\(entity.type)/\(entity.id)/image")

        let picture = try #require(await curl(socket, ["http://glimpse" + path]))
        #expect(picture.status == 200)
        #expect(header("Content-Type", in: picture.head) == "image/jpeg")
        #expect(ImageDecoderFormat.isJPEG(Array(picture.body)))
        let eTag = try #require(header("ETag", in: picture.head))
        let again = try #require(await curl(socket, ["-H", "If-None-Match: \(eTag)", "http://glimpse" + path]))
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(header("ETag", in: again.head) == eTag)
        let other = try #require(await curl(socket, ["-H", "If-None-Match: \"0000\"", "http://glimpse" + path]))
        #expect(other.status == 200)

        let missing = try #require(await curl(socket, ["http://glimpse/v1/entities/place/no-such-place/image"]))
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("no_such_image"))
        try await daemon.stop()
    }

    @Test func aWrongMethodIs405WithAllow() async throws {
        let daemon = try await RunningDaemon.start()
        let socket = daemon.socketPath
        let wrong = try #require(await curl(socket, ["-X", "DELETE", "http://glimpse/v1/entities/place/x"]))
        #expect(wrong.status == 405)
        #expect(header("Allow", in: wrong.head) == "GET")
        #expect(String(decoding: wrong.body, as: UTF8.self).contains("method_not_allowed"))
        let get = try #require(await curl(socket, ["http://glimpse/v1/query"]))
        #expect(get.status == 405)
        #expect(header("Allow", in: get.head) == "POST")
        let unknown = try #require(await curl(socket, ["-X", "DELETE", "http://glimpse/no/such/route"]))
        #expect(unknown.status == 404)
        try await daemon.stop()
    }

    @Test func parserErrorsAndOversizedPicturesGetJSONErrors() async throws {
        let daemon = try await RunningDaemon.start()
        let path = daemon.socketPath
        // A JPEG frame header declaring 65,535 × 1 pixels: over libjpeg's 65,500 and the 32,768 limit.
        let hugeJPEG: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xFF, 0xFF, 0x00, 0x01, 0x03,
                                 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
        let requests: [(bytes: [UInt8], status: Int, code: String)] = [
            (Array("BAD REQUEST LINE\r\n\r\n".utf8), 400, "malformed_request"),
            (Array("POST /v1/query HTTP/1.1\r\nContent-Length: 12x\r\n\r\n".utf8), 400, "malformed_request"),
            (Array("GET /healthz HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 17 * 1024))\r\n\r\n".utf8),
             400, "header_too_large"),
            (Array("POST /v1/query HTTP/1.1\r\nContent-Type: image/jpeg\r\nContent-Length: \(hugeJPEG.count)\r\n\r\n".utf8)
                + hugeJPEG, 413, "image_too_large"),
            (Array("POST /v1/query HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n".utf8),
             413, "body_too_large"),
        ]
        for request in requests {
            let outcome = await offThread { () -> (Int?, String) in
                guard let connection = try? RawConnection(path: path, readTimeout: .seconds(20)) else { return (nil, "") }
                connection.send(request.bytes)
                let response = connection.readResponse()
                return (response?.status, response?.body ?? "")
            }
            #expect(outcome.0 == request.status, "\(request.code)")
            let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(outcome.1.utf8))
            #expect(envelope?.error.code == request.code)
            #expect(!outcome.1.contains("DecodingLimits"))
        }
        try await daemon.stop()
    }

    @Test func supplementaryGroupsAreHonoured() {
        let peer = PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27, 100])
        #expect(PeerPolicy(allowedGIDs: [100]).allows(peer))
        #expect(PeerPolicy(allowedGIDs: [1000]).allows(peer))
        #expect(!PeerPolicy(allowedGIDs: [5]).allows(peer))
        #expect(!PeerPolicy(allowedUIDs: [0]).allows(nil))
        var answer = CGlimpseSocketGroups.make([4, 27, 100])
        #expect(PeerCredentials.groupList(answer) == [4, 27, 100])
        answer = CGlimpseSocketGroups.make([0, 27])
        #expect(PeerCredentials.groupList(answer) == [27], "a leading 0 cannot be told from none")
        answer = CGlimpseSocketGroups.make([])
        #expect(PeerCredentials.groupList(answer).isEmpty)
    }

    @Test func theDaemonLetsInAPeerBySupplementaryGroup() async throws {
        // This process's own supplementary groups, other than its primary group.
        var groups = [gid_t](repeating: 0, count: 256)
        let count = getgroups(Int32(groups.count), &groups)
        guard let extra = groups.prefix(Int(max(0, count))).first(where: { $0 != getgid() && $0 != 0 }) else {
            return  // nothing to check with: the process has no supplementary group
        }
        let daemon = try await RunningDaemon.start(peerPolicy: PeerPolicy(allowedGIDs: [extra]))
        let health = try await daemon.client.withConnection { try await $0.health() }
        #expect(health.status == "ok")
        try await daemon.stop()
    }
}

/// Test helpers around the C answer of `SO_PEERGROUPS`.
enum CGlimpseSocketGroups {
    /// An answer holding `groups` followed by zeros, as the kernel leaves it.
    static func make(_ groups: [UInt32]) -> CGlimpseSocket_peer_groups {
        var answer = CGlimpseSocket_peer_groups()
        withUnsafeMutableBytes(of: &answer.groups) { raw in
            let slots = raw.bindMemory(to: UInt32.self)
            for (index, gid) in groups.enumerated() { slots[index] = gid }
        }
        return answer
    }
}

/// Recognises JPEG bytes by their signature.
enum ImageDecoderFormat {
    static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xD8, 0xFF]) }
}
