import Foundation
import GlimpseBasics
import GlimpseFiles
import GlimpseTestSupport
import GlimpseWire
import Testing

// A soak of the real `glimpse serve` process: a long, seeded mix of good and hostile requests from
// four concurrent clients, after which the daemon must still answer correctly, hold no queries,
// have a flat resident memory, and stop cleanly on SIGTERM.

/// The catalog photos the soak sends, with the place each must match best.
private let soakPhotos: [(file: String, place: String)] = [
    ("001-wooden-jetty-on-a-calm-lake.jpg", "wooden-jetty-calm-lake"),
    ("002-rows-of-colorful-plastic-cups.jpg", "colorful-plastic-cups"),
    ("003-misty-lake-at-blue-hour.jpg", "misty-lake-blue-hour"),
    ("004-rowing-boats-on-a-lakeshore-at-sunset.jpg", "rowing-boats-lakeshore-sunset"),
]

/// Texts for `GET /v1/entities?q=`; each names at least one entity of the test catalog.
private let soakSearches = ["lake", "cups", "moss", "sunset"]

/// The kinds of request in the soak, with how many of the 600 each makes up.
private enum SoakKind: String, CaseIterable, Sendable {
    /// `POST /v1/query` with a catalog photo: 200 and its own place first.
    case goodQuery
    /// The same, but the client closes without reading the answer.
    case abandonedQuery
    /// Random bytes declared as `image/jpeg`: 415 `unsupported_image_format`.
    case garbage
    /// A JPEG cut just before its first scan (SOS): 422 `bad_image`.
    case jpegCutBeforeScan
    /// A PNG declaring 100,000 × 100,000 pixels: 413 `image_too_large`.
    case pngBomb
    /// `Content-Length: 1000000000` and no body: 413 `body_too_large`, connection closed.
    case hugeContentLength
    /// Half a request head, then the client closes.
    case halfHead
    /// `GET /v1/entities?q=…`: 200 and at least one entity.
    case entitySearch
    /// `GET /healthz`: 200.
    case health
    /// An unknown route: 404 `not_found`.
    case unknownRoute

    /// Requests of this kind in the soak. Picture queries are what cost time (about 0.4 s of CPU each
    /// in a debug build, two at a time on two cores; an abandoned one mostly runs to the end too), so
    /// they are about a tenth of the mix: the whole test then takes about 21 s on an idle 2-core
    /// machine and 42 s beside two CPU-bound processes.
    var count: Int {
        switch self {
        case .goodQuery: 48
        case .abandonedQuery: 16
        default: 67
        }
    }

    /// The error code the daemon counts in `glimpse_errors_total` for each request of this kind.
    var errorCode: String? {
        switch self {
        case .garbage: "unsupported_image_format"
        case .jpegCutBeforeScan: "bad_image"
        case .pngBomb: "image_too_large"
        case .hugeContentLength: "body_too_large"
        case .unknownRoute: "not_found"
        default: nil
        }
    }
}

/// One planned request: its kind and which photo or search text it uses.
private struct SoakStep: Sendable {
    var kind: SoakKind
    var variant: Int
}

private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}

/// A PNG chunk: length, type, data, CRC-32 of type and data.
private func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
}

/// A decompression bomb: a valid PNG header declaring `side` × `side` RGB pixels (30 GB decoded for
/// 100,000), a one-byte zlib stream as its only IDAT, and IEND.
private func pngBomb(side: UInt32) -> [UInt8] {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let header = bigEndian(side) + bigEndian(side) + [8, 2, 0, 0, 0]  // 8-bit RGB, no interlace
    let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]  // zlib of one zero byte
    return signature + pngChunk("IHDR", header) + pngChunk("IDAT", idat) + pngChunk("IEND", [])
}

/// The bytes of `jpeg` up to (not including) its first start-of-scan marker, found by walking the
/// marker segments.
private func cutBeforeFirstScan(_ jpeg: [UInt8]) -> [UInt8]? {
    guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
    var index = 2
    while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
        let marker = jpeg[index + 1]
        if marker == 0xDA { return Array(jpeg[..<index]) }
        let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
        index += 2 + length
    }
    return nil
}

/// The resident set size of process `pid` in KiB (`VmRSS` in /proc/PID/status).
private func residentKiB(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return line.dropFirst("VmRSS:".count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    }
    return nil
}

/// An HTTP/1.1 request with a body.
private func request(_ method: String, _ target: String, contentType: String? = nil, body: [UInt8] = []) -> [UInt8] {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: glimpse\r\n"
    if let contentType { head += "Content-Type: \(contentType)\r\n" }
    if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    return Array((head + "\r\n").utf8) + body
}

/// Everything one soak client sends, prepared once.
private struct SoakPayloads: Sendable {
    let photos: [[UInt8]]
    let garbage: [UInt8]
    let jpegCut: [UInt8]
    let bomb: [UInt8]
}

/// The comparable part of a query answer (timings vary; cursors are signed per request).
private struct AnswerDigest: Equatable, Sendable {
    var results: [SearchResultJSON]
    var labels: [LabelScoreJSON]
    var labelSource: String
    var total: Int
    var snapshot: String
    var image: ImageInfoJSON?
    var hasNext: Bool

    init(_ answer: QueryResponseJSON) {
        results = answer.results
        labels = answer.labels
        labelSource = answer.labelSource
        total = answer.total
        snapshot = answer.snapshot
        image = answer.image
        hasNext = answer.next != nil
    }
}

/// What one client saw over its share of a third of the soak.
private struct ClientReport: Sendable {
    var failures: [String] = []
    var sent: [SoakKind: Int] = [:]
    var slowest: Duration = .zero
}

/// Checks that a response has `status`, a JSON content type and, for 4xx/5xx, a JSON error body with
/// `code`; returns a description of what was wrong, or nil.
private func problem(
    _ response: (status: Int, head: String, body: String)?, status: Int, code: String? = nil
) -> String? {
    guard let response else { return "no answer (timed out or closed)" }
    guard response.status == status else {
        return "status \(response.status), expected \(status): \(response.body.prefix(300))"
    }
    guard response.head.lowercased().contains("content-type: application/json") else {
        return "status \(status) without a JSON content type: \(response.head)"
    }
    if status >= 400 {
        guard let envelope = try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(response.body.utf8)) else {
            return "status \(status) without a JSON error body: \(response.body.prefix(300))"
        }
        let codeMatches = code.map { $0 == envelope.error.code } ?? true
        if envelope.error.status != status || envelope.error.message.isEmpty || !codeMatches {
            return "error body \(envelope.error), expected status \(status) code \(code ?? "any")"
        }
    }
    return nil
}

/// Runs `steps` against the daemon on `socket` from one client, blocking (call it off the
/// concurrency pool). Well-formed requests share one keep-alive connection; hostile ones each get
/// their own. Every read times out, so a hung daemon shows up as a failure, not a hung test.
private func runClient(
    steps: [SoakStep], socket: String, payloads: SoakPayloads, references: [AnswerDigest], readTimeout: Duration
) -> ClientReport {
    var report = ClientReport()
    var shared: RawConnection?

    /// Sends on the shared connection (opening it if needed) and reads one answer.
    func exchange(_ bytes: [UInt8]) -> (status: Int, head: String, body: String)? {
        if shared == nil { shared = try? RawConnection(path: socket, readTimeout: readTimeout) }
        guard let connection = shared, connection.send(bytes) else {
            shared = nil
            return nil
        }
        let response = connection.readResponse()
        if response == nil || response?.head.lowercased().contains("connection: close") == true { shared = nil }
        return response
    }

    for (number, step) in steps.enumerated() {
        report.sent[step.kind, default: 0] += 1
        let started = ContinuousClock.now
        var failure: String?
        switch step.kind {
        case .goodQuery:
            let photo = step.variant % soakPhotos.count
            let response = exchange(
                request("POST", "/v1/query?limit=5", contentType: "image/jpeg", body: payloads.photos[photo]))
            failure = problem(response, status: 200)
            if failure == nil, let response {
                if let answer = try? JSONDecoder().decode(QueryResponseJSON.self, from: Data(response.body.utf8)) {
                    let best = answer.results.first.map { "\($0.type)/\($0.entity.id)" } ?? "none"
                    if best != "place/\(soakPhotos[photo].place)" {
                        failure = "best result \(best), expected place/\(soakPhotos[photo].place)"
                    } else if AnswerDigest(answer) != references[photo] {
                        failure = "answer for \(soakPhotos[photo].file) differs from the warm-up answer"
                    }
                } else {
                    failure = "200 body is not a query answer: \(response.body.prefix(300))"
                }
            }
        case .abandonedQuery:
            let photo = step.variant % soakPhotos.count
            if let connection = try? RawConnection(path: socket, readTimeout: readTimeout) {
                let query = request("POST", "/v1/query", contentType: "image/jpeg", body: payloads.photos[photo])
                if !connection.send(query) {
                    failure = "could not send a whole query"
                }
                connection.close()
            } else {
                failure = "could not connect"
            }
        case .garbage:
            failure = problem(
                exchange(request("POST", "/v1/query", contentType: "image/jpeg", body: payloads.garbage)),
                status: 415, code: "unsupported_image_format")
        case .jpegCutBeforeScan:
            failure = problem(
                exchange(request("POST", "/v1/query", contentType: "image/jpeg", body: payloads.jpegCut)),
                status: 422, code: "bad_image")
        case .pngBomb:
            failure = problem(
                exchange(request("POST", "/v1/query", contentType: "image/png", body: payloads.bomb)),
                status: 413, code: "image_too_large")
        case .hugeContentLength:
            if let connection = try? RawConnection(path: socket, readTimeout: readTimeout) {
                connection.send(
                    "POST /v1/query HTTP/1.1\r\nHost: glimpse\r\nContent-Type: image/jpeg\r\n"
                        + "Content-Length: 1000000000\r\n\r\n")
                failure = problem(connection.readResponse(), status: 413, code: "body_too_large")
                if failure == nil, !connection.readUntilClosed().closed {
                    failure = "the connection stayed open after 413 body_too_large"
                }
            } else {
                failure = "could not connect"
            }
        case .halfHead:
            if let connection = try? RawConnection(path: socket, readTimeout: readTimeout) {
                connection.send("POST /v1/query HTTP/1.1\r\nHost: glimpse\r\nContent-Ty")
                connection.close()
            } else {
                failure = "could not connect"
            }
        case .entitySearch:
            let text = soakSearches[step.variant % soakSearches.count]
            let response = exchange(request("GET", "/v1/entities?q=\(text)&limit=5"))
            failure = problem(response, status: 200)
            if failure == nil, let response {
                let list = try? JSONDecoder().decode(EntityListJSON.self, from: Data(response.body.utf8))
                if list?.entities.isEmpty != false {
                    failure = "no entities for q=\(text): \(response.body.prefix(300))"
                }
            }
        case .health:
            let response = exchange(request("GET", "/healthz"))
            failure = problem(response, status: 200)
            if failure == nil, let response {
                let health = try? JSONDecoder().decode(HealthJSON.self, from: Data(response.body.utf8))
                if health?.status != "ok" { failure = "health answer \(response.body.prefix(300))" }
            }
        case .unknownRoute:
            failure = problem(
                exchange(request("GET", "/v1/no-such-route-\(step.variant)")), status: 404, code: "not_found")
        }
        report.slowest = max(report.slowest, ContinuousClock.now - started)
        if let failure {
            report.failures.append("step \(number) \(step.kind.rawValue): \(failure)")
            // A daemon that stops answering would cost a read timeout per step: stop this client.
            if failure.hasPrefix("no answer") || failure == "could not connect" { break }
        }
    }
    shared?.close()
    return report
}

@Suite("Daemon soak", .serialized)
struct SoakTests {
    /// Requests in the soak, in three equal thirds.
    static let requestCount = 600
    static let clients = 4
    /// Growth of the daemon's resident memory allowed over the last two thirds of the soak (400
    /// requests, about 43 of them picture queries).
    ///
    /// Measured with the 2-core debug build: RSS is about 45 MB when the daemon listens, 51 MB after
    /// the warm-up and 53–54 MB after the first third (malloc's arenas, NIO's buffers and the
    /// matcher's scratch at their working size); over the last two thirds it then moved by 0.26 to
    /// 1.2 MB in twelve runs, idle, beside two CPU hogs and beside the whole server test suite. 4 MB is
    /// over three times the worst of those, and still fails a leak of 10 KB per request, of each
    /// query's request body (31–222 KB here), or of each decoded query picture (0.6–0.8 MB).
    static let allowedGrowthKiB = 4 * 1024

    /// Three minutes; under a sanitizer, whose checks slow the debug daemon and this process several
    /// times over, the limit only guards against a hang.
    @Test(.timeLimit(activeSanitizer == nil ? .minutes(3) : .minutes(20)))
    func mixedHostileAndNormalTrafficLeavesTheDaemonCorrectResponsiveAndFlat() async throws {
        let began = ContinuousClock.now
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082, "the test's CRC-32 is PNG's")
        let payloads = SoakPayloads(
            photos: try soakPhotos.map { try photoBytes($0.file) },
            garbage: {
                var generator = SeededGenerator(seed: 0x6172_6261_6765)
                return [0x00] + (1..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }(),
            jpegCut: try #require(cutBeforeFirstScan(try photoBytes(soakPhotos[0].file))),
            bomb: pngBomb(side: 100_000)
        )

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("soak.sock")
        let daemon = try ServeProcess(socket: socket)
        let pid = daemon.processIdentifier
        defer { if daemon.process.isRunning { kill(pid, SIGKILL) } }
        try #require(await daemon.waitUntilListening(on: socket), "\(daemon.startFailure())")
        let listening = ContinuousClock.now
        let rssListening = try #require(residentKiB(of: pid))

        // Warm-up: each photo once; these answers are what every later answer must equal.
        let warmUp = await offThread { () -> [Result<AnswerDigest, SoakFailure>] in
            soakPhotos.indices.map { index in
                guard let connection = try? RawConnection(path: socket, readTimeout: .seconds(30)) else {
                    return .failure(SoakFailure("could not connect"))
                }
                let response = connection.readResponseAfter(
                    request("POST", "/v1/query?limit=5", contentType: "image/jpeg", body: payloads.photos[index]))
                if let issue = problem(response, status: 200) { return .failure(SoakFailure(issue)) }
                guard let body = response?.body,
                    let answer = try? JSONDecoder().decode(QueryResponseJSON.self, from: Data(body.utf8))
                else { return .failure(SoakFailure("not a query answer")) }
                return .success(AnswerDigest(answer))
            }
        }
        let references = try warmUp.map { try $0.get() }
        for (reference, photo) in zip(references, soakPhotos) {
            #expect(reference.results.first?.entity.id == photo.place, "\(photo.file)")
            #expect(reference.results.first?.type == "place")
        }
        let rssWarm = try #require(residentKiB(of: pid))

        // The plan: a seeded shuffle of the kinds in their proportions, each with a seeded variant.
        var generator = SeededGenerator(seed: 0x5EED_50A4)
        var plan: [SoakStep] = []
        for kind in SoakKind.allCases {
            for _ in 0..<kind.count {
                plan.append(SoakStep(kind: kind, variant: Int.random(in: 0..<1000, using: &generator)))
            }
        }
        #expect(plan.count == Self.requestCount)
        plan.shuffle(using: &generator)

        let third = plan.count / 3
        var rssAfterThird: [Int] = []
        var thirdDurations: [Duration] = []
        var sent: [SoakKind: Int] = [:]
        var slowest = Duration.zero
        for part in 0..<3 {
            let steps = Array(plan[(part * third)..<((part + 1) * third)])
            let partStart = ContinuousClock.now
            let reports = await withTaskGroup(of: ClientReport.self) { group in
                for client in 0..<Self.clients {
                    let mine = steps.enumerated().filter { $0.offset % Self.clients == client }.map(\.element)
                    group.addTask {
                        await offThread {
                            runClient(
                                steps: mine, socket: socket, payloads: payloads, references: references,
                                readTimeout: .seconds(20))
                        }
                    }
                }
                var all: [ClientReport] = []
                for await report in group { all.append(report) }
                return all
            }
            thirdDurations.append(ContinuousClock.now - partStart)
            for report in reports {
                sent.merge(report.sent, uniquingKeysWith: +)
                slowest = max(slowest, report.slowest)
            }
            let failures = reports.flatMap(\.failures)
            #expect(failures.isEmpty, "third \(part + 1): \(failures.count) failures, first: \(failures.prefix(8))")
            try #require(daemon.process.isRunning, "the daemon died in third \(part + 1)")
            rssAfterThird.append(try #require(residentKiB(of: pid)))
            guard failures.isEmpty else { return }
        }
        #expect(sent.values.reduce(0, +) == Self.requestCount)

        // Bounded memory: flat over the last two thirds (not measured under a sanitizer, whose quarantine
        // keeps freed memory resident by design).
        let growth = rssAfterThird[2] - rssAfterThird[0]
        #expect(
            activeSanitizer != nil || growth < Self.allowedGrowthKiB,
            "RSS grew by \(growth) KiB over the last 400 requests (\(rssAfterThird[0]) → \(rssAfterThird[2]) KiB)")

        // Quiet again: no query left in flight, and the first query answered exactly as before.
        let settled = await offThread { () -> (health: HealthJSON?, answer: AnswerDigest?, issue: String?) in
            var health: HealthJSON?
            let deadline = ContinuousClock.now + .seconds(10)
            repeat {
                guard let connection = try? RawConnection(path: socket, readTimeout: .seconds(10)) else { break }
                let response = connection.readResponseAfter(request("GET", "/healthz"))
                if let issue = problem(response, status: 200) { return (nil, nil, "healthz: \(issue)") }
                health = response.flatMap { try? JSONDecoder().decode(HealthJSON.self, from: Data($0.body.utf8)) }
                if health?.queriesInFlight == 0 { break }
                Thread.sleep(forTimeInterval: 0.05)
            } while ContinuousClock.now < deadline
            guard let connection = try? RawConnection(path: socket, readTimeout: .seconds(30)) else {
                return (health, nil, "could not connect")
            }
            let response = connection.readResponseAfter(
                request("POST", "/v1/query?limit=5", contentType: "image/jpeg", body: payloads.photos[0]))
            if let issue = problem(response, status: 200) { return (health, nil, "final query: \(issue)") }
            let answer = response.flatMap {
                try? JSONDecoder().decode(QueryResponseJSON.self, from: Data($0.body.utf8))
            }
            return (health, answer.map(AnswerDigest.init), nil)
        }
        #expect(settled.issue == nil)
        #expect(settled.health?.status == "ok")
        #expect(
            settled.health?.queriesInFlight == 0,
            "queries left in flight: \(settled.health.map { "\($0.queriesInFlight)" } ?? "no answer")")
        #expect(settled.answer == references[0], "the last query is answered exactly like the first")
        let rssEnd = try #require(residentKiB(of: pid))

        // Nothing lost: the daemon counted every error answer it gave, by code.
        let metrics = await offThread { () -> String? in
            guard let connection = try? RawConnection(path: socket, readTimeout: .seconds(10)) else { return nil }
            let response = connection.readResponseAfter(request("GET", "/metrics"))
            return response.flatMap { $0.status == 200 ? $0.body : nil }
        }
        let exposition = try #require(metrics, "GET /metrics answered")
        for kind in SoakKind.allCases {
            guard let code = kind.errorCode else { continue }
            #expect(
                metricSample(exposition, "glimpse_errors_total{kind=\"\(code)\"}") == Double(kind.count),
                "errors counted for \(code)")
        }
        let cancelled = metricSample(exposition, "glimpse_errors_total{kind=\"cancelled\"}") ?? 0
        let decoded = metricSample(exposition, "glimpse_stage_duration_seconds_count{stage=\"decode\"}") ?? 0

        // A clean stop.
        kill(pid, SIGTERM)
        // Generous: a connection that has not finished its request head is kept up to 5 s for it.
        let exit = await daemon.waitForExit(timeout: .seconds(45))
        #expect(exit.status == 0, "exit status \(exit.status.map { "\($0)" } ?? "none (still running)")")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket was removed")
        #expect(exit.output.contains("stopped"))
        #expect(
            !exit.output.contains("request failed"), "the daemon logged a failed request:\n\(exit.output.suffix(2000))")

        let seconds = { (duration: Duration) in
            String(format: "%.1f", duration.seconds)
        }
        print(
            """
            soak: \(plan.count) requests from \(Self.clients) clients in \(thirdDurations.map(seconds).joined(separator: " + ")) s \
            (start-up \(seconds(listening - began)) s, whole test \(seconds(ContinuousClock.now - began)) s, slowest step \(seconds(slowest)) s); \
            RSS KiB: listening \(rssListening), warm \(rssWarm), thirds \(rssAfterThird.map(String.init).joined(separator: " / ")), \
            end \(rssEnd); growth over the last two thirds \(growth) KiB; abandoned queries cancelled \(Int(cancelled)) \
            of \(SoakKind.abandonedQuery.count), pictures decoded \(Int(decoded)); daemon log \(exit.output.utf8.count) bytes
            """)
    }
}

/// A failure of the soak's own set-up steps.
private struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension RawConnection {
    /// Sends `bytes` and reads one answer; nil when the send fails or no answer arrives in time.
    fileprivate func readResponseAfter(_ bytes: [UInt8]) -> (status: Int, head: String, body: String)? {
        guard send(bytes) else { return nil }
        return readResponse()
    }
}
