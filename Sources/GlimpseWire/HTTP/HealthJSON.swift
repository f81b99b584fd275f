/// The answer to `GET /healthz`.
public struct HealthJSON: Codable, Sendable, Equatable {
    /// `ok`; `degraded` while the catalog store cannot be reached, or once keypoint slots were found
    /// damaged (queries are still answered; ``matcherProblem`` says why).
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
    /// Why the matcher serves some references less well than it should (keypoint slots found damaged,
    /// and how many of their references were repaired); absent when it serves them all whole.
    public var matcherProblem: String?

    /// Creates a health answer.
    public init(
        status: String, places: Int, collections: Int, queriesInFlight: Int, catalogWritable: Bool? = nil,
        catalogProblem: String? = nil, matcherProblem: String? = nil
    ) {
        self.status = status
        self.places = places
        self.collections = collections
        self.queriesInFlight = queriesInFlight
        self.catalogWritable = catalogWritable
        self.catalogProblem = catalogProblem
        self.matcherProblem = matcherProblem
    }
}
