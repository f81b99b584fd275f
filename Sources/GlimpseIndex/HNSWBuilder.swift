import Dispatch
import GlimpseBasics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds an HNSW graph into an ``HNSWStorage``, in batches whose work is split over threads.
///
/// Nodes are inserted in id order, in batches. For each batch:
/// 1. (parallel, one thread per node) each new node searches the graph as it was before the batch, adds the
///    earlier nodes of its own batch as candidates, and writes its own link lists;
/// 2. (sequential) the reverse links are gathered and sorted by target node;
/// 3. (parallel, one thread per target) each target appends its new links, pruning with the heuristic
///    when its list is full;
/// 4. (sequential) the entry point moves to the highest new node.
/// Every thread writes only the link lists of nodes assigned to it, and what it reads was finished by an
/// earlier phase, so the result does not depend on the thread count or on timing.
struct HNSWBuilder: Sendable {
    let storage: HNSWStorage
    let graph: HNSWGraph
    let parameters: HNSWParameters
    private(set) var entryPoint: UInt32 = 0
    private(set) var maxLevel: Int = 0

    /// The largest level a node may get; with `M ≥ 2` a level above 15 is vanishingly rare.
    static let levelCap = 15

    /// The random top level of each of `count` nodes, from the seed.
    static func levels(count: Int, parameters: HNSWParameters) -> [UInt8] {
        var generator = SeededGenerator(seed: parameters.seed)
        let scale = 1 / log(Double(parameters.maxLinks))
        return (0..<count).map { _ in
            let level = Int(-log(generator.nextOpenUnitDouble()) * scale)
            return UInt8(min(level, levelCap))
        }
    }

    init(storage: HNSWStorage, metric: DistanceMetric, parameters: HNSWParameters) {
        self.storage = storage
        graph = HNSWGraph(storage: storage, metric: metric)
        self.parameters = parameters
    }

    /// Inserts every node of the storage; `storage.vectors` must already hold the prepared vectors.
    mutating func build() {
        let n = storage.nodeCount
        guard n > 0 else { return }
        entryPoint = 0
        maxLevel = Int(storage.levels[0])
        let threads = parameters.buildThreads
        let scratches = (0..<threads).map { _ in BuildScratch(nodeCount: n, maxLinks0: storage.maxLinks0) }
        var inserted = 1
        while inserted < n {
            let batch = min(n - inserted, max(1, min(Self.maximumBatch, inserted / 16)))
            insertBatch(inserted..<(inserted + batch), scratches: scratches)
            inserted += batch
        }
    }

    /// The largest number of nodes inserted against the same frozen graph.
    static let maximumBatch = 256

    private mutating func insertBatch(_ batch: Range<Int>, scratches: [BuildScratch]) {
        let frozenEntry = entryPoint
        let frozenMaxLevel = maxLevel
        let this = self
        let threads = scratches.count
        // Phase 1: new nodes choose their links.
        Self.parallel(threads: threads) { thread in
            var node = batch.lowerBound + thread
            while node < batch.upperBound {
                this.connectNewNode(
                    UInt32(node), batchStart: batch.lowerBound, entry: frozenEntry, maxLevel: frozenMaxLevel,
                    scratch: scratches[thread])
                node += threads
            }
        }
        // Phase 2: gather reverse links, grouped by target.
        var requests: [ReverseLink] = []
        for node in batch {
            let source = UInt32(node)
            for level in 0...Int(storage.levels[node]) {
                for target in storage.links(source, level: level) {
                    requests.append(ReverseLink(target: target, level: UInt8(level), source: source))
                }
            }
        }
        requests.sort { ($0.target, $0.level, $0.source) < ($1.target, $1.level, $1.source) }
        var groups: [Range<Int>] = []
        var start = 0
        for i in 1..<(requests.count + 1) where i == requests.count
            || requests[i].target != requests[start].target || requests[i].level != requests[start].level {
            groups.append(start..<i)
            start = i
        }
        // Phase 3: targets take their new links.
        let sortedRequests = requests
        let targetGroups = groups
        Self.parallel(threads: threads) { thread in
            var g = thread
            while g < targetGroups.count {
                this.addReverseLinks(sortedRequests[targetGroups[g]], scratch: scratches[thread])
                g += threads
            }
        }
        // Phase 4: the highest new node becomes the entry point.
        for node in batch where Int(storage.levels[node]) > maxLevel {
            maxLevel = Int(storage.levels[node])
            entryPoint = UInt32(node)
        }
    }

    private func connectNewNode(
        _ node: UInt32, batchStart: Int, entry: UInt32, maxLevel: Int, scratch: BuildScratch
    ) {
        let query = UnsafePointer(storage.vector(node))
        let top = Int(storage.levels[Int(node)])
        var current = Candidate(distance: graph.distance(query, entry), node: entry)
        if maxLevel > top {
            for level in stride(from: maxLevel, to: top, by: -1) {
                current = graph.greedyClosest(query, from: current, level: level)
            }
        }
        for level in stride(from: top, through: 0, by: -1) {
            scratch.pool.removeAll(keepingCapacity: true)
            if level <= maxLevel {
                graph.searchLayer(
                    query, entry: current, ef: parameters.efConstruction, level: level, scratch: scratch.search)
                scratch.pool.append(contentsOf: scratch.search.results.items)
                scratch.pool.sort { $0.ranks(before: $1) }
                if let nearest = scratch.pool.first { current = nearest }
            }
            for other in batchStart..<Int(node) where Int(storage.levels[other]) >= level {
                scratch.pool.append(Candidate(distance: graph.distance(between: node, UInt32(other)), node: UInt32(other)))
            }
            scratch.pool.sort { $0.ranks(before: $1) }
            graph.selectNeighbors(scratch.pool, limit: parameters.maxLinks, into: &scratch.kept)
            scratch.links.removeAll(keepingCapacity: true)
            for chosen in scratch.kept { scratch.links.append(chosen.node) }
            scratch.links.withUnsafeBufferPointer { storage.setLinks(node, level: level, $0) }
        }
    }

    private func addReverseLinks(_ requests: ArraySlice<ReverseLink>, scratch: BuildScratch) {
        guard let first = requests.first else { return }
        let target = first.target
        let level = Int(first.level)
        let existing = storage.links(target, level: level)
        let capacity = storage.capacity(level: level)
        scratch.links.removeAll(keepingCapacity: true)
        scratch.links.append(contentsOf: existing)
        if existing.count + requests.count <= capacity {
            for request in requests { scratch.links.append(request.source) }
        } else {
            scratch.pool.removeAll(keepingCapacity: true)
            for link in existing {
                scratch.pool.append(Candidate(distance: graph.distance(between: target, link), node: link))
            }
            for request in requests {
                scratch.pool.append(
                    Candidate(distance: graph.distance(between: target, request.source), node: request.source))
            }
            scratch.pool.sort { $0.ranks(before: $1) }
            graph.selectNeighbors(scratch.pool, limit: capacity, into: &scratch.kept)
            scratch.links.removeAll(keepingCapacity: true)
            for chosen in scratch.kept { scratch.links.append(chosen.node) }
        }
        scratch.links.withUnsafeBufferPointer { storage.setLinks(target, level: level, $0) }
    }

    /// Runs `body(thread)` for `thread` in `0..<threads`, concurrently when `threads > 1`.
    private static func parallel(threads: Int, _ body: @Sendable (Int) -> Void) {
        if threads == 1 {
            body(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: threads, execute: body)
        }
    }
}

/// A link from `source` to be added to the list of `target` at `level`.
private struct ReverseLink: Sendable {
    var target: UInt32
    var level: UInt8
    var source: UInt32
}

/// One build thread's working memory.
private final class BuildScratch: @unchecked Sendable {
    // @unchecked Sendable because: each build thread uses only the scratch with its own thread number.
    let search: HNSWScratch
    var pool: [Candidate] = []
    var kept: [Candidate] = []
    var links: [UInt32] = []

    init(nodeCount: Int, maxLinks0: Int) {
        search = HNSWScratch(nodeCount: nodeCount, maxLinks0: maxLinks0)
    }
}
