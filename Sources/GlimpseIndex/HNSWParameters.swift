/// The construction and search parameters of an ``HNSWIndex``.
public struct HNSWParameters: Sendable, Hashable {
    /// `M`: the number of links a node gets on each level it joins (twice as many allowed on level 0).
    public var maxLinks: Int
    /// The candidate-list size while inserting; larger builds a better graph, more slowly.
    public var efConstruction: Int
    /// The default candidate-list size while searching (raised to `k` when smaller); larger is more
    /// accurate and slower.
    public var efSearch: Int
    /// Fixes the random level of every node, so equal inputs and parameters build equal graphs.
    public var seed: UInt64
    /// Threads used by the build. The graph does not depend on it: nodes are inserted in batches whose
    /// work is split between threads without sharing writes.
    public var buildThreads: Int

    /// Creates parameters; the defaults suit a few hundred thousand vectors of a few hundred dimensions.
    public init(
        maxLinks: Int = 16, efConstruction: Int = 200, efSearch: Int = 64, seed: UInt64 = 100, buildThreads: Int = 1
    ) {
        self.maxLinks = maxLinks
        self.efConstruction = efConstruction
        self.efSearch = efSearch
        self.seed = seed
        self.buildThreads = buildThreads
    }

    /// Throws unless every parameter is in its accepted range.
    public func validate() throws(IndexError) {
        guard (2...127).contains(maxLinks) else {
            throw .invalidParameter(name: "maxLinks", value: maxLinks, reason: "use 2 to 127 (16 is typical)")
        }
        guard (1...100_000).contains(efConstruction) else {
            throw .invalidParameter(
                name: "efConstruction", value: efConstruction, reason: "use 1 to 100000 (100 to 400 is typical)")
        }
        guard (1...100_000).contains(efSearch) else {
            throw .invalidParameter(name: "efSearch", value: efSearch, reason: "use 1 to 100000 (32 to 256 is typical)")
        }
        guard (1...256).contains(buildThreads) else {
            throw .invalidParameter(name: "buildThreads", value: buildThreads, reason: "use 1 to 256")
        }
    }
}
