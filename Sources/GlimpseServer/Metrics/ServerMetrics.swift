import CoreMetrics
import GlimpseBasics
public import GlimpseWire
import Metrics
public import Prometheus
import Synchronization

/// The daemon's metrics, kept in its own Prometheus registry and served by `GET /metrics`.
///
/// - `glimpse_requests_total{route,method,status}`: requests answered.
/// - `glimpse_request_duration_seconds{route}`: whole-request latency histogram.
/// - `glimpse_stage_duration_seconds{stage}`: latency per query stage (`body`, `decode`, `query`,
///   `encode`).
/// - `glimpse_errors_total{kind}`: error responses by error code (`body_too_large`, `overloaded`, …).
/// - `glimpse_queries_in_flight`: image queries admitted and not finished.
/// - `glimpse_keypoint_slot_damage_total`: keypoint slots found damaged since start, once each (their
///   references are re-extracted from their photos; `GET /healthz` says `degraded`).
/// - `glimpse_print_line`: the print evidence the served catalog's print-alone accept line lies at;
///   `glimpse_print_nulls{use="measured"|"left_out"}`: the null prints it was set on and those left out as
///   copies of catalog photos; `glimpse_print_look_alike_places`: places whose line a look-alike raised.
/// - `glimpse_catalog_places`, `glimpse_catalog_collections`, `glimpse_catalog_photos`: what the served
///   snapshot holds; `glimpse_catalog_sequence`: the store's last applied change;
///   `glimpse_catalog_snapshot_age_seconds`: time since that snapshot was published.
/// - `glimpse_catalog_edits_total{kind,outcome}`: catalog edits by kind (`put_place`, `add_photo`, …)
///   and outcome (`applied`, `unchanged`, or the error code).
/// - `glimpse_catalog_edit_visible_seconds`: from the store's commit of an edit to the moment the next
///   query sees it (the edit is acknowledged after that); `glimpse_catalog_edit_duration_seconds`: a
///   whole edit request, photo decoding and feature extraction included.
public final class ServerMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let inFlightGauge: CoreMetrics.Gauge
    /// The keypoint slot damage counter, and the count it was last brought to.
    private let slotDamage: CoreMetrics.Counter
    private let slotDamageCounted = Mutex(0)
    private let catalogGauges: (places: CoreMetrics.Gauge, collections: CoreMetrics.Gauge, photos: CoreMetrics.Gauge,
                                sequence: CoreMetrics.Gauge, age: CoreMetrics.Gauge)
    private let publishedAt = Mutex<ContinuousClock.Instant?>(nil)
    private let printGauges: (line: CoreMetrics.Gauge, measured: CoreMetrics.Gauge, leftOut: CoreMetrics.Gauge,
                              lookAlikes: CoreMetrics.Gauge)

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
        self.slotDamage = CoreMetrics.Counter(label: "glimpse_keypoint_slot_damage_total", factory: factory)
        self.catalogGauges = (
            CoreMetrics.Gauge(label: "glimpse_catalog_places", factory: factory),
            CoreMetrics.Gauge(label: "glimpse_catalog_collections", factory: factory),
            CoreMetrics.Gauge(label: "glimpse_catalog_photos", factory: factory),
            CoreMetrics.Gauge(label: "glimpse_catalog_sequence", factory: factory),
            CoreMetrics.Gauge(label: "glimpse_catalog_snapshot_age_seconds", factory: factory)
        )
        self.printGauges = (
            CoreMetrics.Gauge(label: "glimpse_print_line", factory: factory),
            CoreMetrics.Gauge(label: "glimpse_print_nulls", dimensions: [("use", "measured")], factory: factory),
            CoreMetrics.Gauge(label: "glimpse_print_nulls", dimensions: [("use", "left_out")], factory: factory),
            CoreMetrics.Gauge(label: "glimpse_print_look_alike_places", factory: factory)
        )
    }

    /// Records the snapshot now served: its size and the store's sequence number; its age counts from now.
    public func setCatalog(places: Int, collections: Int, photos: Int, sequence: Int64) {
        catalogGauges.places.record(places)
        catalogGauges.collections.record(collections)
        catalogGauges.photos.record(photos)
        catalogGauges.sequence.record(sequence)
        publishedAt.withLock { $0 = .now }
    }

    /// Whether ``setCatalog(places:collections:photos:sequence:)`` was called.
    public var hasCatalog: Bool { publishedAt.withLock { $0 != nil } }

    /// Counts one catalog edit by kind and outcome.
    public func recordEdit(kind: String, outcome: String) {
        CoreMetrics.Counter(
            label: "glimpse_catalog_edits_total", dimensions: [("kind", kind), ("outcome", outcome)], factory: factory
        ).increment()
    }

    /// Records an applied edit's time from the store's commit to visibility, and the whole request's.
    public func recordEditTimes(visible: Duration, total: Duration) {
        CoreMetrics.Timer(label: "glimpse_catalog_edit_visible_seconds", factory: factory)
            .recordNanoseconds(visible.nanoseconds)
        CoreMetrics.Timer(label: "glimpse_catalog_edit_duration_seconds", factory: factory)
            .recordNanoseconds(total.nanoseconds)
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

    /// Brings the keypoint slot damage counter to `total`, the slots the engine found damaged since start
    /// (it only ever grows).
    public func setKeypointSlotDamage(_ total: Int) {
        let step = slotDamageCounted.withLock { counted -> Int in
            defer { counted = max(counted, total) }
            return max(0, total - counted)
        }
        if step > 0 { slotDamage.increment(by: step) }
    }

    /// Records the served catalog's print line; without one the gauges stay unset.
    public func setPrintLine(_ line: PrintLineJSON?) {
        guard let line else { return }
        printGauges.line.record(line.evidence)
        printGauges.measured.record(line.nulls)
        printGauges.leftOut.record(line.nullsLeftOut)
        printGauges.lookAlikes.record(line.lookAlikePlaces)
    }

    /// The metrics in the Prometheus text exposition format.
    public func exposition() -> String {
        if let published = publishedAt.withLock({ $0 }) {
            catalogGauges.age.record((ContinuousClock.now - published).seconds)
        }
        return registry.emitToString()
    }
}

