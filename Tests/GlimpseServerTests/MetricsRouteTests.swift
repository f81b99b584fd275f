import Foundation
import GlimpseImage
import GlimpseServer
import GlimpseWire
import NIOCore
import Testing
import GlimpseClient
import GlimpseTestSupport
import NIOHTTP1

/// `GET /metrics` counts what the daemon answered, in the Prometheus text format.
@Suite("Metrics route")
struct MetricsRouteTests {
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
            #expect(metricSample(text, #"glimpse_requests_total{route="/v1/query",method="POST",status="200"}"#) == 1, "\(text)")
            #expect(metricSample(text, #"glimpse_requests_total{route="/v1/query",method="POST",status="415"}"#) == 1)
            #expect(metricSample(text, #"glimpse_errors_total{kind="unsupported_image_format"}"#) == 1)
            #expect(metricSample(text, #"glimpse_request_duration_seconds_count{route="/v1/query"}"#) == 2)
            for stage in ["body", "decode", "query", "encode"] {
                let count = metricSample(text, "glimpse_stage_duration_seconds_count{stage=\"\(stage)\"}")
                #expect(count.map { $0 >= 1 } == true, "stage \(stage)")
            }
            #expect(metricSample(text, "glimpse_queries_in_flight") == 0)
        }
        try await daemon.stop()
    }

    /// The real catalog service, reporting keypoint slot damage as an engine that found two damaged slots does.
    final class DamagedSlotsService: ForwardingSearchService {
        let real: CatalogSearchService
        init(real: CatalogSearchService) { self.real = real }
        var matcherProblem: String? { "2 keypoint slots failed their checks; 2 references were re-extracted" }
        var keypointSlotDamage: Int { 2 }
        func search(image: PixelBuffer, labels: [String], limit: Int) async throws -> QueryResponseJSON {
            try await real.search(image: image, labels: labels, limit: limit)
        }
    }

    @Test func keypointSlotDamageIsCountedAndMakesTheDaemonDegraded() async throws {
        let plain = try await RunningDaemon.start()
        try await plain.client.withConnection { connection in
            let health = try JSONDecoder().decode(
                HealthJSON.self, from: Data(String(buffer: try await connection.send(method: .GET, target: "/healthz").body).utf8))
            #expect(health.status == "ok" && health.matcherProblem == nil)
            let text = String(buffer: try await connection.send(method: .GET, target: "/metrics").body)
            #expect(metricSample(text, "glimpse_keypoint_slot_damage_total") == 0, "\(text)")
        }
        try await plain.stop()

        let daemon = try await RunningDaemon.start(service: DamagedSlotsService(real: try await SharedService.shared.get()))
        try await daemon.client.withConnection { connection in
            let health = try JSONDecoder().decode(
                HealthJSON.self, from: Data(String(buffer: try await connection.send(method: .GET, target: "/healthz").body).utf8))
            #expect(health.status == "degraded" && health.matcherProblem?.hasPrefix("2 keypoint slots failed") == true)
            for _ in 0..<2 {
                let text = String(buffer: try await connection.send(method: .GET, target: "/metrics").body)
                #expect(metricSample(text, "glimpse_keypoint_slot_damage_total") == 2, "\(text)")
            }
        }
        try await daemon.stop()
    }
}
