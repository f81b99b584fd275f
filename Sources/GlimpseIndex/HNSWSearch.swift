import Synchronization

/// Per-search working memory: a visited-stamp array and the two heaps of the best-first search.
///
/// Reused between searches through ``HNSWScratchPool`` so a query allocates nothing but its result.
final class HNSWScratch: @unchecked Sendable {
    // @unchecked Sendable because: a scratch is used by one search at a time; the pool hands it over under
    // its lock, and the builder gives each thread its own.
    /// One stamp per node; a node is visited in the current search when its stamp equals `stamp`.
    /// - warning: Do not escape the pointer; it is freed with the scratch.
    private let visited: UnsafeMutablePointer<UInt32>
    let nodeCount: Int
    private var stamp: UInt32 = 0
    var candidates: CandidateHeap
    var results: CandidateHeap
    /// Unvisited links of the node being expanded.
    let pending: UnsafeMutablePointer<UInt32>
    /// Folds the bytes touched ahead of the distance kernels, so the touches are not optimised away.
    var touchSink: UInt32 = 0

    init(nodeCount: Int, maxLinks0: Int) {
        self.nodeCount = nodeCount
        visited = .allocate(capacity: max(1, nodeCount))
        visited.initialize(repeating: 0, count: max(1, nodeCount))
        pending = .allocate(capacity: max(1, maxLinks0))
        pending.initialize(repeating: 0, count: max(1, maxLinks0))
        candidates = CandidateHeap(isMaxHeap: false, capacity: 256)
        results = CandidateHeap(isMaxHeap: true, capacity: 256)
    }

    deinit {
        visited.deallocate()
        pending.deallocate()
    }

    /// Starts a new search: every node becomes unvisited. Returns the stamp marking visited nodes.
    func beginSearch() -> UInt32 {
        stamp &+= 1
        if stamp == 0 {
            visited.update(repeating: 0, count: max(1, nodeCount))
            stamp = 1
        }
        candidates.removeAll()
        results.removeAll()
        return stamp
    }

    /// Marks `node` visited with `stamp` and says whether it already was.
    @inline(__always)
    func visit(_ node: UInt32, stamp: UInt32) -> Bool {
        assert(Int(node) < nodeCount)
        let slot = visited + Int(node)
        if slot.pointee == stamp { return true }
        slot.pointee = stamp
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
    /// Nodes in `excluded` (a bit set by node) are traversed but never enter the results.
    func searchLayer(
        _ query: UnsafePointer<Float>, entry: Candidate, ef: Int, level: Int, scratch: HNSWScratch,
        excluded: UnsafeBufferPointer<UInt64>? = nil
    ) {
        let stamp = scratch.beginSearch()
        // The heaps are moved out of the scratch for the loop, so that each push and pop works on a local.
        var candidates = CandidateHeap(isMaxHeap: false, capacity: 0)
        var results = CandidateHeap(isMaxHeap: true, capacity: 0)
        swap(&candidates, &scratch.candidates)
        swap(&results, &scratch.results)
        defer {
            swap(&candidates, &scratch.candidates)
            swap(&results, &scratch.results)
        }
        @inline(__always) func isExcluded(_ node: UInt32) -> Bool {
            guard let excluded else { return false }
            return excluded[Int(node >> 6)] & (1 << UInt64(node & 63)) != 0
        }
        _ = scratch.visit(entry.node, stamp: stamp)
        candidates.push(entry)
        if !isExcluded(entry.node) { results.push(entry) }
        var bound = results.top?.distance ?? Float.infinity
        let pending = scratch.pending
        let touchBytes = storage.dimension &* 4
        var sink: UInt32 = 0
        while let current = candidates.pop() {
            if current.distance > bound && results.count >= ef { break }
            // Pass 1: collect the unvisited links and touch their vectors, so their cache misses overlap.
            var pendingCount = 0
            for link in storage.links(current.node, level: level) where !scratch.visit(link, stamp: stamp) {
                pending[pendingCount] = link
                pendingCount &+= 1
                let row = UnsafeRawPointer(storage.vector(link))
                // safe because offset < dimension × 4: every touch stays inside the row.
                var offset = 0
                while offset < touchBytes {
                    sink ^= row.load(fromByteOffset: offset, as: UInt32.self)
                    offset &+= 64
                }
            }
            // Pass 2: distances.
            for p in 0..<pendingCount {
                let link = pending[p]
                let d = distance(query, link)
                if results.count < ef || d < bound {
                    candidates.push(Candidate(distance: d, node: link))
                    if !isExcluded(link) {
                        results.push(Candidate(distance: d, node: link))
                        if results.count > ef { results.pop() }
                    }
                    bound = results.top?.distance ?? Float.infinity
                }
            }
        }
        scratch.touchSink ^= sink
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
    private let maxLinks0: Int

    init(nodeCount: Int, maxLinks0: Int) {
        self.nodeCount = nodeCount
        self.maxLinks0 = maxLinks0
        free = Mutex([])
    }

    /// Runs `body` with a scratch no other search is using.
    func withScratch<R>(_ body: (HNSWScratch) throws(IndexError) -> R) throws(IndexError) -> R {
        let scratch = free.withLock { $0.popLast() } ?? HNSWScratch(nodeCount: nodeCount, maxLinks0: maxLinks0)
        defer { free.withLock { $0.append(scratch) } }
        return try body(scratch)
    }
}
