import Synchronization

/// Per-search working memory: a visited-stamp array and the two heaps of the best-first search.
///
/// Reused between searches through ``HNSWScratchPool`` so a query allocates nothing but its result.
final class HNSWScratch: @unchecked Sendable {
    // @unchecked Sendable because: a scratch is used by one search at a time; the pool hands it over under
    // its lock, and the builder gives each thread its own.
    private var visited: [UInt32]
    private var stamp: UInt32 = 0
    var candidates: CandidateHeap
    var results: CandidateHeap
    var selection: [Candidate] = []
    var linkBuffer: [UInt32] = []

    init(nodeCount: Int) {
        visited = [UInt32](repeating: 0, count: nodeCount)
        candidates = CandidateHeap(isMaxHeap: false, capacity: 256)
        results = CandidateHeap(isMaxHeap: true, capacity: 256)
    }

    var nodeCount: Int { visited.count }

    /// Starts a new search: every node becomes unvisited.
    func beginSearch() {
        stamp &+= 1
        if stamp == 0 {
            for i in visited.indices { visited[i] = 0 }
            stamp = 1
        }
        candidates.removeAll()
        results.removeAll()
    }

    /// Marks `node` visited and says whether it already was.
    @inline(__always)
    func visit(_ node: UInt32) -> Bool {
        let i = Int(node)
        if visited[i] == stamp { return true }
        visited[i] = stamp
        return false
    }
}

/// Read access to a built or partly built graph: the greedy and best-first layer searches.
struct HNSWGraph: Sendable {
    let storage: HNSWStorage
    let metric: DistanceMetric

    @inline(__always)
    func distance(_ query: UnsafePointer<Float>, _ node: UInt32) -> Float {
        DistanceKernel.distance(metric, query, storage.vector(node), count: storage.dimension)
    }

    @inline(__always)
    func distance(between a: UInt32, _ b: UInt32) -> Float {
        DistanceKernel.distance(metric, storage.vector(a), storage.vector(b), count: storage.dimension)
    }

    /// Walks `level` greedily from `start` to a local minimum of the distance to `query`.
    func greedyClosest(_ query: UnsafePointer<Float>, from start: Candidate, level: Int) -> Candidate {
        var best = start
        var changed = true
        while changed {
            changed = false
            for link in storage.links(best.node, level: level) {
                let d = distance(query, link)
                if d < best.distance || (d == best.distance && link < best.node) {
                    best = Candidate(distance: d, node: link)
                    changed = true
                }
            }
        }
        return best
    }

    /// Best-first search of `level` from `entry`: leaves the `ef` nearest nodes found in `scratch.results`.
    ///
    /// Nodes for which `isExcluded` is true are traversed but never enter the results.
    func searchLayer(
        _ query: UnsafePointer<Float>, entry: Candidate, ef: Int, level: Int, scratch: HNSWScratch,
        isExcluded: (UInt32) -> Bool = { _ in false }
    ) {
        scratch.beginSearch()
        _ = scratch.visit(entry.node)
        scratch.candidates.push(entry)
        if !isExcluded(entry.node) { scratch.results.push(entry) }
        var bound = scratch.results.top?.distance ?? Float.infinity
        while let current = scratch.candidates.pop() {
            if current.distance > bound && scratch.results.count >= ef { break }
            for link in storage.links(current.node, level: level) {
                if scratch.visit(link) { continue }
                let d = distance(query, link)
                if scratch.results.count < ef || d < bound {
                    scratch.candidates.push(Candidate(distance: d, node: link))
                    if !isExcluded(link) {
                        scratch.results.push(Candidate(distance: d, node: link))
                        if scratch.results.count > ef { scratch.results.pop() }
                    }
                    bound = scratch.results.top?.distance ?? Float.infinity
                }
            }
        }
    }

    /// Picks at most `limit` of `sorted` (ascending) by the HNSW heuristic: a candidate is kept only if
    /// it is nearer to the base node than to every candidate already kept, which spreads links out.
    func selectNeighbors(_ sorted: [Candidate], limit: Int, into kept: inout [Candidate]) {
        kept.removeAll(keepingCapacity: true)
        if sorted.count <= limit {
            kept.append(contentsOf: sorted)
            return
        }
        for candidate in sorted {
            if kept.count >= limit { break }
            var good = true
            for chosen in kept where distance(between: candidate.node, chosen.node) < candidate.distance {
                good = false
                break
            }
            if good { kept.append(candidate) }
        }
    }
}

/// A lock-protected stack of scratch memories shared by concurrent searches.
final class HNSWScratchPool: Sendable {
    private let free: Mutex<[HNSWScratch]>
    private let nodeCount: Int

    init(nodeCount: Int) {
        self.nodeCount = nodeCount
        free = Mutex([])
    }

    /// Runs `body` with a scratch no other search is using.
    func withScratch<R>(_ body: (HNSWScratch) throws(IndexError) -> R) throws(IndexError) -> R {
        let scratch = free.withLock { $0.popLast() } ?? HNSWScratch(nodeCount: nodeCount)
        defer { free.withLock { $0.append(scratch) } }
        return try body(scratch)
    }
}
