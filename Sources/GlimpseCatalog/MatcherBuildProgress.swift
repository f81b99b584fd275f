/// How far building a catalog's matcher has come: what
/// ``Catalog/buildVisualMatcher(configuration:placeIDs:featureCache:printer:nullPrints:syntheticReferences:distractorPool:keypointSlots:matcherIndex:progress:)``
/// reports, so that a build of 10⁵–10⁶ references that takes minutes says what it is doing.
public struct MatcherBuildProgress: Sendable, Equatable, CustomStringConvertible {
    /// The steps of a build, in order.
    public enum Stage: String, Sendable, Equatable {
        /// Loading a saved matcher index.
        case loadingIndex = "loading the matcher index"
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

    /// Creates a report.
    public init(stage: Stage, done: Int, total: Int) {
        self.stage = stage
        self.done = done
        self.total = total
    }

    /// The step and its count, such as `distractors 20000/100000`.
    public var description: String { "\(stage.rawValue) \(done)/\(total)" }
}
