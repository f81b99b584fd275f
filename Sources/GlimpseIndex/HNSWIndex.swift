import Synchronization

/// An approximate nearest-neighbour index: a hierarchical navigable small-world (HNSW) graph.
///
/// Built once from a set of vectors, then read-only apart from deletions, which mark vectors so that
/// searches skip them (they still help navigation). Searches may run concurrently from any number of
/// tasks. With the same vectors and ``HNSWParameters`` the graph, and so every result, is the same.
public final class HNSWIndex: NearestNeighborIndex {
    /// The number of components of every vector.
    public let dimension: Int
    /// How distances are measured.
    public let metric: DistanceMetric
    /// The parameters the graph was built with; `efSearch` is the default for searches.
    public let parameters: HNSWParameters
    /// The id of each stored vector, by graph node.
    public let ids: [Int]
    let storage: HNSWStorage
    let entryPoint: UInt32
    let maxLevel: Int
    private let nodeByID: [Int: UInt32]
    private let deletions: Mutex<DeletionSet>
    private let scratchPool: HNSWScratchPool

    /// Builds an index over the vectors of `flat`, keeping their ids.
    ///
    /// - Throws: ``IndexError/invalidParameter(name:value:reason:)`` when a parameter is out of range.
    /// - Complexity: about O(`count × log(count) × efConstruction`) distance computations.
    public convenience init(building flat: FlatIndex, parameters: HNSWParameters = HNSWParameters()) throws(IndexError) {
        try parameters.validate()
        let levels = HNSWBuilder.levels(count: flat.count, parameters: parameters)
        let storage = HNSWStorage(dimension: flat.dimension, maxLinks: parameters.maxLinks, levels: levels)
        flat.vectors.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { storage.vectors.update(from: base, count: source.count) }
        }
        var builder = HNSWBuilder(storage: storage, metric: flat.metric, parameters: parameters)
        builder.build()
        try self.init(
            metric: flat.metric, parameters: parameters, ids: flat.ids, storage: storage,
            entryPoint: builder.entryPoint, maxLevel: builder.maxLevel, deleted: [])
    }

    /// Builds an index over `count × dimension` floats laid out row by row, with ids `0..<count`.
    ///
    /// - Throws: ``IndexError`` when the dimension or a parameter is out of range, or a value is non-finite.
    public convenience init(
        dimension: Int, metric: DistanceMetric, rowMajor: [Float], parameters: HNSWParameters = HNSWParameters()
    ) throws(IndexError) {
        try self.init(building: FlatIndex(dimension: dimension, metric: metric, rowMajor: rowMajor), parameters: parameters)
    }

    /// Assembles an index from a built or loaded graph.
    init(
        metric: DistanceMetric, parameters: HNSWParameters, ids: [Int], storage: HNSWStorage,
        entryPoint: UInt32, maxLevel: Int, deleted: [Int]
    ) throws(IndexError) {
        dimension = storage.dimension
        self.metric = metric
        self.parameters = parameters
        self.ids = ids
        self.storage = storage
        self.entryPoint = entryPoint
        self.maxLevel = maxLevel
        var map: [Int: UInt32] = [:]
        map.reserveCapacity(ids.count)
        for (node, id) in ids.enumerated() {
            guard map.updateValue(UInt32(node), forKey: id) == nil else { throw .duplicateID(id) }
        }
        nodeByID = map
        var set = DeletionSet(nodeCount: ids.count)
        for id in deleted {
            guard let node = map[id] else { throw .unknownID(id) }
            set.insert(node)
        }
        deletions = Mutex(set)
        scratchPool = HNSWScratchPool(nodeCount: ids.count, maxLinks0: storage.maxLinks0)
    }

    /// The number of vectors a search can return: those stored and not deleted.
    public var count: Int { ids.count - deletions.withLock { $0.count } }

    /// The ids of deleted vectors, in node order.
    public var deletedIDs: [Int] {
        let set = deletions.withLock { $0 }
        return ids.indices.filter { set.contains(UInt32($0)) }.map { ids[$0] }
    }

    /// Bytes held by the graph and its vectors (not counting the id map).
    public var memoryBytes: Int {
        storage.nodeCount * (storage.dimension * 4 + storage.stride0 * 4 + 4 + 1 + 8)
            + storage.upperBlockCount * storage.strideUpper * 4
    }

    /// The deletion set at this moment.
    var deletionSnapshot: DeletionSet { deletions.withLock { $0 } }

    /// The highest graph level.
    public var levelCount: Int { maxLevel + 1 }

    /// Marks the vector with `id` deleted: searches no longer return it.
    /// - Throws: ``IndexError/unknownID(_:)`` when no live vector has that id.
    public func delete(id: Int) throws(IndexError) {
        guard let node = nodeByID[id] else { throw .unknownID(id) }
        let inserted = deletions.withLock { $0.insert(node) }
        guard inserted else { throw .unknownID(id) }
    }

    /// Whether the index holds a live (not deleted) vector with `id`.
    public func contains(id: Int) -> Bool {
        guard let node = nodeByID[id] else { return false }
        return !deletions.withLock { $0.contains(node) }
    }

    /// The `k` stored vectors nearest to `query` found with the default `efSearch`.
    ///
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component, or `k < 0`.
    public func search(_ query: UnsafeBufferPointer<Float>, k: Int) throws(IndexError) -> [Neighbor] {
        try search(query, k: k, efSearch: parameters.efSearch)
    }

    /// The `k` stored vectors nearest to `query`, searching with a candidate list of `max(efSearch, k)`.
    ///
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component, `k < 0`
    ///   or `efSearch < 1`.
    public func search(_ query: [Float], k: Int, efSearch: Int) throws(IndexError) -> [Neighbor] {
        try query.withUnsafeBufferPointer { (buffer) throws(IndexError) -> [Neighbor] in
            try search(buffer, k: k, efSearch: efSearch)
        }
    }

    /// The `k` stored vectors nearest to `query`, searching with a candidate list of `max(efSearch, k)`.
    ///
    /// - Throws: ``IndexError`` when `query` has the wrong dimension or a non-finite component, `k < 0`
    ///   or `efSearch < 1`.
    public func search(_ query: UnsafeBufferPointer<Float>, k: Int, efSearch: Int) throws(IndexError) -> [Neighbor] {
        guard k >= 0 else { throw .invalidK(k) }
        guard efSearch >= 1 else {
            throw .invalidParameter(name: "efSearch", value: efSearch, reason: "use 1 or more")
        }
        let deleted = deletions.withLock { $0 }
        return try VectorPreparation.withPreparedQuery(query, dimension: dimension, metric: metric) {
            (q) throws(IndexError) -> [Neighbor] in
            guard k > 0, ids.count > 0 else { return [] }
            return try scratchPool.withScratch { (scratch) throws(IndexError) -> [Neighbor] in
                let graph = HNSWGraph(storage: storage, metric: metric)
                var current = Candidate(distance: graph.distance(q, entryPoint), node: entryPoint)
                for level in stride(from: maxLevel, to: 0, by: -1) {
                    current = graph.greedyClosest(q, from: current, level: level)
                }
                let ef = max(efSearch, k)
                if deleted.count == 0 {
                    graph.searchLayer(q, entry: current, ef: ef, level: 0, scratch: scratch)
                } else {
                    deleted.bits.withUnsafeBufferPointer { bits in
                        graph.searchLayer(q, entry: current, ef: ef, level: 0, scratch: scratch, excluded: bits)
                    }
                }
                var found = scratch.results.items.map { Neighbor(id: ids[Int($0.node)], distance: $0.distance) }
                found.sort { $0.ranks(before: $1) }
                if found.count > k { found.removeLast(found.count - k) }
                return found
            }
        }
    }
}

/// A bit set of deleted graph nodes.
struct DeletionSet: Sendable {
    private(set) var bits: [UInt64]
    private(set) var count = 0

    init(nodeCount: Int) {
        bits = [UInt64](repeating: 0, count: (nodeCount + 63) / 64)
    }

    func contains(_ node: UInt32) -> Bool {
        bits[Int(node >> 6)] & (1 << UInt64(node & 63)) != 0
    }

    /// Marks `node`; returns false when it already was.
    @discardableResult
    mutating func insert(_ node: UInt32) -> Bool {
        guard !contains(node) else { return false }
        bits[Int(node >> 6)] |= 1 << UInt64(node & 63)
        count += 1
        return true
    }
}
