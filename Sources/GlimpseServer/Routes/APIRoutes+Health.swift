import GlimpseWire
import Hummingbird
import NIOCore

/// `GET /healthz` and `GET /metrics`.
extension APIRoutes {
    /// `GET /healthz`: the catalog's size, the queries in flight, whether the store is writable and
    /// whether the matcher serves every reference whole.
    func health() async throws -> Response {
        let problem = await editor?.storeProblem()
        let matcherProblem = service.matcherProblem
        return try json(
            HealthJSON(
                status: problem == nil && matcherProblem == nil ? "ok" : "degraded",
                places: service.placeCount,
                collections: service.collectionCount,
                queriesInFlight: gate.inFlight,
                catalogWritable: editor.map { _ in problem == nil },
                catalogProblem: problem,
                matcherProblem: matcherProblem
            )
        )
    }

    /// `GET /metrics`: the Prometheus exposition.
    func metricsExposition() async -> Response {
        metrics.setQueriesInFlight(gate.inFlight)
        metrics.setKeypointSlotDamage(service.keypointSlotDamage)
        metrics.setPrintLine(service.printLine)
        if !metrics.hasCatalog {
            // The catalog served since start: its age counts from the first exposition.
            let info = await editor?.info()
            metrics.setCatalog(
                places: service.placeCount, collections: service.collectionCount, photos: service.photoCount,
                sequence: info?.sequence ?? 0)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.exposition()))
        )
    }
}
