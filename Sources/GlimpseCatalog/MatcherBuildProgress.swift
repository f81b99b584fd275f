/// How far building a catalog's matcher has come: what
/// ``Catalog/buildVisualMatcher(configuration:placeIDs:featureCache:printer:nullPrints:syntheticReferences:distractorPool:keypointSlots:matcherIndex:progress:)``
/// reports, so that a build of 10⁵–10⁶ references that takes minutes says what it is doing.
public struct MatcherBuildProgress: Sendable, Equatable, CustomStringConvertible {
    /// The steps of a build, in order.
    public enum Stage: String, Sendable, Equatable {
        /// Loading a saved matcher index.
        case loadingIndex = "loading the matcher index"
        /// Bringing a loaded matcher index up to date with the catalog: the photos added and removed since
        /// it was saved (`done` of them applied, `total` in all).
        case catchingUp = "photos changed since the matcher index"
        /// Extracting (or reading from the feature cache) the catalog photos' features.
        case references = "catalog photo features"
        /// Making and adding distractors.
        case distractors = "distractors"
        /// Building the shortlist index.
        case index = "shortlist index"
        /// Saving the matcher index.
        case savingIndex = "saving the matcher index"
    }

    /// The step under way.
    public let stage: Stage
    /// How many of its items are done.
    public let done: Int
    /// How many it has.
    public let total: Int
    /// Why the step failed, when it did (saving an index the disk refused, for instance); `nil` otherwise.
    public let problem: String?
    /// Of the items done, how many an interrupted build had already made (catalog photo features kept in
    /// the feature cache's build journal), so this build did not make them again.
    public let kept: Int

    /// Creates a report.
    public init(stage: Stage, done: Int, total: Int, problem: String? = nil, kept: Int = 0) {
        self.stage = stage
        self.done = done
        self.total = total
        self.problem = problem
        self.kept = kept
    }

    /// The step and its count, such as `distractors 20000/100000` or `catalog photo features 900/1000 (400
    /// kept from an interrupted build)`, and what went wrong, if anything.
    public var description: String {
        "\(stage.rawValue) \(done)/\(total)" + (kept > 0 ? " (\(kept) kept from an interrupted build)" : "")
            + (problem.map { " failed: \($0)" } ?? "")
    }
}
