import Foundation
import GlimpseServer
import NIOCore
import Testing
import GlimpseClient
import NIOHTTP1

/// `GET /metrics` counts what the daemon answered, in the Prometheus text format.
@Suite("Metrics route")
struct MetricsRouteTests {
    /// The value of the sample line `name{labels}` (exact label text, as rendered), or `nil`.
    private func sample(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.dropFirst(series.count + 1)) }
    }

    @Test func countsRequestsErrorsAndStages() async throws {
        let daemon = try await RunningDaemon.start()
        try await daemon.client.withConnection { connection in
            _ = try await connection.query(image: try photoBytes(samplePhotos[0]), limit: 1)
            let refused = try await connection.send(
                method: .POST, target: "/v1/query", headers: [("Content-Type", "image/jpeg")],
                body: ByteBuffer(string: "garbage"))
            #expect(refused.status == 415)
            let health = try await connection.send(method: .GET, target: "/healthz")
            #expect(health.status == 200)

            let metrics = try await connection.send(method: .GET, target: "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.headers["Content-Type"].first?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: metrics.body)
            #expect(sample(text, #"glimpse_requests_total{route="/v1/query",method="POST",status="200"}"#) == 1, "\(text)")
            #expect(sample(text, #"glimpse_requests_total{route="/v1/query",method="POST",status="415"}"#) == 1)
            #expect(sample(text, #"glimpse_errors_total{kind="unsupported_image_format"}"#) == 1)
            #expect(sample(text, #"glimpse_request_duration_seconds_count{route="/v1/query"}"#) == 2)
            for stage in ["body", "decode", "query", "encode"] {
                let count = sample(text, "glimpse_stage_duration_seconds_count{stage=\"\(stage)\"}")
                #expect(count.map { $0 >= 1 } == true, "stage \(stage)")
            }
            #expect(sample(text, "glimpse_queries_in_flight") == 0)
        }
        try await daemon.stop()
    }
}
