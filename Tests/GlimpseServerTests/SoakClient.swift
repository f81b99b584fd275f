import Foundation
import GlimpseWire

// One soak client (see SoakTests): the requests it sends and how each answer is checked.

/// An HTTP/1.1 request with a body.
func soakRequest(_ method: String, _ target: String, contentType: String? = nil, body: [UInt8] = []) -> [UInt8] {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: glimpse\r\n"
    if let contentType { head += "Content-Type: \(contentType)\r\n" }
    if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    return Array((head + "\r\n").utf8) + body
}

/// What one client saw over its share of a third of the soak.
struct SoakClientReport: Sendable {
    var failures: [String] = []
    var sent: [SoakKind: Int] = [:]
    var slowest: Duration = .zero
}

/// Checks that a response has `status`, a JSON content type and, for 4xx/5xx, a JSON error body with
/// `code`; returns a description of what was wrong, or nil.
func soakProblem(
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
func runSoakClient(
    steps: [SoakStep], socket: String, payloads: SoakPayloads, references: [SoakAnswer], readTimeout: Duration
) -> SoakClientReport {
    var report = SoakClientReport()
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
                soakRequest("POST", "/v1/query?limit=5", contentType: "image/jpeg", body: payloads.photos[photo]))
            failure = soakProblem(response, status: 200)
            if failure == nil, let response {
                if let answer = try? JSONDecoder().decode(QueryResponseJSON.self, from: Data(response.body.utf8)) {
                    let best = answer.results.first.map { "\($0.type)/\($0.entity.id)" } ?? "none"
                    if best != "place/\(soakPhotos[photo].place)" {
                        failure = "best result \(best), expected place/\(soakPhotos[photo].place)"
                    } else if SoakAnswer(answer) != references[photo] {
                        failure = "answer for \(soakPhotos[photo].file) differs from the warm-up answer"
                    }
                } else {
                    failure = "200 body is not a query answer: \(response.body.prefix(300))"
                }
            }
        case .abandonedQuery:
            let photo = step.variant % soakPhotos.count
            if let connection = try? RawConnection(path: socket, readTimeout: readTimeout) {
                let query = soakRequest("POST", "/v1/query", contentType: "image/jpeg", body: payloads.photos[photo])
                if !connection.send(query) {
                    failure = "could not send a whole query"
                }
                connection.close()
            } else {
                failure = "could not connect"
            }
        case .garbage:
            failure = soakProblem(
                exchange(soakRequest("POST", "/v1/query", contentType: "image/jpeg", body: payloads.garbage)),
                status: 415, code: "unsupported_image_format")
        case .jpegCutBeforeScan:
            failure = soakProblem(
                exchange(soakRequest("POST", "/v1/query", contentType: "image/jpeg", body: payloads.jpegCut)),
                status: 422, code: "bad_image")
        case .pngBomb:
            failure = soakProblem(
                exchange(soakRequest("POST", "/v1/query", contentType: "image/png", body: payloads.bomb)),
                status: 413, code: "image_too_large")
        case .hugeContentLength:
            if let connection = try? RawConnection(path: socket, readTimeout: readTimeout) {
                connection.send(
                    "POST /v1/query HTTP/1.1\r\nHost: glimpse\r\nContent-Type: image/jpeg\r\n"
                        + "Content-Length: 1000000000\r\n\r\n")
                failure = soakProblem(connection.readResponse(), status: 413, code: "body_too_large")
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
            let response = exchange(soakRequest("GET", "/v1/entities?q=\(text)&limit=5"))
            failure = soakProblem(response, status: 200)
            if failure == nil, let response {
                let list = try? JSONDecoder().decode(EntityListJSON.self, from: Data(response.body.utf8))
                if list?.entities.isEmpty != false {
                    failure = "no entities for q=\(text): \(response.body.prefix(300))"
                }
            }
        case .health:
            let response = exchange(soakRequest("GET", "/healthz"))
            failure = soakProblem(response, status: 200)
            if failure == nil, let response {
                let health = try? JSONDecoder().decode(HealthJSON.self, from: Data(response.body.utf8))
                if health?.status != "ok" { failure = "health answer \(response.body.prefix(300))" }
            }
        case .unknownRoute:
            failure = soakProblem(
                exchange(soakRequest("GET", "/v1/no-such-route-\(step.variant)")), status: 404, code: "not_found")
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

