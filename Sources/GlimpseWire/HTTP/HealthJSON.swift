/// The answer to `GET /healthz`.
public struct HealthJSON: Codable, Sendable, Equatable {
    /// `ok`; `degraded` while the catalog store cannot be reached (queries are still answered).
    public var status: String
    /// Places in the loaded catalog.
    public var places: Int
    /// Collections in the loaded catalog.
    public var collections: Int
    /// Image queries running or waiting.
    public var queriesInFlight: Int
    /// Whether catalog edits can be stored now; absent when the daemon serves a folder (no store).
    public var catalogWritable: Bool?
    /// Why edits cannot be stored, while they cannot.
    public var catalogProblem: String?

    /// Creates a health answer.
    public init(
        status: String, places: Int, collections: Int, queriesInFlight: Int, catalogWritable: Bool? = nil,
        catalogProblem: String? = nil
    ) {
        self.status = status
        self.places = places
        self.collections = collections
        self.queriesInFlight = queriesInFlight
        self.catalogWritable = catalogWritable
        self.catalogProblem = catalogProblem
    }
}
