import CoreMetrics
import GlimpseBasics
import Metrics
import Prometheus

/// The daemon's metrics, kept in its own Prometheus registry and served by `GET /metrics`.
///
/// - `glimpse_requests_total{route,method,status}`: requests answered.
/// - `glimpse_request_duration_seconds{route}`: whole-request latency histogram.
/// - `glimpse_stage_duration_seconds{stage}`: latency per query stage (`body`, `decode`, `query`,
///   `encode`).
/// - `glimpse_errors_total{kind}`: error responses by error code (`body_too_large`, `overloaded`, …).
/// - `glimpse_queries_in_flight`: image queries admitted and not finished.
public final class ServerMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let inFlightGauge: CoreMetrics.Gauge

    /// Creates metrics in a fresh registry.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        self.inFlightGauge = CoreMetrics.Gauge(label: "glimpse_queries_in_flight", factory: factory)
    }

    /// Counts one answered request and records its latency.
    public func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        CoreMetrics.Counter(
            label: "glimpse_requests_total",
            dimensions: [("route", route), ("method", method), ("status", String(status))],
            factory: factory
        ).increment()
        CoreMetrics.Timer(label: "glimpse_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Records how long one stage of a query took.
    public func recordStage(_ stage: String, duration: Duration) {
        CoreMetrics.Timer(label: "glimpse_stage_duration_seconds", dimensions: [("stage", stage)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// Counts one error response by its code.
    public func recordError(kind: String) {
        CoreMetrics.Counter(label: "glimpse_errors_total", dimensions: [("kind", kind)], factory: factory).increment()
    }

    /// Sets the number of queries in flight.
    public func setQueriesInFlight(_ count: Int) {
        inFlightGauge.record(count)
    }

    /// The metrics in the Prometheus text exposition format.
    public func exposition() -> String {
        registry.emitToString()
    }
}

